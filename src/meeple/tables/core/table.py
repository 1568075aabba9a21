"""One table's life, with a single writer: every change goes through :meth:`Table.write`.

The writer holds the table's asyncio lock, checks the change with
:func:`~meeple.tables.core.log.advance`, stores the event (with the table's row
cache, and ratings at the end) in one transaction, and only then updates
memory, publishes what the event did as facts (:mod:`meeple.tables.facts`: the
features around the table follow those) and the event's public form on the bus.
After each change the table's runtime (:mod:`meeple.tables.core.runtime`) finishes
the game if it is over, starts a quick-play table once full, sets move clocks and
wakes the bots.
The changes people ask for are checked in :mod:`meeple.tables.core.changes`; the
table never decides whether it is owned (:mod:`meeple.tables.cluster.owner_states`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from meeple.bus import Bus
from meeple.config import Settings
from meeple.errors import Code, TableError
from meeple.games import get_game
from meeple.games.base import JSON
from meeple.ratelimit import RateLimits
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import GameTable
from meeple.store.queries import EventRow
from meeple.tables.clock import Clock
from meeple.tables.core.bots import BotPool
from meeple.tables.core.changes import TableChanges
from meeple.tables.core.legal_lists import LegalLists
from meeple.tables.core.log import (
    PLAYING,
    LogEvent,
    SeatInfo,
    Snapshot,
    advance,
    apply_action,
    must_act,
)
from meeple.tables.core.persist import event_changes
from meeple.tables.core.ratings import rates_anyone
from meeple.tables.core.runtime import TableRuntime
from meeple.tables.core.takeback_log import pending_ask
from meeple.tables.facts import TableFacts, facts_of

if TYPE_CHECKING:  # the cluster sets a table's standing; the core only holds it
    from meeple.tables.cluster.owner_states import OwnerStates

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableInfo:
    """What never changes about a table once created."""

    id: str
    game: str
    options: dict[str, JSON]
    seed: int
    seat_count: int
    private: bool
    invite_token: str
    rated: bool
    pace: str
    move_seconds: int
    creator_id: int
    auto_start: bool
    created_at: float
    rematch_of: str | None = None
    tournament: bool = False
    """A tournament's game (its moves are never taken back)."""

    @classmethod
    def from_row(cls, row: GameTable) -> TableInfo:
        """The fixed info of a stored table: each field is the row's column of that name."""
        values = {field.name: getattr(row, field.name) for field in fields(cls)}
        return cls(**{**values, "options": dict(row.options)})

    def row(self, status: str) -> GameTable:
        """The table's row to store, its life at ``status`` (the inverse of :meth:`from_row`)."""
        return GameTable(**asdict(self), status=status)


@dataclass
class TableContext:
    """What a table needs from the server: storage, bus, clock, bots, settings, the hook."""

    db: Database
    bus: Bus
    clock: Clock
    bots: BotPool
    settings: Settings
    limits: RateLimits
    owners: OwnerStates
    """This server's standing with each table (:mod:`meeple.tables.cluster.owner_states`)."""
    facts: TableFacts
    """Where the table publishes what its changes did (:mod:`meeple.tables.facts`), for
    whatever features follow it."""


VIEW_VERSIONS_KEPT = 3
"""Views are kept for the last few versions: a connection one or two events behind
(the usual lag) finds them computed."""


def channel(table_id: str) -> str:
    """The bus channel of a table's events."""
    return f"table:{table_id}"


