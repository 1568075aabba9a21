"""The live tables of a server: found in memory, loaded from the store, forgotten when over.

A table is loaded by replaying its stored event log (so the game state comes
from the record: game, options, seed, actions), many at once
(:class:`~meeple.tables.cluster.loading.TableLoader`). A copy this server does not run
catches up with what its owner stored before it is used (one batched read for
every copy asked for meanwhile). A finished or closed table leaves memory once
nobody has had it open for :attr:`TableRegistry.forget_after_s`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from meeple.batching import Batches
from meeple.errors import Code, TableError
from meeple.games.base import GameRecord
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import GameTable
from meeple.store.queries import EventRow
from meeple.tables.cluster.loading import TableLoader
from meeple.tables.core.access import check_finished
from meeple.tables.core.log import CLOSED, FINISHED, LogEvent
from meeple.tables.core.table import Table, TableContext, TableInfo
from meeple.tables.core.takeback_log import standing_actions
from meeple.tables.facts import GameFinished, TableClosed


class TableRegistry:
    """The tables in memory by id, with their loads and catch-ups batched."""

    def __init__(
        self,
        db: Database,
        ctx: TableContext,
        shared: bool,
        on_forget: Callable[[Table], None] = lambda table: None,
    ) -> None:
        """``on_forget``: told of each table let go from memory (the cluster gives its lease
        up, :func:`~meeple.tables.cluster.cluster.let_go`)."""
        self.db, self.ctx, self.shared = db, ctx, shared
        self.tables: dict[str, Table] = {}
        self.loader = TableLoader(self.db, self._loaded, _no_table)
        """Reads the tables asked for that are not in memory, together."""
        self.catch_ups: Batches[Table, list[EventRow]] = Batches(
            self.read_catch_ups, join_running=False
        )
        """Reads what the owners stored after this server's copies, for every copy asked
        for meanwhile together."""
        self.forget_after_s = 600.0
        """How long a finished or closed table stays in memory with nobody at it."""
        self.on_forget = on_forget

    async def get(self, table_id: str) -> Table:
        """The table with this id, loaded from the store if needed; ``TableError`` if none.

        When servers share tables, a table already loaded that this server does
        not own first catches up with the events its owner stored (the owner
        writes every event itself, so its copy is the log's).
        """
        table = self.tables.get(table_id)
        if table is not None:
            if self.shared and not table.owned:
                # Read before the lock is taken: holding the lock while the read queues
                # would hold back a take-over of the table (whose folding leaves these rows
                # redundant, never wrong: only newer ones are folded).
                rows = await self.catch_ups.ask(table)
                async with table.lock:
                    await table.fold_stored_and_announce_locked(rows or [])
            return table
        return await self.loader.load(table_id)

    def current(self, table_id: str) -> Table | None:
        """The table in memory if it needs no catch-up (this server runs it, or no other server
        writes to it); ``None`` otherwise: ask :meth:`get`."""
        table = self.tables.get(table_id)
        if table is None or (self.shared and not table.owned):
            return None
        return table

    async def here(self, table_id: str) -> Table:
        """The copy in memory as it is, or the table loaded from the store ahead of the common
        queue (:meth:`Database.run_first`: it is being taken over)."""
        return self.tables.get(table_id) or await self.loader.load(table_id, first=True)

    def add(self, table: Table) -> None:
        """Keep a table just opened."""
        self.tables[table.info.id] = table

    async def read_catch_ups(self, copies: list[Table], first: bool) -> dict[Table, list[EventRow]]:
        """For each copy, the events its owner stored after the copy's version now (by copy,
        not id: a table forgotten and loaded again meanwhile has two); ``first``: ahead of
        the common queue."""
        since: dict[str, int] = {}
        for copy in copies:
            table_id, version = copy.info.id, copy.snap.version
            since[table_id] = min(version, since.get(table_id, version))
        read = self.db.run_first if first else self.db.run
        stored = await read(queries.events_after_each, since)
        return {copy: stored[copy.info.id] for copy in copies}

    def _loaded(self, row: GameTable, events: list[EventRow]) -> Table:
        """The table of a stored row and its log, kept in memory (unless one is already)."""
        table = self.tables.get(row.id)
        if table is not None:
            return table  # created here while the batch was being read
        table = Table(TableInfo.from_row(row), self.ctx)
        for event in events:
            table.fold(LogEvent.from_row(event))
        self.tables[row.id] = table
        if table.snap.status in (FINISHED, CLOSED):
            self.forget_later(row.id)
        return table

    def table_over(self, fact: GameFinished | TableClosed) -> None:
        """A table this server runs finished or closed: let it go from memory later."""
        self.forget_later(fact.table_id)

    def forget_later(self, table_id: str) -> None:
        """Drop a finished or closed table from memory once nobody has had it open for a while."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.forget_after_s, self._forget, table_id)

    def _forget(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table.snap.status not in (FINISHED, CLOSED):
            return
        if table.viewers or table.lock.locked():
            self.forget_later(table_id)
            return
        del self.tables[table_id]
        self.on_forget(table)

    async def record(self, table_id: str) -> GameRecord:
        """The record of a finished game (the format the CLI replays)."""
        table = await self.get(table_id)
        check_finished(table)
        actions = tuple(
            (e.seat, e.data["action"])
            for e in standing_actions(table.events)  # none a takeback undid
            if e.seat is not None
        )
        return GameRecord(table.info.game, table.info.options, table.info.seed, actions)


def _no_table(table_id: str) -> TableError:
    shown = repr(table_id[:40])
    return Code.NO_TABLE.error(table=shown)
