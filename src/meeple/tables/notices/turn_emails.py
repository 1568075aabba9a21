"""The emails that bring players back: "your turn", the day's digest, "game finished",
"your tournament game is ready".

:class:`TurnEmails` listens to every notification stored on this server (a listener
the :class:`~meeple.tables.notices.notifications.Notifier` is built with; notifications
are made once, by the table's owner) and puts an email in the outbox
(:func:`~meeple.tables.notices.outbox.enqueue`) when all of these hold:

- the notification's kind is emailed (:attr:`NotificationKind.emailed`: a player's
  turn, a game finished, a tournament game ready; the last only when its tournament is
  turn-based, ``pace`` ``turn`` in its data: a real-time round's game is played at once,
  and an email would come after it);
- the account has a verified address;
- it has not stopped that kind of email nor ``all``;
- it is away: not seen on the site for ``MEEPLE_EMAIL_AWAY_S`` (``users.last_seen_at``,
  kept by every signed-in request and the pages' sockets) and no socket of it open here.

A turn is one email, keyed by its notification (one per account,
table and turn), so it goes once whatever the retries. When a turn is the
``MEEPLE_EMAIL_DIGEST_AFTER``-th due for the account within
``MEEPLE_EMAIL_DIGEST_WINDOW_S``, one digest listing every turn due that day
(UTC) goes instead, keyed by account and day; the turns due later that day send
nothing more (the site's notifications still list them). A game finished is one
email per account and table, and so is a tournament's game (naming the tournament, the
game and the round, with links to the table and to the tournament's page). Each email
is written in the language the account last used on the site, as plain text and HTML,
with a signed one-click unsubscribe link and ``List-Unsubscribe`` headers (RFC 8058).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from sqlalchemy import select

from meeple.config import Settings
from meeple.i18n import LANGUAGES, catalog
from meeple.store import email_choices as choices
from meeple.store import emails as addresses
from meeple.store.database import Database
from meeple.store.email_choices import TurnEmailDue
from meeple.store.models import Notification, User
from meeple.store.names import one_line
from meeple.tables.clock import Clock
from meeple.tables.notices.notifications import Note, NotificationKind
from meeple.tables.notices.outbox import enqueue, render
from meeple.tables.notices.table_notices import TURN_PACE
from meeple.tables.notices.unsubscribe import ALL_EMAILS, UnsubscribeSigner

DAY_S = 24 * 3600


@dataclass(frozen=True)
class Reader:
    """What deciding on an account's email needs, read in one transaction."""

    address: str | None
    name: str
    stopped: frozenset[str]
    lang: str
    last_seen_at: float | None


def _reader(session: Any, user_id: int) -> Reader:
    """The account's verified address, stopped kinds, language and last visit."""
    user = session.get(User, user_id)
    return Reader(
        address=addresses.verified_email(session, user_id),
        name="" if user is None else user.name,
        stopped=frozenset(choices.unsubscribed_kinds(session, user_id)),
        lang=choices.language_of(session, user_id) or LANGUAGES[0],
        last_seen_at=None if user is None else user.last_seen_at,
    )


