"""Caps on the Bot API's open NDJSON streams per token, account, client address and server.

A stream is counted against every cap that applies to it (:class:`Cap`) in one
atomic step: it opens only if none is full, and then counts in all of them.
On one server the counts live in this process (:class:`StreamCounts`). Servers
sharing a Redis count there (:class:`RedisStreamCounts`), so a cap holds
whichever servers a client spreads its streams over.

In Redis a cap's count is a sorted set, ``meeple:streams:<key>``, with one member
per open stream (``<server id>:<n>``) scored by the time its entry runs out (the
Redis server's clock, so the servers' clocks need not agree). Opening first
drops the members that ran out, then counts; closing removes the stream's
members. Each server pushes its own streams' times out every :data:`REFRESH_S`,
in one script call whatever their number; a server that dies stops doing so,
and its streams stop counting :data:`TTL_S` later at most. Nothing is left over
either: each set expires with its last member. A count never rests on a number
some server must remember to lower, which a crash would leave too high forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meeple.errors import Code, MustWait
from meeple.tasks import cancel_and_wait

KEY_PREFIX = "meeple:streams:"
TTL_S = 30.0
"""How long a stream counts in Redis unless its server refreshes it (a dead server's
streams are free again after this)."""
REFRESH_S = 10.0
"""How often a server refreshes its streams in Redis."""
RETRY_AFTER_S = 10
"""What a refusal asks the client to wait: a stream may close any time, and a dead
server's count goes within :data:`TTL_S`."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Cap:
    """One cap a stream counts against: what it counts per (``token``, ``account``,
    ``address``), the key of that token, account or address, and its limit."""

    per: str
    key: str
    limit: int


class TooManyStreams(MustWait):
    """A stream refused by a full cap: 429 ``too_many_streams`` with ``Retry-After``."""

    def __init__(self, cap: Cap) -> None:
        code = Code.TOO_MANY_STREAMS
        super().__init__(
            code,
            code.sentence(limit=cap.limit, per=cap.per),
            retry_after=RETRY_AFTER_S,
            params={"limit": cap.limit, "per": cap.per, "seconds": RETRY_AFTER_S},
        )


class StreamCounts:
    """Open streams per cap key, counted in this process (one server)."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}
        self._streams = 0

    async def open(self, caps: Sequence[Cap]) -> object:
        """Count one more stream against each of ``caps``, a ticket for :meth:`close`;
        :class:`TooManyStreams` (nothing counted) if one of them is full."""
        for cap in caps:
            if self._open.get(cap.key, 0) >= cap.limit:
                raise TooManyStreams(cap)
        for cap in caps:
            self._open[cap.key] = self._open.get(cap.key, 0) + 1
        self._streams += 1
        return tuple(cap.key for cap in caps)

    async def close(self, ticket: object) -> None:
        """Count the stream of ``ticket`` no more."""
        assert isinstance(ticket, tuple)
        self._streams -= 1
        for key in ticket:
            left = self._open.get(key, 0) - 1
            if left > 0:
                self._open[key] = left
            else:
                self._open.pop(key, None)

    def total(self) -> int:
        """Every stream open in this process."""
        return self._streams

    async def stop(self) -> None:
        """Nothing to let go in memory."""


OPEN_SCRIPT = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local ttl = tonumber(ARGV[2])
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[i + 2]) then
    return i
  end
end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[1])
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return 0
"""
"""Count stream ARGV[1] against every key unless one holds its cap (ARGV[3...]) of live
members already: 0 when counted, else the position of the full key."""

REFRESH_SCRIPT = """
local t = redis.call('TIME')
local expiry = t[1] * 1000 + math.floor(t[2] / 1000) + tonumber(ARGV[1])
for i = 1, #KEYS do
  if redis.call('ZSCORE', KEYS[i], ARGV[i + 1]) then
    redis.call('ZADD', KEYS[i], expiry, ARGV[i + 1])
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
  end
end
return 0
"""
"""Push out the time of each (KEYS[i], ARGV[i+1]) stream that still counts (one that ran
out meanwhile is not counted again)."""


class RedisStreamCounts(StreamCounts):
    """Open streams counted in Redis, shared by every server there (module docstring)."""

    def __init__(self, redis: Any, server_id: str) -> None:
        super().__init__()
        self.redis, self.server_id = redis, server_id
        self._ids = itertools.count()
        self._here: dict[str, tuple[str, ...]] = {}
        """Each stream open here: its member name and the keys it counts under."""
        self._refresher: asyncio.Task[None] | None = None

    async def open(self, caps: Sequence[Cap]) -> object:
        """Count one more stream against each of ``caps`` on every server (one script);
        :class:`TooManyStreams` if one of them is full."""
        member = f"{self.server_id}:{next(self._ids)}"
        keys = tuple(KEY_PREFIX + cap.key for cap in caps)
        limits = [cap.limit for cap in caps]
        full = await self.redis.eval(
            OPEN_SCRIPT, len(keys), *keys, member, int(TTL_S * 1000), *limits
        )
        if full:
            raise TooManyStreams(caps[int(full) - 1])
        self._here[member] = keys
        self._streams += 1
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.create_task(self._refresh_loop())
        return member

    async def close(self, ticket: object) -> None:
        """Count the stream of ``ticket`` no more, here and in Redis."""
        assert isinstance(ticket, str)
        keys = self._here.pop(ticket, ())
        self._streams -= 1
        if keys:
            with contextlib.suppress(Exception):  # it runs out by itself within TTL_S
                async with self.redis.pipeline(transaction=False) as pipe:
                    for key in keys:
                        pipe.zrem(key, ticket)
                    await pipe.execute()

    async def refresh(self) -> None:
        """Push out the time of every stream open here, in one script call."""
        pairs = [(key, member) for member, keys in self._here.items() for key in keys]
        if pairs:
            keys = [key for key, _member in pairs]
            members = [member for _key, member in pairs]
            await self.redis.eval(REFRESH_SCRIPT, len(keys), *keys, int(TTL_S * 1000), *members)

    async def _refresh_loop(self) -> None:
        while self._here:
            await asyncio.sleep(REFRESH_S)
            try:
                await self.refresh()
            except Exception:  # Redis away for a moment: the next round tries again
                log.warning("could not refresh the open streams' counts", exc_info=True)

    async def stop(self) -> None:
        """Stop refreshing (the server is stopping: its streams run out in Redis)."""
        await cancel_and_wait(self._refresher)


def make_stream_counts(bus: Any, server_id: str) -> StreamCounts:
    """Counts in the bus's Redis when it has one (several servers), else in this process."""
    redis = getattr(bus, "redis", None)
    return StreamCounts() if redis is None else RedisStreamCounts(redis, server_id)