class Table:
    """A table in memory: its fixed info, its snapshot, its event log, its timers and bots."""

    def __init__(self, info: TableInfo, ctx: TableContext) -> None:
        self.info = info
        self.ctx = ctx
        self.game = get_game(info.game)
        self.snap = Snapshot()
        self.events: list[LogEvent] = []
        self.client_ids: dict[tuple[int, str], int] = {}
        self.viewers: dict[int, int | None] = {}
        """Connections to this table on this server: connection key -> user id (None: anonymous)."""
        self.remote_spectators: dict[str, int] = {}
        """Other servers' spectator counts of this table, as they announced them."""
        self.remote_present: dict[str, frozenset[int]] = {}
        """The seats whose players other servers announced connected to this table."""
        self.lock = asyncio.Lock()
        self.rematch_lock = asyncio.Lock()
        """Held by the caller through a rematch vote and the opening it may lead to."""
        self.runtime = TableRuntime(self)
        """The table's clocks and bots."""
        self.changes = TableChanges(self)
        """The changes people ask of it (run on its owner only)."""
        self._views: dict[int, dict[int | None, Mapping[str, JSON] | None]] = {}
        """Views by version, then seat: only the last :data:`VIEW_VERSIONS_KEPT` versions."""
        self.legal_lists = LegalLists()
        """The seats' legal lists at the newest version, shared by every stream showing them."""

    @property
    def owned(self) -> bool:
        """Whether this server runs the table (clocks, bots, writes); else it forwards writes.
        Set by the cluster alone (:class:`~meeple.tables.cluster.owner_states.OwnerStates`)."""
        return self.ctx.owners.owned(self.info.id)

    @property
    def deadlines(self) -> dict[int, float]:
        """Seat -> when its move clock runs out (from the log on a server that does not own it)."""
        return self.runtime.deadlines if self.owned else self.runtime.deadlines_from_log()

    async def resume(self) -> None:
        """After loading: finish what a crash interrupted, restart clocks and bots."""
        await self.runtime.resume()

    async def shutdown(self) -> None:
        """Stop the clock and the bots of this table (the server is stopping)."""
        await self.runtime.shutdown()

    # ----- reading -------------------------------------------------------

    def fold(self, event: LogEvent, state_after: Any = None) -> None:
        """Apply a stored event to memory (start-up replay and catch-up)."""
        info = self.info
        self.snap = advance(self.game, info.options, info.seed, self.snap, event, state_after)
        self.events.append(event)
        if event.client_id is not None and event.user_id is not None:
            self.client_ids[(event.user_id, event.client_id)] = event.version

    async def heard(self, announced: Mapping[str, Any]) -> None:
        """An event the bus announced: folded from the announcement if it is the next one.

        A server that does not own the table learns its events this way, once per
        event whatever the number of its connections; a gap (a missed message) or
        an announcement without the whole event catches up from the store.
        """
        async with self.lock:
            if announced.get("version", 0) <= self.snap.version:
                return
            event = LogEvent.from_announced(announced)
            if self.owned or event is None or event.version != self.snap.version + 1:
                await self._catch_up_locked()
                return
            try:
                self.fold(event)
            except TableError:
                log.warning("table %s: an announced event did not fold", self.info.id)
                await self._catch_up_locked()

    async def _catch_up_locked(self) -> None:
        rows = await self.ctx.db.run(queries.events_after, self.info.id, self.snap.version)
        await self.fold_stored_and_announce_locked(rows)

    async def fold_stored_and_announce_locked(self, rows: Sequence[EventRow]) -> None:
        """Fold the stored events newer than this copy and announce the newest of them
        (:meth:`announce_folded`); the caller holds :attr:`lock`."""
        before = self.snap.version
        self.fold_stored_locked(rows)
        await self.announce_folded(before)

    def fold_stored_locked(self, rows: Sequence[EventRow]) -> None:
        """Fold the stored events newer than this copy (the caller holds :attr:`lock`)."""
        rows = [row for row in rows if row.version > self.snap.version]
        for row in rows:
            self.fold(LogEvent.from_row(row))
        if rows and self.owned:
            # The clocks as the log sets them: a deadline kept from before would be stale.
            self.runtime.deadlines = self.runtime.deadlines_from_log()
            self.runtime.reset_deadlines(None)
            self.runtime.wake_bots()

    def view_at(self, version: int, seat: int | None) -> Mapping[str, JSON] | None:
        """What ``seat`` (``None``: a spectator) may see just after event ``version``.

        Computed once per (version, seat) and shared by every connection that needs it
        (a hundred spectators of one table cost one view per event); the last few
        versions are kept.
        """
        at_version = self._views.get(version)
        if at_version is not None and seat in at_version:
            return at_version[seat]
        state = self.snap.state_at(version)
        view = None if state is None else self.game.view(state, seat)
        oldest = self.snap.version - VIEW_VERSIONS_KEPT + 1
        if version >= oldest:
            # Older views go at once: each is dozens of objects the collector would walk.
            for old in [v for v in self._views if v < oldest]:
                del self._views[old]
            self._views.setdefault(version, {})[seat] = view
        return view

    def local_spectators(self) -> int:
        """How many connections to this table on this server have no seat at it."""
        snap = self.snap
        return sum(1 for uid in self.viewers.values() if uid is None or snap.seat_of(uid) is None)

    def spectator_count(self) -> int:
        """Spectators on every server: this one's, and the counts others announced on the bus."""
        return self.local_spectators() + sum(self.remote_spectators.values())

    def local_present(self) -> frozenset[int]:
        """The seats whose players have a connection to this table on this server."""
        snap = self.snap
        seats = (snap.seat_of(uid) for uid in self.viewers.values() if uid is not None)
        return frozenset(seat for seat in seats if seat is not None)

    def present_seats(self) -> list[int]:
        """The seats whose players are connected to this table on any server (presence)."""
        present = set(self.local_present())
        for seats in self.remote_present.values():
            present |= seats
        return sorted(seat for seat in present if seat < len(self.snap.seats))

    def heard_watchers(self, server: str, spectators: int, present: list[int]) -> None:
        """Keep what another server announced of its connections to this table."""
        self.remote_spectators[server] = spectators
        self.remote_present[server] = frozenset(present)

    def presence(self) -> tuple[int, list[int]]:
        """The spectator count and the present seats, as clients are told them."""
        return self.spectator_count(), self.present_seats()

    def rates(self, seats: Sequence[SeatInfo]) -> bool:
        """Whether the game at these seats can change ratings (:func:`rates_anyone`)."""
        bots_vs_people = self.ctx.settings.bots_rated_vs_people
        return rates_anyone(self.info.rated, seats, bots_vs_people)

    def summary(self) -> dict[str, JSON]:
        """The table's public description (never the seed or an invite token)."""
        info, snap = self.info, self.snap
        to_act = sorted(self.game.to_act(snap.state)) if snap.status == PLAYING else []
        return {
            "id": info.id,
            "game": info.game,
            "options": info.options,
            "seat_count": info.seat_count,
            "seats": [s.to_json() for s in snap.seats],
            "private": info.private,
            "rated": self.rates(snap.seats),
            "unrated_by_bots": info.rated and not self.rates(snap.seats),
            "pace": info.pace,
            "move_seconds": info.move_seconds,
            "creator_id": info.creator_id,
            "quick": info.auto_start,
            "status": snap.status,
            "version": snap.version,
            "to_act": to_act,
            "deadlines": {str(seat): at for seat, at in sorted(self.deadlines.items())},
            "spectators": self.spectator_count(),
            "present": self.present_seats(),
            "bots_at": self.runtime.bots_at,
            "result": snap.result.to_json() if snap.result else None,
            "aborted": snap.aborted,
            "rematch_of": info.rematch_of,
            "rematch_id": snap.rematch_id,
            "created_at": info.created_at,
            "takeback": self.takeback_summary(),
        }

    def takeback_summary(self) -> dict[str, JSON]:
        """Whether takebacks may be asked here (never at a table asked rated, nor in a
        tournament's game) and the ask awaiting answers, if any (docs/server.md, Takebacks)."""
        asked = pending_ask(self.events) if self.snap.status == PLAYING else None
        allowed = not self.info.rated and not self.info.tournament
        return {"allowed": allowed, "asked": asked.to_json() if asked else None}

    # ----- the single writer ---------------------------------------------

    async def write(
        self,
        kind: str,
        seat: int | None,
        data: dict[str, JSON],
        *,
        user_id: int | None = None,
        client_id: str | None = None,
        state_after: Any = None,
    ) -> LogEvent:
        """Check, store, remember and publish one event; the caller holds the lock."""
        event = LogEvent(
            self.snap.version + 1, kind, seat, data, user_id, client_id, self.ctx.clock.now()
        )
        new = advance(self.game, self.info.options, self.info.seed, self.snap, event, state_after)
        rated = self.rates(new.seats)
        try:
            changes = event_changes(self.info.id, self.info.game, rated, event, self.snap, new)
            await self.ctx.db.write_event(event.row(self.info.id), changes)
        except queries.VersionConflict as exc:
            await self._catch_up_locked()
            raise Code.CONFLICT.error() from exc
        before, self.snap = self.snap, new
        self.events.append(event)
        if client_id is not None and user_id is not None:
            self.client_ids[(user_id, client_id)] = event.version
        if self.owned:
            self.ctx.facts.publish_all(facts_of(self, event, before, rated))
        await self._announce(event)
        return event

    async def write_action(
        self,
        seat: int,
        action: JSON,
        by: str,
        *,
        user_id: int | None = None,
        client_id: str | None = None,
    ) -> LogEvent:
        """Check that ``seat`` may act now, apply ``action`` and write it (``by``: "player",
        "bot", "zombie" or "timeout"); the caller holds the lock. ``TableError`` if the game
        does not run, it is not the seat's turn or the game refuses the action."""
        must_act(self.game, self.snap, seat, "your" if by == "player" else f"seat {seat}'s")
        applied = apply_action(self.game, self.snap.state, seat, action)
        return await self.write(
            "action",
            seat,
            {"action": applied.action, "by": by, "events": applied.events},
            user_id=user_id,
            client_id=client_id,
            state_after=applied.state,
        )

    async def _announce(self, event: LogEvent) -> None:
        # The whole event: other servers fold it from the announcement instead of reading the
        # store, and each connection sends its client the event's public part.
        await self.ctx.bus.publish(channel(self.info.id), event.row(self.info.id))

    async def announce_folded(self, after: int) -> None:
        """Announce again the newest event this copy folded from the store after version
        ``after`` (a catch-up, a take-over): its writer may have died between storing and
        announcing it, and connections, here as elsewhere, send their clients only what is
        announced. One announcement is enough: a connection hearing any sends its client
        every event up to the table's version, and a copy elsewhere that finds a gap reads
        the rest from the store. (One, not one per event: each is a Redis round trip made
        under the table's lock, which players reconnecting after a take-over wait on.)
        A repeated announcement changes nothing anywhere."""
        if self.snap.version > after:
            await self._announce(self.events[-1])


def reset_for_rematch(snap: Snapshot) -> list[SeatInfo]:
    """The seats of a rematch: the same players and bots; a leaver's seat gets a greedy bot."""
    seats = []
    for s in snap.seats:
        if s.left or s.user_id is None:
            level = s.bot_level or "greedy"
            seats.append(SeatInfo(s.seat, name=f"bot ({level})", bot_level=level))
        else:
            account = s.bot_account
            seats.append(SeatInfo(s.seat, user_id=s.user_id, name=s.name, bot_account=account))
    return seats