def _notes_data(session: Any, note_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The data of these notifications, by id (the opponents a digest names)."""
    rows = session.scalars(select(Notification).where(Notification.id.in_(note_ids)))
    return {row.id: dict(row.data) for row in rows}


def _decide_turn(
    session: Any, due: TurnEmailDue, window_s: float, after: int
) -> tuple[str, list[TurnEmailDue]]:
    """Store the due turn and how it goes out: ``single``, ``digest`` (with the day's
    turns to list) or ``none`` (a digest went today, or the turn was stored before)."""
    day_start = due.at - due.at % DAY_S
    today = choices.due_since(session, due.user_id, day_start)
    if any(row.note_id == due.note_id for row in today):
        return "none", []
    if any(row.sent_as == "digest" for row in today):
        due.sent_as = "none"
    elif choices.count_due_since(session, due.user_id, due.at - window_s) + 1 >= after:
        due.sent_as = "digest"
    else:
        due.sent_as = "single"
    if not choices.record_due(session, due):
        return "none", []
    return due.sent_as, [*today, due]


class TurnEmails:
    """Turns notifications into emails for away players (see the module's docstring)."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        settings: Settings,
        signer: UnsubscribeSigner,
        open_here: Callable[[int], bool] = lambda user_id: False,
    ) -> None:
        """``open_here(user_id)``: whether the account holds a socket open on this server."""
        self.db, self.clock, self.settings = db, clock, settings
        self.signer = signer
        self.open_here = open_here

    @property
    def public_url(self) -> str:
        """Where the links in emails point."""
        return self.settings.links_url or f"http://{self.settings.host}:{self.settings.port}"

    async def on_note(self, note: Note) -> None:
        """A notification was stored: email it if the account is away and wants it."""
        if not note.kind.emailed or note.table_id is None:
            return
        if note.kind is NotificationKind.TOURNAMENT_GAME and note.data.get("pace") != TURN_PACE:
            return  # a real-time round's game is played now: an email would come too late
        if not self.settings.smtp_url:
            return
        reader = await self.db.run(_reader, note.user_id)
        now = note.created_at  # the change it tells of; it is stored a moment after
        if reader.address is None or {note.kind, ALL_EMAILS} & reader.stopped:
            return
        seen = reader.last_seen_at
        if self.open_here(note.user_id) or (
            seen is not None and now - seen < self.settings.email_away_s
        ):
            return
        if note.kind is NotificationKind.GAME_FINISHED:
            await self._finished(note, reader)
            return
        if note.kind is NotificationKind.TOURNAMENT_GAME:
            await self._tournament_game(note, reader)
            return
        due = TurnEmailDue(
            user_id=note.user_id, note_id=note.id, table_id=note.table_id,
            game=str(note.data.get("game", "")), at=now, sent_as="single",
        )  # fmt: skip
        how, today = await self.db.write(
            _decide_turn, due, self.settings.email_digest_window_s,
            self.settings.email_digest_after,
        )  # fmt: skip
        if how == "single":
            await self._your_turn(note, reader)
        elif how == "digest":
            await self._digest(note.user_id, reader, today, now)

    def _table_url(self, table_id: str) -> str:
        return f"{self.public_url.rstrip('/')}/tables/{table_id}"

    def _game_name(self, lang: str, game: str) -> str:
        return catalog(lang).gettext(f"game.{game}")

    async def _send(
        self,
        user_id: int,
        reader: Reader,
        kind: NotificationKind,
        template: str,
        dedupe: str,
        **values: Any,
    ) -> None:
        """Render ``template`` in the reader's language and put it in the outbox."""
        assert reader.address is not None
        unsubscribe_url = self.signer.url(self.public_url, user_id, kind)
        unsubscribe_all_url = self.signer.url(self.public_url, user_id, ALL_EMAILS)
        subject, text, html = render(
            reader.lang, template, unsubscribe_url=unsubscribe_url,
            unsubscribe_all_url=unsubscribe_all_url, site_url=self.public_url,
            name=one_line(reader.name), **values,
        )  # fmt: skip
        headers = {
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
        await enqueue(
            self, user_id=user_id, to=reader.address, subject=subject, text=text,
            html=html, headers=headers, dedupe=dedupe,
        )  # fmt: skip

    async def _your_turn(self, note: Note, reader: Reader) -> None:
        assert note.table_id is not None
        game = str(note.data.get("game", ""))
        await self._send(
            note.user_id, reader, note.kind, note.kind.value,
            f"{note.kind.value}:{note.user_id}:{note.table_id}:{note.id}",
            game=self._game_name(reader.lang, game),
            opponents=", ".join(one_line(str(name)) for name in note.data.get("opponents", [])),
            table_url=self._table_url(note.table_id), table_id=note.table_id,
        )  # fmt: skip

    async def _digest(
        self, user_id: int, reader: Reader, today: list[TurnEmailDue], now: float
    ) -> None:
        data = await self.db.run(_notes_data, [row.note_id for row in today])
        tables: dict[str, dict[str, str]] = {}
        for row in today:
            opponents = data.get(row.note_id, {}).get("opponents", [])
            tables[row.table_id] = {
                "game": self._game_name(reader.lang, row.game),
                "url": self._table_url(row.table_id),
                "table_id": row.table_id,
                "opponents": ", ".join(one_line(str(name)) for name in opponents),
            }
        day = time.strftime("%Y-%m-%d", time.gmtime(now))
        await self._send(
            user_id, reader, NotificationKind.YOUR_TURN, "turn_digest",
            f"turn_digest:{user_id}:{day}",
            count=len(tables), tables=list(tables.values()), my_games_url=self.public_url,
        )  # fmt: skip

    async def _finished(self, note: Note, reader: Reader) -> None:
        assert note.table_id is not None
        data = note.data
        await self._send(
            note.user_id, reader, note.kind, note.kind.value,
            f"{note.kind.value}:{note.user_id}:{note.table_id}",
            game=self._game_name(reader.lang, str(data.get("game", ""))),
            rank=int(data.get("rank", 0)), players=int(data.get("players", 0)),
            score=data.get("score"),
            opponents=", ".join(one_line(str(name)) for name in data.get("opponents", [])),
            table_url=self._table_url(note.table_id), table_id=note.table_id,
        )  # fmt: skip

    async def _tournament_game(self, note: Note, reader: Reader) -> None:
        assert note.table_id is not None
        data = note.data
        tournament_id = quote(str(data.get("tournament", "")), safe="")
        await self._send(
            note.user_id, reader, note.kind, note.kind.value,
            f"{note.kind.value}:{note.user_id}:{note.table_id}",
            game=self._game_name(reader.lang, str(data.get("game", ""))),
            tournament=one_line(str(data.get("name", ""))), round=int(data.get("round", 0)),
            table_url=self._table_url(note.table_id), table_id=note.table_id,
            tournament_url=f"{self.public_url.rstrip('/')}/tournaments/{tournament_id}",
        )  # fmt: skip
