"""All the tables of a server, by what is done with them: the face the web layer talks to.

:class:`TableManager` is handed its parts, built where the server is put together
(``web/services.py``, the one composition root):

- :class:`~meeple.tables.cluster.registry.TableRegistry`: the live tables (load, get,
  forget);
- :class:`~meeple.tables.lobby.matchmaking.Matchmaking`: opening tables (new,
  rematch, quick play) and the lobby's lists;
- :class:`~meeple.tables.cluster.writes.Writes`: every change a request asks of a
  table, run on its owner;
- :class:`~meeple.tables.cluster.cluster.Cluster`: which server runs each table
  (leases, take-over, forwarding, standing down), with its state machine
  (:mod:`meeple.tables.cluster.owner_states`);
- :class:`~meeple.tables.facts.TableFacts`: the hook the tables publish their facts on,
  whose passes it runs while the tables run.

On start-up every open or playing table nobody runs is loaded and resumed:
clocks restart, bots move again, and a game whose last action ended it is
finished.
"""

from __future__ import annotations

import asyncio
from typing import Any

from meeple.bus import Bus
from meeple.config import Settings
from meeple.errors import Code, TableError
from meeple.games.base import JSON, GameRecord
from meeple.store import queries, table_lists
from meeple.store.database import Database
from meeple.tables.cluster.cluster import Cluster
from meeple.tables.cluster.registry import TableRegistry
from meeple.tables.cluster.writes import Writes
from meeple.tables.commands import Join
from meeple.tables.core.spec import TableSpec, check_game
from meeple.tables.core.table import Table
from meeple.tables.facts import TableFacts
from meeple.tables.lobby.lobby import LOBBY_CHANNEL, LOBBY_PAGE
from meeple.tables.lobby.matchmaking import Matchmaking, build_lobby
from meeple.tasks import cancel_all_and_wait

__all__ = ["LOBBY_CHANNEL", "TableManager"]


class TableManager:
    """The server's tables: the registry, the matchmaking, the writes and the cluster."""

    def __init__(
        self,
        settings: Settings,
        db: Database,
        bus: Bus,
        registry: TableRegistry,
        cluster: Cluster,
        matchmaking: Matchmaking,
        writes: Writes,
        facts: TableFacts,
    ) -> None:
        self.settings, self.db, self.bus = settings, db, bus
        self.registry, self.cluster, self.matchmaking = registry, cluster, matchmaking
        self.writes = writes
        """The one way a request changes a table (``services.tables.writes.run(table, Act(…))``)."""
        self.facts = facts
        """What the tables publish as they change, and the passes of their subscribers."""
        self.shared = settings.redis is not None
        """Other servers may write to the same tables (a shared database and Redis bus)."""
        self._loops: list[asyncio.Task[None]] = []

    @property
    def server_id(self) -> str:
        """This server's name among the servers sharing tables."""
        return self.cluster.server_id

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory, by id (read-only for callers)."""
        return self.registry.tables

    @property
    def ownership(self) -> Any:
        """The leases (:class:`~meeple.tables.cluster.owners.Ownership`)."""
        return self.cluster.ownership

    @property
    def calls(self) -> Any:
        """This server's end of the forwarded writes.

        A :class:`~meeple.tables.cluster.calls.CallRouter`.
        """
        return self.cluster.calls

    @property
    def catch_ups(self) -> Any:
        """The batched reads that catch copies up (:attr:`TableRegistry.catch_ups`)."""
        return self.registry.catch_ups

    @property
    def lobby_cache(self) -> Any:
        """The lobby's cached lists (:class:`~meeple.tables.lobby.lobby.LobbyCache`)."""
        return self.matchmaking.lobby_cache

    async def start(self) -> None:
        """Take and resume every open or playing table nobody else runs; watch the leases;
        run the passes of the facts' subscribers."""
        self.facts.start()
        await self.cluster.start(self.writes.here)  # a change forwarded here runs the same way
        if self.shared:
            lobby_news = await self.bus.subscribe(LOBBY_CHANNEL)
            self._loops.append(asyncio.create_task(self.matchmaking.watch_lobby(lobby_news)))

    async def stop(self) -> None:
        """Stop every table's clocks and bots, and hand this server's tables over at once."""
        await cancel_all_and_wait(self._loops)
        await self.cluster.stop_leasing()
        for table in list(self.registry.tables.values()):
            await table.shutdown()
        await self.facts.stop()
        await self.cluster.stop()

    async def get(self, table_id: str) -> Table:
        """The table with this id (:meth:`TableRegistry.get`); ``TableError`` if none."""
        return await self.registry.get(table_id)

    def current(self, table_id: str) -> Table | None:
        """The table in memory if it needs no catch-up (:meth:`TableRegistry.current`)."""
        return self.registry.current(table_id)

    async def record(self, table_id: str) -> GameRecord:
        """The record of a finished game (the format the CLI replays)."""
        return await self.registry.record(table_id)

    async def create(self, user_id: int, user_name: str, spec: TableSpec) -> Table:
        """Open a new table for ``spec`` (:meth:`Matchmaking.create`); ``too_many_tables``
        if the user already has ``MEEPLE_MAX_WAITING_TABLES`` tables waiting for players
        (counted in the shared store, so on every server; checked as the table opens)."""
        cap = self.settings.max_waiting_tables
        if await self.db.run(table_lists.waiting_tables_of, user_id) >= cap:
            raise Code.TOO_MANY_TABLES.error(limit=cap)
        return await self.matchmaking.create(user_id, user_name, spec)

    async def quick_play(self, user_id: int, user_name: str, game: str) -> Table:
        """Seat the user at an open quick-play table of ``game`` (joined on its owner), or
        open one for others to join."""
        seats = check_game(game).quick_play_seats
        for row, _seats in await self.db.run(queries.open_public_tables, game):
            if not row.auto_start:
                continue
            table = await self.registry.get(row.id)
            if table.snap.seat_of(user_id) is not None:
                return table
            try:
                await self.writes.run(table, Join(user_id=user_id, name=user_name))
            except TableError:
                continue
            return table
        return await self.matchmaking.create(
            user_id, user_name, TableSpec(game=game, seats=seats, auto_start=True)
        )

    async def lobby(
        self,
        game: str | None = None,
        status: str = "open",
        before: str | None = None,
        limit: int = LOBBY_PAGE,
    ) -> list[dict[str, JSON]]:
        """A page of the public tables of the lobby, newest first (shared: do not change).

        The first whole page is the cached, shared list (:meth:`Matchmaking.lobby`); a
        later page (``before``: the last table's id of the page before) or a shorter one
        is read for its request alone (:func:`build_lobby`).
        """
        if before is None and limit == LOBBY_PAGE:
            return await self.matchmaking.lobby(game, status)
        return await build_lobby(self.db, self.registry, game, status, limit, before)

    def owner_address(self, table: Table) -> str | None:
        """Where clients reach the server running this table, if another server runs it
        (:meth:`Cluster.owner_address`)."""
        return self.cluster.owner_address(table)
