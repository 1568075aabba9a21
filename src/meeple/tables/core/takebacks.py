"""Takebacks: which moves a player may take back, done at once against bots, asked of people.

A player takes back their own last move that still stands, with every move the server
made after it (built-in bots, zombies), so it is their turn again in the position before
it. Where only bots and zombies share the table, it is done at once; where other people
play, it is asked of them (a ``takeback_ask`` event), each accepts or declines
(``takeback_accept``, ``takeback_decline``), and it is done once all accepted. An ask
lapses when a move is made. What the log holds is read by :mod:`~meeple.tables.core.takeback_log`.

Refused, checked in this order: ``not_seated`` (no seat of mine), ``zombie`` (a bot
plays my seat), ``not_playing`` (before the start), ``takeback_over`` (the game ended),
``takeback_rated`` (a table asked rated, even one its bots keep from rating),
``takeback_tournament`` (a tournament's game), ``takeback_asked`` (an ask waits for its
answers), ``takeback_none`` (no move of mine stands), ``takeback_not_yours`` (another
person moved after it), ``takeback_declined`` (my ask was declined and no move was made
since). An answer is refused ``takeback_no_ask`` unless an ask waits for mine.

After a takeback every person to act gets a fresh move clock, and a bot's move chosen on
the position taken back is dropped (:meth:`TableRuntime.after_takeback`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.errors import Code
from meeple.games.base import JSON
from meeple.tables.core.log import FINISHED, PLAYING, LogEvent
from meeple.tables.core.takeback_log import declined_since_move, pending_ask, standing_actions

if TYPE_CHECKING:
    from meeple.tables.core.table import Table

SERVER_MOVES = frozenset({"bot", "zombie"})
"""The ``by`` of the actions a takeback may undo besides the asker's own: the server's seats'."""


def takebacks_allowed(table: Table) -> bool:
    """Whether takebacks may ever be asked at this table: never asked rated, no tournament's."""
    return not table.info.rated and not table.info.tournament


def _my_seat(table: Table, user_id: int) -> int:
    """The asker's seat at a running game (the refusals in this module's order)."""
    snap = table.snap
    seat = snap.seat_of(user_id)
    if seat is None:
        raise Code.NOT_SEATED.error()
    if snap.seats[seat].zombie:
        raise Code.ZOMBIE.error()
    if snap.status == FINISHED:
        raise Code.TAKEBACK_OVER.error()
    if snap.status != PLAYING:
        raise Code.NOT_PLAYING.error()
    return seat


def undo_count(events: list[LogEvent], seat: int) -> int:
    """How many standing actions taking back ``seat``'s last move undoes: that move and the
    server's after it (``takeback_none``, ``takeback_not_yours`` if it cannot)."""
    for back, event in enumerate(reversed(standing_actions(events)), start=1):
        if event.seat == seat:
            return back
        if event.data.get("by") not in SERVER_MOVES:
            raise Code.TAKEBACK_NOT_YOURS.error()
    raise Code.TAKEBACK_NONE.error()


def people_to_ask(table: Table, seat: int) -> list[int]:
    """The other seats whose players must accept (people still playing their seats, bot
    accounts among them; built-in bots and zombies are never asked)."""
    return [
        other.seat
        for other in table.snap.seats
        if other.seat != seat and other.user_id is not None and not other.played_by_server
    ]


async def ask(table: Table, user_id: int) -> int:
    """Take back my last move: at once among bots, else asked of the people at the table;
    the version of the event written. The caller holds the table's lock."""
    seat = _my_seat(table, user_id)
    if table.info.rated:
        raise Code.TAKEBACK_RATED.error()
    if table.info.tournament:
        raise Code.TAKEBACK_TOURNAMENT.error()
    if pending_ask(table.events) is not None:
        raise Code.TAKEBACK_ASKED.error()
    count = undo_count(table.events, seat)
    if declined_since_move(table.events, seat):
        raise Code.TAKEBACK_DECLINED.error()
    waiting = people_to_ask(table, seat)
    if not waiting:
        return await _take_back(table, seat, count, user_id)
    data: dict[str, JSON] = {"count": count, "waiting": list(waiting)}
    event = await table.write("takeback_ask", seat, data, user_id=user_id)
    return event.version


async def answer(table: Table, user_id: int, accept: bool) -> int:
    """Accept or decline the takeback asked of me; the version of the last event written
    (the takeback itself once every person asked has accepted). The caller holds the lock."""
    seat = _my_seat(table, user_id)
    asked = pending_ask(table.events)
    if asked is None or seat not in asked.waiting:
        raise Code.TAKEBACK_NO_ASK.error()
    if not accept:
        event = await table.write("takeback_decline", seat, {}, user_id=user_id)
        return event.version
    event = await table.write("takeback_accept", seat, {}, user_id=user_id)
    if asked.waiting - {seat}:
        return event.version
    return await _take_back(table, asked.seat, asked.count, table.snap.seats[asked.seat].user_id)


async def _take_back(table: Table, seat: int, count: int, user_id: int | None) -> int:
    """Write the takeback of ``seat``'s move (``count`` actions), then set fresh clocks and
    let the bots think again on the position it leaves."""
    event = await table.write("takeback", seat, {"count": count}, user_id=user_id)
    table.runtime.after_takeback()
    await table.runtime.settle(None)
    return event.version
