"""An account's live tables ("My games") and its count of tables where it is its turn.

The list (:func:`my_tables`) and the count (:func:`my_turn_count`) read the account's
live seats from the store, then each table as this server holds it in memory (loaded,
or caught up, by the registry). :class:`MyTurns` tells an account its new count, a
``{"type": "my_turns", "count": N}`` line on its bus channel
(:mod:`meeple.tables.notices.user_events`),
when a table it sits at changes whose seats to act. It follows the facts of the tables
this server runs (:mod:`meeple.tables.facts`) and tells after the change is answered,
in the hook's passes: only the accounts whose turn began or ended are counted again,
every account of a pass with one query (:func:`my_turn_counts`).
"""

from __future__ import annotations

import asyncio
import math
import weakref
from typing import TYPE_CHECKING, Protocol

from meeple.bus import Bus
from meeple.errors import TableError
from meeple.games.base import JSON
from meeple.store.database import Database
from meeple.store.user_games import live_seats_of
from meeple.tables.core.log import OPEN, PLAYING
from meeple.tables.facts import Fact
from meeple.tables.notices.user_events import publish_user_event

if TYPE_CHECKING:
    from meeple.tables.core.table import Table


class Tables(Protocol):
    """Where tables are found: the registry, or the table manager in front of it."""

    async def get(self, table_id: str) -> Table:
        """A table by id, loaded or caught up (``TableError`` if none)."""

    def current(self, table_id: str) -> Table | None:
        """The table in memory if it needs no catch-up, else ``None``."""


QUIET_KINDS = frozenset(
    {"chat", "rematch_vote", "rematch", "takeback_ask", "takeback_accept", "takeback_decline"}
)
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


COUNT_AT_ONCE = 500
"""The most accounts whose live seats one query reads."""


async def _live_tables(
    db: Database, source: Tables, user_ids: list[int]
) -> dict[int, list[tuple[Table, int]]]:
    """Each account's live tables (as this server holds them) and its seat at each."""
    seats: dict[int, list[tuple[str, int]]] = {}
    for start in range(0, len(user_ids), COUNT_AT_ONCE):
        seats.update(await db.run(live_seats_of, user_ids[start : start + COUNT_AT_ONCE]))
    ids = sorted({table_id for rows in seats.values() for table_id, _seat in rows})
    # A table this server runs needs no catch-up: taken as it is, with no task for it.
    tables = {t: table for t in ids if (table := source.current(t)) is not None}
    rest = [t for t in ids if t not in tables]
    got = await asyncio.gather(*(source.get(t) for t in rest), return_exceptions=True)
    for table_id, loaded in zip(rest, got, strict=True):
        if isinstance(loaded, TableError):
            continue  # gone meanwhile
        if isinstance(loaded, BaseException):
            raise loaded
        tables[table_id] = loaded
    found: dict[int, list[tuple[Table, int]]] = {user_id: [] for user_id in user_ids}
    for user_id, rows in seats.items():
        for table_id, seat in rows:
            table = tables.get(table_id)
            if table is None:
                continue
            if table.snap.status in (OPEN, PLAYING) and table.snap.seat_of(user_id) == seat:
                found[user_id].append((table, seat))
    return found


async def my_turn_counts(db: Database, source: Tables, user_ids: list[int]) -> dict[int, int]:
    """How many live tables wait for a move of each account."""
    live = await _live_tables(db, source, user_ids)
    return {
        user_id: sum(1 for table, _seat in tables if user_id in accounts_to_act(table))
        for user_id, tables in live.items()
    }


async def my_turn_count(db: Database, source: Tables, user_id: int) -> int:
    """How many live tables wait for a move of ``user_id``."""
    return (await my_turn_counts(db, source, [user_id]))[user_id]


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


async def my_tables(
    db: Database, source: Tables, user_id: int, now: float
) -> list[dict[str, JSON]]:
    """Every live table ``user_id`` sits at (:func:`table_entry`): those where it is the
    account's turn first, soonest clock first; then the others by their next clock."""
    live = (await _live_tables(db, source, [user_id]))[user_id]
    entries = [table_entry(t, seat, now) for t, seat in live]
    return sorted(entries, key=_order)


class MyTurns:
    """Tells accounts their "your turn" count when a table changes whose accounts must act.

    Follows every fact of the tables this server runs (:meth:`noted`). It remembers, per
    table, the accounts (people's, not bot accounts') whose turn it was when last told;
    those whose turn began or ended since are counted again at the end of the pass
    (:meth:`tell_due`), all in one store read and their live tables, and told.
    """

    def __init__(self, bus: Bus, db: Database, source: Tables) -> None:
        self.bus, self.db, self.source = bus, db, source
        self._to_act: weakref.WeakKeyDictionary[Table, frozenset[int]] = weakref.WeakKeyDictionary()
        self._to_tell: set[int] = set()
        self.counts = 0
        """Store reads of the live seats made to count turns (one per pass, at most 500
        accounts each)."""

    def noted(self, fact: Fact) -> None:
        """Something happened at a table: see whose turn it is there now (:meth:`changed`)."""
        self.changed(fact.table)

    def changed(self, table: Table) -> None:
        """Note each account whose turn began or ended at ``table`` since last told."""
        if not table.owned:
            return
        # Bot accounts are not told: their event stream brings each game's own lines.
        now = accounts_to_act(table, bot_accounts=False)
        before = self._to_act.get(table, frozenset())
        if now == before:
            return
        self._to_act[table] = now
        self._to_tell.update(now ^ before)

    async def tell_due(self) -> None:
        """Count and tell every account noted since the last time."""
        users, self._to_tell = sorted(self._to_tell), set()
        if not users:
            return
        self.counts += (len(users) + COUNT_AT_ONCE - 1) // COUNT_AT_ONCE
        counts = await my_turn_counts(self.db, self.source, users)
        for user_id in users:
            line = {"type": "my_turns", "count": counts[user_id]}
            await publish_user_event(self.bus, user_id, line)
