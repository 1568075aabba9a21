"""The notifications a table's changes make: a turn-based player's turn, a game finished,
a rematch offered (:mod:`meeple.tables.notifications`).

Told by the table's owner only (:class:`~meeple.tables.writes.Writes` acting on a
change's outcome, and :class:`~meeple.tables.lobby.LobbyNews`), so with several
servers each is made once; their ``dedupe`` keys make a repeat after a take-over
or restart store nothing. Bot accounts get none: they follow their event stream.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from meeple.tables.log import FINISHED, PLAYING, SeatInfo
from meeple.tables.notifications import GAME_FINISHED, REMATCH, YOUR_TURN, Notifier

if TYPE_CHECKING:
    from meeple.tables.table import Table

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
    """Makes the notifications of the tables this server owns."""

    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier
        self._due: weakref.WeakKeyDictionary[Table, frozenset[int]] = weakref.WeakKeyDictionary()
        """The seats last told it was their turn, per table (a seat still due is not told
        again when someone else moves in a game of simultaneous moves)."""
        self._seen: weakref.WeakKeyDictionary[Table, tuple[str, int]] = weakref.WeakKeyDictionary()
        """The status and version last looked at, per table: the lobby's news and the turn
        watchers both tell of a start or an end, and the second finds nothing new."""

    async def changed(self, table: Table) -> None:
        """After a change of ``table``: tell whoever it became the turn of, or the result."""
        if not table.owned:
            return
        status = table.snap.status
        seen = (status, table.snap.version)
        if self._seen.get(table) == seen:
            return
        self._seen[table] = seen
        if status == PLAYING and table.info.pace == TURN_PACE:
            await self._turns(table)
        elif status == FINISHED:
            await self._finished(table)

    async def _turns(self, table: Table) -> None:
        snap = table.snap
        due = frozenset(table.game.to_act(snap.state))
        before = self._due.get(table, frozenset())
        self._due[table] = due
        for number in sorted(due - before):
            seat = snap.seats[number]
            if not _person(seat):
                continue
            assert seat.user_id is not None
            await self.notifier.notify(
                seat.user_id,
                YOUR_TURN,
                {"game": table.info.game, "seat": number, "opponents": _others(table, number)},
                table_id=table.info.id,
                dedupe=f"{table.info.id}:{snap.version}",
            )

    async def _finished(self, table: Table) -> None:
        result = table.snap.result
        if result is None:
            return
        for seat in table.snap.seats:
            if seat.user_id is None or seat.bot_account:
                continue
            data = {
                "game": table.info.game,
                "seat": seat.seat,
                "rank": result.ranks[seat.seat],
                "score": result.scores[seat.seat],
                "players": len(table.snap.seats),
                "opponents": _others(table, seat.seat),
            }
            await self.notifier.notify(
                seat.user_id,
                GAME_FINISHED,
                data,
                table_id=table.info.id,
                dedupe=f"{table.info.id}:finished",
            )

    async def rematch_asked(self, table: Table, user_id: int) -> None:
        """``user_id`` asked for a rematch: tell the players still seated who have not."""
        asker = table.snap.seat_of(user_id)
        if asker is None:
            return
        name = table.snap.seats[asker].name
        for seat in table.snap.seats:
            if seat.user_id in (None, user_id) or seat.wants_rematch or not _person(seat):
                continue
            assert seat.user_id is not None
            await self.notifier.notify(
                seat.user_id,
                REMATCH,
                {"game": table.info.game, "from": name},
                table_id=table.info.id,
                dedupe=f"{table.info.id}:rematch:{user_id}",
            )


def _others(table: Table, seat: int) -> list[str]:
    """The names of the other seats' players (bots by their level)."""
    return [str(s.name or s.bot_level or "?") for s in table.snap.seats if s.seat != seat]
