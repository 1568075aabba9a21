"""The lobby's lists, computed at most once a second and shared by every request.

Building a list loads up to a hundred tables (on a server that shares tables,
each catches up from the store first), so a busy lobby would cost a table load
per table per request. Instead each list (one per game and status) is kept for
``ttl_s`` and built by one request while the others wait for it. Any lobby news
on the bus (a table opened, changed, started or ended, on any server) drops the
lists at once, so the open tables are never shown stale after a change; the
playing tables' versions and clocks may be up to ``ttl_s`` old.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from meeple.bus import Bus
from meeple.games.base import JSON
from meeple.tables.log import CLOSED, FINISHED, OPEN
from meeple.tables.table_notices import TableNotices
from meeple.tables.user_events import SeatNews

if TYPE_CHECKING:
    from meeple.tables.table import Table

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
    """What follows a table's change of lobby standing: the lobby told, an ended table let
    go from memory later, a finished one reviewed."""

    def __init__(
        self,
        bus: Bus,
        cache: LobbyCache,
        forget_later: Callable[[str], None],
        review: Callable[[str, str, bool], None],
        notices: TableNotices,
    ) -> None:
        self.bus, self.cache = bus, cache
        self.forget_later = forget_later
        """Lets a table that is over go from memory a while later (loaded again if asked)."""
        self.review = review
        """Schedules the review of a finished game (table id, game, private)."""
        self.seats = SeatNews(bus)
        """Tells the seated accounts' event streams of a game started or finished."""
        self.notices = notices
        """Makes the notifications of a player's turn, a finished game, a rematch offered."""

    async def changed(self, table: Table) -> None:
        """Tell the lobby's subscribers of a public table that opened, changed or left (and
        the accounts seated at any table that started or finished)."""
        status = table.snap.status
        await self.seats.changed(table)
        await self.notices.changed(table)
        if status in (FINISHED, CLOSED):
            self.forget_later(table.info.id)
        if status == FINISHED and table.owned:
            self.review(table.info.id, table.info.game, table.info.private)
        if table.info.private:
            return
        self.cache.changed()
        if status == OPEN:
            await self.bus.publish(LOBBY_CHANNEL, {"type": "table", "table": table.summary()})
        else:
            await self.bus.publish(
                LOBBY_CHANNEL, {"type": "gone", "id": table.info.id, "status": status}
            )
