"""The notifications a table's changes make: a turn-based player's turn, a game finished,
a rematch offered (:mod:`meeple.tables.notices.notifications`).

:class:`TableNotices` follows the tables' facts (:mod:`meeple.tables.facts`), which only
the table's owner publishes, once per change, so with several servers each notification
is made once; their ``dedupe`` keys make a repeat after a take-over or restart store
nothing. Bot accounts get none: they follow their event stream. Each fact is looked at
as it is published (so every turn given is told, however fast the players move), and
the notifications it makes are queued (``soon``: stored, published and emailed after
the change is answered).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from meeple.tables.core.log import PLAYING, SeatInfo
from meeple.tables.facts import GameFinished, RematchAsked, TurnStarted
from meeple.tables.notices.notifications import NotificationKind, Notifier

if TYPE_CHECKING:
    from meeple.tables.core.table import Table

TURN_PACE = "turn"
"""The pace of turn-based tables (a move a day), the only ones told of a player's turn."""


def _person(seat: SeatInfo) -> bool:
    """Whether a person's account (not a bot account, a bot or a zombie) holds ``seat``."""
    return (
        seat.user_id is not None
        and not seat.left
        and not seat.bot_account
        and not seat.played_by_server
    )


class TableNotices:
    """Makes the notifications of the tables this server runs, from their facts."""

    def __init__(
        self, notifier: Notifier, soon: Callable[[Callable[[], Awaitable[Any]]], None]
    ) -> None:
        self.notifier = notifier
        self.soon = soon
        """Queues a notification to make after the change is answered."""

    def _notify(
        self,
        user_id: int,
        kind: NotificationKind,
        data: dict[str, Any],
        table: Table,
        dedupe: str,
    ) -> None:
        notify = functools.partial(
            self.notifier.notify, user_id, kind, data, table_id=table.info.id,
            dedupe=dedupe, at=self.notifier.clock.now(),
        )  # fmt: skip
        self.soon(notify)

    def turn_started(self, fact: TurnStarted) -> None:
        """Tell the people whose turn began at a turn-based table."""
        table = fact.table
        snap = table.snap
        if snap.status != PLAYING or table.info.pace != TURN_PACE:
            return
        for number in sorted(fact.seats):
            seat = snap.seats[number]
            if not _person(seat):
                continue
            assert seat.user_id is not None
            data = {"game": table.info.game, "seat": number, "opponents": _others(table, number)}
            dedupe = f"{table.info.id}:{snap.version}"
            self._notify(seat.user_id, NotificationKind.YOUR_TURN, data, table, dedupe)

    def game_finished(self, fact: GameFinished) -> None:
        """Tell every account that played (bot accounts aside) the result."""
        table, result = fact.table, fact.result
        for seat in fact.seats:
            if seat.user_id is None or seat.bot_account:
                continue
            data = {
                "game": table.info.game,
                "seat": seat.seat,
                "rank": result.ranks[seat.seat],
                "score": result.scores[seat.seat],
                "players": len(fact.seats),
                "opponents": _others(table, seat.seat),
            }
            dedupe = f"{table.info.id}:finished"
            self._notify(seat.user_id, NotificationKind.GAME_FINISHED, data, table, dedupe)

    def rematch_asked(self, fact: RematchAsked) -> None:
        """A player asked for a rematch: tell the players still seated who have not."""
        table, user_id = fact.table, fact.user_id
        asker = None if user_id is None else table.snap.seat_of(user_id)
        if asker is None:
            return
        name = table.snap.seats[asker].name
        for seat in table.snap.seats:
            if seat.user_id in (None, user_id) or seat.wants_rematch or not _person(seat):
                continue
            assert seat.user_id is not None
            data = {"game": table.info.game, "from": name}
            dedupe = f"{table.info.id}:rematch:{user_id}"
            self._notify(seat.user_id, NotificationKind.REMATCH, data, table, dedupe)


def _others(table: Table, seat: int) -> list[str]:
    """The names of the other seats' players (bots by their level)."""
    return [str(s.name or s.bot_level or "?") for s in table.snap.seats if s.seat != seat]
