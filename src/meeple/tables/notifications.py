"""Notifications in the site: stored, sent to the account's open pages, handed to listeners.

Every producer (a turn-based table's seat to act changing, a game finishing, a
challenge received, a rematch offered) calls :func:`notify` once, on the server
that owns what changed, so with several servers each notification is made once.
:func:`notify` stores it (``store/notifications.py``; a ``dedupe`` key already
stored for the account makes it do nothing at all), publishes a
``{"type": "notification", "notification": {...}}`` line on the account's bus
channel (:mod:`meeple.tables.user_events`: the account's page sockets and event
streams on every server hear it) and calls every listener added with
:meth:`Notifier.add_listener` (the email sender adds one). A listener that fails
is logged and never stops the others nor the producer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from meeple.bus import Bus
from meeple.store import notifications as store
from meeple.store.database import Database
from meeple.store.models import Notification
from meeple.tables.clock import Clock
from meeple.tables.user_events import publish_user_event

log = logging.getLogger(__name__)

YOUR_TURN = "your_turn"
"""A turn-based table waits for the account's move (``data``: game, seat)."""
GAME_FINISHED = "game_finished"
"""A game the account played finished (``data``: game, rank, score, players)."""
CHALLENGE = "challenge"
"""Another account challenged this one (``data``: challenge id, from, game)."""
INVITATION = "invitation"
"""An invitation to a table addressed to this account (no producer yet: invites are links)."""
REMATCH = "rematch"
"""An opponent at a finished table asked for a rematch (``data``: game, from)."""
KINDS = (YOUR_TURN, GAME_FINISHED, CHALLENGE, INVITATION, REMATCH)
"""Every kind of notification."""


@dataclass(frozen=True)
class Note:
    """A stored notification as producers, listeners and pages see it."""

    id: int
    user_id: int
    kind: str
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
            kind=row.kind,
            data=dict(row.data),
            table_id=row.table_id,
            created_at=row.created_at,
            read=row.read_at is not None,
        )

    def json(self) -> dict[str, Any]:
        """The notification as a page or an event stream gets it (no account id: it is theirs)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "data": self.data,
            "table_id": self.table_id,
            "created_at": self.created_at,
            "read": self.read,
        }


Listener = Callable[[Note], Awaitable[None]]
"""Called with each notification just stored (never for a deduplicated one)."""


class Notifier:
    """Makes notifications on this server: store, publish, listeners."""

    def __init__(self, db: Database, bus: Bus, clock: Clock) -> None:
        self.db, self.bus, self.clock = db, bus, clock
        self._listeners: list[Listener] = []

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener`` with every notification stored from now on."""
        self._listeners.append(listener)

    async def notify(
        self,
        user_id: int,
        kind: str,
        data: dict[str, Any],
        *,
        table_id: str | None = None,
        dedupe: str | None = None,
    ) -> Note | None:
        """Store, publish and hand on a notification; it, or None if ``dedupe`` was seen."""
        if kind not in KINDS:
            raise ValueError(f"no such notification kind: {kind}")
        values = {
            "user_id": user_id,
            "kind": kind,
            "data": data,
            "table_id": table_id,
            "dedupe": dedupe,
            "created_at": self.clock.now(),
        }
        row = await self.db.run(store.insert_notification, values)
        if row is None:
            return None
        note = Note.of(row)
        await publish_user_event(
            self.bus, user_id, {"type": "notification", "notification": note.json()}
        )
        for listener in list(self._listeners):
            try:
                await listener(note)
            except Exception:
                log.exception("a notification listener failed on %s", note.kind)
        return note


async def notify(
    notifier: Notifier,
    user_id: int,
    kind: str,
    data: dict[str, Any],
    *,
    table_id: str | None = None,
    dedupe: str | None = None,
) -> Note | None:
    """Make a notification with ``notifier`` (``services.tables.notifier``); see
    :meth:`Notifier.notify`."""
    return await notifier.notify(user_id, kind, data, table_id=table_id, dedupe=dedupe)
