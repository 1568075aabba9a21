"""Notifications in the site: their kinds, and each one stored, sent to the account's open
pages, handed to listeners.

Every kind is defined here once (:class:`NotificationKind`): what it tells, whether an
away player gets it by email too (and may stop that email), and the catalog keys a page
says it with; the API's schema, the emails, the unsubscribe links, the account page and
the header's list read them from here.

Every producer (a turn-based table's seat to act changing, a game finishing, a
challenge received, a rematch offered) calls :func:`notify` once, on the server
that owns what changed, so with several servers each notification is made once.
:func:`notify` stores it (``store/notifications.py``; a ``dedupe`` key already
stored for the account makes it do nothing at all), publishes a
``{"type": "notification", "notification": {...}}`` line on the account's bus
channel (:mod:`meeple.tables.notices.user_events`: the account's page sockets and event
streams on every server hear it) and calls every listener the :class:`Notifier` was
built with (the turn emails are one). A listener that fails is logged and never stops
the others nor the producer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from meeple.bus import Bus
from meeple.store import notifications as store
from meeple.store.database import Database
from meeple.store.models import Notification
from meeple.tables.clock import Clock
from meeple.tables.notices.user_events import publish_user_event

log = logging.getLogger(__name__)


class NotificationKind(StrEnum):
    """Each kind of notification: whether it is emailed, and how a page says it.

    A member is ``"word", emailed, text[, text_won]``: ``emailed``, an away player gets
    it by email too (:mod:`meeple.tables.notices.turn_emails`, which says when), and an
    unsubscribe link or the account page may stop that email; ``text``, the catalog key a
    page says it with, filled with its data; ``text_won``, the key for a first place, if
    it has one.
    """

    emailed: bool
    text: str
    text_won: str | None

    def __new__(
        cls, word: str, emailed: bool, text: str, text_won: str | None = None
    ) -> NotificationKind:
        member = str.__new__(cls, word)
        member._value_ = word
        member.emailed, member.text, member.text_won = emailed, text, text_won
        return member

    @classmethod
    def named(cls, word: str) -> NotificationKind:
        """The kind spelled ``word`` (as stored); ``ValueError`` for a word naming no kind."""
        kind = cls._value2member_map_.get(word)
        if kind is None:
            raise ValueError(f"no such notification kind: {word}")
        return cast(NotificationKind, kind)

    YOUR_TURN = "your_turn", True, "js.notif.your_turn"
    """A turn-based table waits for the account's move (``data``: game, seat, opponents)."""
    GAME_FINISHED = "game_finished", True, "js.notif.finished", "js.notif.won"
    """A game the account played finished (``data``: game, seat, rank, score, players,
    opponents)."""
    CHALLENGE = "challenge", False, "js.notif.challenge"
    """Another account challenged this one (``data``: challenge id, from, game, pace)."""
    INVITATION = "invitation", False, "js.notif.invitation"
    """An invitation to a table addressed to this account (no producer yet: invites are links)."""
    REMATCH = "rematch", False, "js.notif.rematch"
    """An opponent at a finished table asked for a rematch (``data``: game, from)."""
    TOURNAMENT_GAME = "tournament_game", True, "js.notif.tournament_game"
    """A tournament paired the account: its game's table is open (``data``: tournament id,
    name, game, round, pace). Emailed only for a turn-based tournament (pace ``turn``): a
    real-time round's game is played at once, so an email would come too late."""
    WARNING = "warning", False, "js.notif.warning"
    """A moderator warned the account (``data``: the moderator's reason; docs/moderation.md)."""
    FRIEND_ONLINE = "friend_online", False, "js.notif.friend_online"
    """An account the player follows came online (``data``: from, bot); at most once per
    followed account every few hours (:mod:`meeple.tables.notices.friends`)."""
    FRIEND_ENTERED = "friend_entered", False, "js.notif.friend_entered"
    """An account the player follows joined a public tournament (``data``: from, tournament
    id, name, game)."""


EMAILED = tuple(kind for kind in NotificationKind if kind.emailed)
"""The kinds an away player also gets by email: each an email an account may stop."""


def page_texts() -> dict[str, dict[str, str]]:
    """What the pages' scripts need to say each kind: its catalog keys (``text``, and
    ``won`` for a first place), by kind."""
    texts: dict[str, dict[str, str]] = {}
    for kind in NotificationKind:
        texts[kind.value] = {"text": kind.text}
        if kind.text_won is not None:
            texts[kind.value]["won"] = kind.text_won
    return texts


@dataclass(frozen=True)
class Note:
    """A stored notification as producers, listeners and pages see it."""

    id: int
    user_id: int
    kind: NotificationKind
    data: dict[str, Any]
    table_id: str | None
    created_at: float
    read: bool

    @classmethod
    def of(cls, row: Notification) -> Note:
        """The notification a stored row holds."""
        return cls(
            id=row.id,
            user_id=row.user_id,
            kind=NotificationKind.named(row.kind),
            data=dict(row.data),
            table_id=row.table_id,
            created_at=row.created_at,
            read=row.read_at is not None,
        )

    def json(self) -> dict[str, Any]:
        """The notification as a page or an event stream gets it (no account id: it is theirs)."""
        return {
            "id": self.id,
            "kind": self.kind.value,
            "data": self.data,
            "table_id": self.table_id,
            "created_at": self.created_at,
            "read": self.read,
        }


Listener = Callable[[Note], Awaitable[None]]
"""Called with each notification just stored (never for a deduplicated one)."""


class Notifier:
    """Makes notifications on this server: store, publish, listeners."""

    def __init__(
        self, db: Database, bus: Bus, clock: Clock, listeners: Sequence[Listener] = ()
    ) -> None:
        """``listeners``: each called with every notification stored (the turn emails)."""
        self.db, self.bus, self.clock = db, bus, clock
        self._listeners = tuple(listeners)

    async def notify(
        self,
        user_id: int,
        kind: NotificationKind,
        data: dict[str, Any],
        *,
        table_id: str | None = None,
        dedupe: str | None = None,
        at: float | None = None,
    ) -> Note | None:
        """Store, publish and hand on a notification; it, or None if ``dedupe`` was seen.

        ``at``: when what it tells of happened, if not now (a table's change is told
        after it is answered; whether its player was away is judged at the change)."""
        kind = NotificationKind.named(kind)  # a caller that spells the word is checked too
        values = {
            "user_id": user_id,
            "kind": kind.value,
            "data": data,
            "table_id": table_id,
            "dedupe": dedupe,
            "created_at": self.clock.now() if at is None else at,
        }
        row = await self.db.run(store.insert_notification, values)
        if row is None:
            return None
        note = Note.of(row)
        await publish_user_event(
            self.bus, user_id, {"type": "notification", "notification": note.json()}
        )
        for listener in self._listeners:
            try:
                await listener(note)
            except Exception:
                log.exception("a notification listener failed on %s", note.kind)
        return note


async def notify(
    notifier: Notifier,
    user_id: int,
    kind: NotificationKind,
    data: dict[str, Any],
    *,
    table_id: str | None = None,
    dedupe: str | None = None,
) -> Note | None:
    """Make a notification with ``notifier`` (``services.notifier``); see
    :meth:`Notifier.notify`."""
    return await notifier.notify(user_id, kind, data, table_id=table_id, dedupe=dedupe)
