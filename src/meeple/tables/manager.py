"""All the tables of a server, by what is done with them.

:class:`TableManager` puts together the three parts and is what the web layer
talks to:

- :class:`~meeple.tables.registry.TableRegistry`: the live tables (load, get,
  forget);
- :class:`~meeple.tables.matchmaking.Matchmaking`: opening tables (new,
  rematch, quick play) and the lobby (:class:`~meeple.tables.lobby.LobbyNews`);
- :class:`~meeple.tables.writes.Writes`: every change a request asks of a
  table, run on its owner, its outcome acted on;
- :class:`~meeple.tables.cluster.Cluster`: which server runs each table
  (leases, take-over, forwarding, standing down), with its state machine
  (:mod:`meeple.tables.owner_states`).

On start-up every open or playing table nobody runs is loaded and resumed:
clocks restart, bots move again, and a game whose last action ended it is
finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from typing import Any

from meeple.bus import Bus
from meeple.config import Settings
from meeple.games.base import JSON, GameRecord
from meeple.ratelimit import RateLimits
from meeple.store.database import Database
from meeple.tables.bots import BotPool
from meeple.tables.clock import Clock
from meeple.tables.cluster import Cluster
from meeple.tables.lobby import LOBBY_CHANNEL, LobbyCache, LobbyNews
from meeple.tables.matchmaking import Matchmaking, build_lobby
from meeple.tables.my_turns import MyTurns
from meeple.tables.notifications import Notifier
from meeple.tables.outbox import Sender
from meeple.tables.outcomes import Outcome
from meeple.tables.owner_states import OwnerStates
from meeple.tables.puzzle_supply import PuzzleSupply
from meeple.tables.registry import TableRegistry
from meeple.tables.reviews import Reviewer
from meeple.tables.spec import TableSpec
from meeple.tables.table import Table, TableContext
from meeple.tables.table_notices import TableNotices
from meeple.tables.writes import Writes

__all__ = ["LOBBY_CHANNEL", "TableManager"]


class TableManager:
    """The server's tables: the registry, the matchmaking and the cluster, put together."""

    def __init__(
        self,
        db: Database,
        bus: Bus,
        clock: Clock,
        bots: BotPool,
        settings: Settings,
        limits: RateLimits,
    ) -> None:
        self.db, self.bus, self.clock, self.settings = db, bus, clock, settings
        self.states = OwnerStates()
        """This server's standing with each table (moved by the cluster only)."""
        self.outcomes: asyncio.Queue[tuple[Table, Outcome]] = asyncio.Queue()
        """What the tables' clocks and bots made due, acted on by :meth:`Writes.drain`."""
        self.ctx = TableContext(db, bus, clock, bots, settings, limits, self.states, self.outcomes)
        self.shared = settings.redis is not None
        """Other servers may write to the same tables (a shared database and Redis bus)."""
        self.registry = TableRegistry(db, self.ctx, self.shared)
        self.cluster = Cluster(db, bus, settings, self.states, self.registry)
        self.reviewer = Reviewer(db, bots, clock, self.record, self.cluster.ownership.claim_job)
        """Reviews every finished game once, in the background."""
        self.puzzle_supply = PuzzleSupply(
            db, bots, clock, settings.puzzle_pool_target, settings.bot_budget_s, self.reviewer.claim
        )
        """Fills a short puzzle pool from games between the server's bots, in the background."""
        self.outbox = Sender(db, clock, settings, self.cluster.server_id)
        """Sends the outbox's emails (:mod:`meeple.tables.outbox`), once across servers."""
        self.notifier = Notifier(db, bus, clock)
        """Makes the notifications in the site (:mod:`meeple.tables.notifications`)."""
        cache = LobbyCache(functools.partial(build_lobby, db, self.registry))
        notices = TableNotices(self.notifier)
        self.news = LobbyNews(
            bus, cache, self.registry.forget_later, self.reviewer.schedule, notices
        )
        self.writes = Writes(self.cluster, self.news, self._open_rematch)
        """The one way a request changes a table (``services.tables.writes.act(table, …)``)."""
        self.cluster.calls.run = self.writes.here  # a change forwarded here runs the same way
        self.my_turns = MyTurns(bus, db, self.registry.get)
        """Tells accounts their "your turn" count as their tables' turns change."""
        self.writes.turn_watchers.append(self.my_turns.changed)
        self.writes.turn_watchers.append(notices.changed)
        self.matchmaking = Matchmaking(
            db, bus, clock, self.registry, self.cluster, self.news, self.writes
        )
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
        """The leases (:class:`~meeple.tables.owners.Ownership`)."""
        return self.cluster.ownership

    @property
    def calls(self) -> Any:
        """This server's end of the forwarded writes (:class:`~meeple.tables.calls.CallRouter`)."""
        return self.cluster.calls

    @property
    def catch_ups(self) -> Any:
        """The batched reads that catch copies up (:attr:`TableRegistry.catch_ups`)."""
        return self.registry.catch_ups

    @property
    def lobby_cache(self) -> Any:
        """The lobby's cached lists (:class:`~meeple.tables.lobby.LobbyCache`)."""
        return self.matchmaking.lobby_cache

    async def start(self) -> None:
        """Take and resume every open or playing table nobody else runs; watch the leases."""
        self._loops.append(asyncio.create_task(self.writes.drain(self.outcomes)))
        await self.cluster.start()
        self._loops.append(asyncio.create_task(self.reviewer.catch_up()))
        self.puzzle_supply.start()
        self.outbox.start()
        if self.shared:
            lobby_news = await self.bus.subscribe(LOBBY_CHANNEL)
            self._loops.append(asyncio.create_task(self.matchmaking.watch_lobby(lobby_news)))

    async def stop(self) -> None:
        """Stop every table's clocks and bots, and hand this server's tables over at once."""
        for task in self._loops:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        await self.cluster.stop_leasing()
        await self.reviewer.stop()
        await self.puzzle_supply.stop()
        await self.outbox.stop()
        for table in list(self.registry.tables.values()):
            await table.shutdown()
        await self.cluster.stop()

    async def get(self, table_id: str) -> Table:
        """The table with this id (:meth:`TableRegistry.get`); ``TableError`` if none."""
        return await self.registry.get(table_id)

    async def record(self, table_id: str) -> GameRecord:
        """The record of a finished game (the format the CLI replays)."""
        return await self.registry.record(table_id)

    async def create(self, user_id: int, user_name: str, spec: TableSpec) -> Table:
        """Open a new table for ``spec`` (:meth:`Matchmaking.create`)."""
        return await self.matchmaking.create(user_id, user_name, spec)

    async def quick_play(self, user_id: int, user_name: str, game: str) -> Table:
        """Seat the user at an open quick-play table (:meth:`Matchmaking.quick_play`)."""
        return await self.matchmaking.quick_play(user_id, user_name, game)

    async def lobby(self, game: str | None = None, status: str = "open") -> list[dict[str, JSON]]:
        """The public tables of the lobby (:meth:`Matchmaking.lobby`; shared: do not change)."""
        return await self.matchmaking.lobby(game, status)

    def owner_address(self, table: Table) -> str | None:
        """Where clients reach the server running this table, if another server runs it
        (:meth:`Cluster.owner_address`)."""
        return self.cluster.owner_address(table)

    async def _open_rematch(self, table: Table) -> str:
        return await self.matchmaking.rematch(table)
