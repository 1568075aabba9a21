"""Which bot accounts are online now: those with an event stream open on some server.

"Play a bot" lists them beside the built-in levels. The event stream calls
:meth:`OnlineBots.connected` when it opens and :meth:`OnlineBots.disconnected`
when it ends; a bot may hold several streams, on several servers, and stays
online while any of them is open.

On one server the count of open streams is kept in memory. Servers sharing
tables (a Redis bus) each keep a Redis key per bot they hold a stream of,
``meeple:bot-online:<user id>:<server id>``, with a short time to live that a
task here refreshes every :data:`REFRESH_S` while the streams are open; the
key goes when the last stream here ends, and runs out by itself
:data:`TTL_S` after a server dies, so a dead server's bots leave the list
within seconds. The listing reads every server's keys (a ``SCAN``: the online
bots of a site are few).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from meeple import jsontext
from meeple.bus import Bus
from meeple.store.models import User

KEY_PREFIX = "meeple:bot-online:"
"""A bot's key on a server is this, its user id, ``:`` and the server's id."""
TTL_S = 15
"""How long a server's key for a bot lasts unless refreshed (a dead server's bots go after this)."""
REFRESH_S = 5.0
"""How often a server refreshes the keys of the bots streaming from it."""

log = logging.getLogger(__name__)


@dataclass
class _Here:
    """A bot's open streams on this server."""

    name: str
    streams: int = 0
    accept: list[str] | None = None
    """The games it said it accepts (``None``: not said)."""


class OnlineBots:
    """The bot accounts with an event stream open, on this server or any sharing its tables."""

    def __init__(self, bus: Bus, server_id: str) -> None:
        self.server_id = server_id
        self._redis: Any = getattr(bus, "redis", None)
        """The shared Redis (a :class:`~meeple.bus.redis.RedisBus`'s client), else ``None``."""
        self._here: dict[int, _Here] = {}
        self._refresher: asyncio.Task[None] | None = None

    @property
    def shared(self) -> bool:
        """Whether the list is shared with other servers through Redis."""
        return self._redis is not None

    def _key(self, user_id: int) -> str:
        return f"{KEY_PREFIX}{user_id}:{self.server_id}"

    def _value(self, user_id: int, entry: _Here) -> str:
        return jsontext.dumps({"id": user_id, "name": entry.name, "accept": entry.accept})

    async def connected(self, user: User, accept: list[str] | None = None) -> None:
        """A stream of ``user`` opened here; ``accept``: the games it says it takes, if said."""
        entry = self._here.get(user.id)
        if entry is None:
            entry = self._here[user.id] = _Here(name=user.name)
        entry.streams += 1
        entry.name = user.name
        if accept is not None:
            entry.accept = sorted(set(accept))
        if self._redis is not None:
            await self._redis.set(self._key(user.id), self._value(user.id, entry), ex=TTL_S)
            self._start_refresher()

    async def disconnected(self, user: User) -> None:
        """A stream of ``user`` ended here; it leaves the list once none is open (here)."""
        entry = self._here.get(user.id)
        if entry is None:
            return
        entry.streams -= 1
        if entry.streams > 0:
            return
        del self._here[user.id]
        if self._redis is not None:
            await self._redis.delete(self._key(user.id))

    async def listing(self) -> list[dict[str, Any]]:
        """The online bots by name: ``{"id", "name", "accept"}`` (``accept``: None if unsaid)."""
        found: dict[int, dict[str, Any]] = {}
        if self._redis is None:
            for user_id, entry in self._here.items():
                found[user_id] = {"id": user_id, "name": entry.name, "accept": entry.accept}
        else:
            keys = [key async for key in self._redis.scan_iter(match=KEY_PREFIX + "*", count=500)]
            values = await self._redis.mget(keys) if keys else []
            for raw in values:
                if raw is None:  # ran out between the scan and the read
                    continue
                item = jsontext.loads(raw)
                known = found.get(item["id"])
                if known is None:
                    found[item["id"]] = item
                elif item["accept"] is not None:
                    accept = set(item["accept"]) | set(known["accept"] or [])
                    known["accept"] = sorted(accept)
        return sorted(found.values(), key=lambda item: (str(item["name"]).lower(), item["id"]))

    async def is_online(self, user_id: int) -> bool:
        """Whether ``user_id`` has an event stream open on any server."""
        if user_id in self._here:
            return True
        if self._redis is None:
            return False
        async for _key in self._redis.scan_iter(match=f"{KEY_PREFIX}{user_id}:*", count=500):
            return True
        return False

    def _start_refresher(self) -> None:
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.create_task(self._refresh_loop())

    async def _refresh_loop(self) -> None:
        """Refresh this server's keys every :data:`REFRESH_S` while any bot streams from here."""
        while self._here:
            await asyncio.sleep(REFRESH_S)
            try:
                await self.refresh()
            except Exception:  # Redis away for a moment: the next round tries again
                log.warning("could not refresh the online bots' keys", exc_info=True)

    async def refresh(self) -> None:
        """Set every key of the bots streaming from here again, with a fresh time to live."""
        if self._redis is None or not self._here:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for user_id, entry in list(self._here.items()):
                pipe.set(self._key(user_id), self._value(user_id, entry), ex=TTL_S)
            await pipe.execute()

    async def stop(self) -> None:
        """Stop refreshing and remove this server's keys (the bots here go offline)."""
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresher
        if self._redis is not None and self._here:
            with contextlib.suppress(Exception):
                await self._redis.delete(*[self._key(user_id) for user_id in self._here])
        self._here.clear()
