"""The lobby's lists, computed at most once a second and shared by every request.

Building a list loads up to a hundred tables (on a server that shares tables,
each catches up from the store first), so a busy lobby would cost a table load
per table per request. Instead each list (one per game and status) is kept for
``ttl_s`` and built by one request while the others wait for it. A change of a
public table's lobby standing (opened, a seat taken or left, started, ended) drops
the lists of the server running it at once, as the change is stored, and every
other server's on the lobby news the bus brings a pass later (:class:`LobbyNews`),
so the open tables are not shown stale after a change; the playing tables' versions
and clocks may be up to ``ttl_s`` old.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from meeple.bus import Bus
from meeple.games.base import JSON
from meeple.tables.core.log import OPEN
from meeple.tables.facts import Fact

if TYPE_CHECKING:
    from meeple.tables.core.table import Table

LOBBY_PAGE = 100
"""The most tables one lobby list holds (``GET /api/tables?limit=``, at most this): the
newest; older ones come page by page (``?before=``)."""

LOBBY_CHANNEL = "lobby"
"""The bus channel of lobby updates (a public table opened, changed or gone)."""

Key = tuple[str | None, str]
"""(game or None for every game, status)."""

Build = Callable[[str | None, str], Awaitable[list[dict[str, JSON]]]]


class LobbyCache:
    """Lobby lists by (game, status), rebuilt at most every ``ttl_s`` seconds."""

    def __init__(self, build: Build, ttl_s: float = 1.0) -> None:
        self.build, self.ttl_s = build, ttl_s
        self._lists: dict[Key, tuple[float, int, list[dict[str, JSON]]]] = {}
        self._building: dict[Key, asyncio.Task[list[dict[str, JSON]]]] = {}
        self._generation = 0
        self.builds = 0
        """How many lists were built (the rest were served from the cache)."""

    async def get(self, game: str | None, status: str) -> list[dict[str, JSON]]:
        """The list now: the kept one if fresh, else the one being built, else a new one."""
        key = (game, status)
        kept = self._lists.get(key)
        fresh = kept is not None and time.monotonic() - kept[0] < self.ttl_s
        if kept is not None and fresh and kept[1] == self._generation:
            return kept[2]
        task = self._building.get(key)
        if task is None:
            task = asyncio.create_task(self._build(key, self._generation))
            self._building[key] = task
        return await asyncio.shield(task)

    async def _build(self, key: Key, generation: int) -> list[dict[str, JSON]]:
        try:
            self.builds += 1
            listed = await self.build(*key)
            if generation == self._generation:
                self._lists[key] = (time.monotonic(), generation, listed)
            return listed
        finally:
            if self._building.get(key) is asyncio.current_task():
                del self._building[key]

    def changed(self) -> None:
        """Something in the lobby changed: the next request builds a fresh list."""
        self._generation += 1
        self._lists.clear()
        # A list being built may already have read the old state: build again.
        self._building.clear()


class LobbyNews:
    """Tells the lobby of the public tables whose lobby standing changed (opened, a seat
    taken or left, started, ended): this server's lists are dropped at once, and every
    server's (and the lobby sockets') hear it on the bus in the next pass, once per table."""

    def __init__(self, bus: Bus, cache: LobbyCache) -> None:
        self.bus, self.cache = bus, cache
        self._due: dict[str, Table] = {}
        """The tables to tell of in the next pass, by id."""

    def changed(self, fact: Fact) -> None:
        """A table changed its lobby standing: drop this server's lists, tell the bus later.

        Subscribed to :class:`~meeple.tables.facts.TableOpened`, ``SeatTaken``, ``SeatLeft``,
        ``GameStarted``, ``GameFinished`` and ``TableClosed``."""
        if fact.table.info.private:
            return
        self.cache.changed()
        self._due[fact.table_id] = fact.table

    async def tell_due(self) -> None:
        """Publish each table noted since the last pass, as it is now: a table still open
        with its summary, any other as gone."""
        due, self._due = self._due, {}
        for table in due.values():
            status = table.snap.status
            if status == OPEN:
                await self.bus.publish(LOBBY_CHANNEL, {"type": "table", "table": table.summary()})
            else:
                gone = {"type": "gone", "id": table.info.id, "status": status}
                await self.bus.publish(LOBBY_CHANNEL, gone)
