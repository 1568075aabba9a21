"""An account's live tables ("My games") and its count of tables where it is its turn.

The list (:func:`my_tables`) and the count (:func:`my_turn_count`) read the account's
live seats from the store, then each table as this server holds it in memory (loaded,
or caught up, by the registry). :class:`MyTurns` tells an account its new count, a
``{"type": "my_turns", "count": N}`` line on its bus channel (:mod:`meeple.tables.user_events`),
when a table it sits at changes whose seats to act: the table's owner tells it, after a
change's outcome (:meth:`~meeple.tables.writes.Writes.act_on`), and only the accounts
whose turn began or ended at that table are counted again.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from meeple.bus import Bus
from meeple.games.base import JSON
from meeple.store.database import Database
from meeple.store.user_games import live_seats
from meeple.tables.errors import TableError
from meeple.tables.log import OPEN, PLAYING
from meeple.tables.user_events import publish_user_event

if TYPE_CHECKING:
    from meeple.tables.table import Table

GetTable = Callable[[str], Awaitable["Table"]]
"""The registry's ``get``: a table by id, loaded or caught up (``TableError`` if none)."""

QUIET_KINDS = frozenset({"chat", "rematch_vote", "rematch"})
"""Events that are not moves of the game nor changes of its seats: never "the last move"."""


def accounts_to_act(table: Table, *, bot_accounts: bool = True) -> frozenset[int]:
    """The accounts (not left) whose turn it is at ``table`` now (bot accounts too, unless
    ``bot_accounts`` is false)."""
    snap = table.snap
    if snap.status != PLAYING:
        return frozenset()
    due = table.game.to_act(snap.state)
    return frozenset(
        s.user_id
        for s in snap.seats
        if s.seat in due
        and s.user_id is not None
        and not s.left
        and (bot_accounts or not s.bot_account)
    )


async def _live_tables(db: Database, get: GetTable, user_id: int) -> list[tuple[Table, int]]:
    found = []
    for table_id, seat in await db.run(live_seats, user_id):
        try:
            table = await get(table_id)
        except TableError:
            continue  # gone meanwhile
        if table.snap.status in (OPEN, PLAYING) and table.snap.seat_of(user_id) == seat:
            found.append((table, seat))
    return found


async def my_turn_count(db: Database, get: GetTable, user_id: int) -> int:
    """How many live tables wait for a move of ``user_id``."""
    tables = await _live_tables(db, get, user_id)
    return sum(1 for table, _seat in tables if user_id in accounts_to_act(table))


def last_move(table: Table) -> dict[str, JSON] | None:
    """The table's last event that moved the game or its seats: kind, seat, the seat's
    name, who played it (``by``: player, bot, zombie, timeout) and when."""
    for event in reversed(table.events):
        if event.kind in QUIET_KINDS:
            continue
        seats = table.snap.seats
        known = event.seat is not None and event.seat < len(seats)
        name = seats[event.seat].name if known and event.seat is not None else None
        by = event.data.get("by") if event.kind == "action" else None
        return {"kind": event.kind, "seat": event.seat, "name": name, "by": by, "at": event.at}
    return None


def table_entry(table: Table, seat: int, now: float) -> dict[str, JSON]:
    """One line of an account's "My games" list: the table as the account at ``seat`` sees
    it (its opponents, whose turn, its own clock, the last move)."""
    snap, info = table.snap, table.info
    to_act = sorted(table.game.to_act(snap.state)) if snap.status == PLAYING else []
    deadlines = table.deadlines
    mine = deadlines.get(seat) if seat in to_act else None
    theirs = [deadlines[s] for s in to_act if s != seat and s in deadlines]
    return {
        "id": info.id,
        "game": info.game,
        "pace": info.pace,
        "move_seconds": info.move_seconds,
        "status": snap.status,
        "seat": seat,
        "opponents": [
            {
                "seat": s.seat,
                "name": s.name,
                "user_id": s.user_id,
                "bot": s.bot_level is not None or s.bot_account,
                "left": s.left,
            }
            for s in snap.seats
            if s.seat != seat and not s.empty
        ],
        "free_seats": sum(1 for s in snap.seats if s.empty),
        "to_act": to_act,
        "my_turn": seat in to_act,
        "deadline": mine,
        "time_left_s": None if mine is None else max(0.0, mine - now),
        "their_deadline": min(theirs) if theirs else None,
        "last_move": last_move(table),
    }


def _order(entry: dict[str, JSON]) -> tuple[bool, float]:
    deadline = entry["deadline"] if entry["my_turn"] else entry["their_deadline"]
    due = float(deadline) if isinstance(deadline, int | float) else math.inf
    return (not entry["my_turn"], due)


async def my_tables(db: Database, get: GetTable, user_id: int, now: float) -> list[dict[str, JSON]]:
    """Every live table ``user_id`` sits at (:func:`table_entry`): those where it is the
    account's turn first, soonest clock first; then the others by their next clock."""
    entries = [table_entry(t, seat, now) for t, seat in await _live_tables(db, get, user_id)]
    return sorted(entries, key=_order)


class MyTurns:
    """Tells accounts their "your turn" count when a table changes whose accounts must act.

    Told by the table's owner after each change's outcome. It remembers, per table, the
    accounts (people's, not bot accounts') whose turn it was when last told; only those
    whose turn began or ended since are counted again (one store read and their live
    tables each) and told.
    """

    def __init__(self, bus: Bus, db: Database, get: GetTable) -> None:
        self.bus, self.db, self.get = bus, db, get
        self._to_act: weakref.WeakKeyDictionary[Table, frozenset[int]] = weakref.WeakKeyDictionary()

    async def changed(self, table: Table) -> None:
        """Tell each account whose turn began or ended at ``table`` its new count."""
        if not table.owned:
            return
        # Bot accounts are not told: their event stream brings each game's own lines.
        now = accounts_to_act(table, bot_accounts=False)
        before = self._to_act.get(table, frozenset())
        if now == before:
            return
        self._to_act[table] = now
        for user_id in sorted(now ^ before):
            await self.tell(user_id)

    async def tell(self, user_id: int) -> None:
        """Publish ``user_id``'s count now on its channel."""
        count = await my_turn_count(self.db, self.get, user_id)
        await publish_user_event(self.bus, user_id, {"type": "my_turns", "count": count})
