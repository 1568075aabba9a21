"""Who runs a table: one owner at a time, by a lease in Redis that its owner keeps renewing.

Only a table's owner runs its clocks and bots and writes its events; other
servers keep a copy for views and forward writes to the owner (see
:mod:`meeple.tables.cluster.calls`). A lease is a Redis key ``meeple:owner:<table>``
whose value is the owner's server id, set with ``NX`` and a time to live,
renewed by its owner four times per lease. If the owner dies its leases
expire and another server takes them (its watcher looks twice a second), folds
the log and resumes the clocks from the stored times.

The renewing happens in a thread of its own
(:class:`~meeple.tables.cluster.lease_keeper.LeaseKeeper`), off the event loop.

A single server (no Redis) owns every table: :class:`SoleOwner`.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any, Protocol

from meeple.bus import Bus
from meeple.config import Settings
from meeple.tables.cluster.lease_keeper import (
    ALIVE_LEASES,
    OWNER_PREFIX,
    RELEASE_MANY,
    RENEW_CHUNK,
    LeaseKeeper,
)

__all__ = [
    "ALIVE_LEASES",
    "OWNER_PREFIX",
    "Ownership",
    "RedisLeases",
    "SoleOwner",
    "lease_ownership",
]

JOB_PREFIX = "meeple:job:"

# Take every lease of a list nobody holds (SET NX); the 1-based positions of those this
# server holds afterwards.
ACQUIRE_MANY = """
local held = {}
for i, key in ipairs(KEYS) do
  if redis.call('set', key, ARGV[1], 'NX', 'PX', ARGV[2]) or redis.call('get', key) == ARGV[1] then
    held[#held + 1] = i
  end
end
return held
"""
# Take the lease KEYS[1] for ARGV[1] if nobody holds it, or keep it if ARGV[1] does: 1 if held.
HOLD = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
HOLD_PREFIX = "meeple:hold:"
LOOK_AGAIN_S = 0.5
"""How often :meth:`RedisLeases.still_holds` asks Redis again about one server."""
log = logging.getLogger(__name__)


def new_server_id() -> str:
    """A name for this server process, unique among the servers sharing tables."""
    return uuid.uuid4().hex[:12]


class Ownership(Protocol):
    """Leases on tables."""

    server_id: str
    shared: bool

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it; whether this server holds it now."""
        ...

    async def acquire_many(self, table_ids: list[str]) -> list[str]:
        """:meth:`acquire` for many tables at once; the ids whose lease this server holds."""
        ...

    async def owner_of(self, table_id: str) -> str | None:
        """The server holding the table's lease, if any."""
        ...

    async def still_holds(self, server_id: str, table_id: str) -> bool:
        """Whether ``server_id`` still holds the table's lease, for a caller waiting on it;
        cheap enough to ask often (answers may be a fraction of a second old)."""
        ...

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Keep these leases; the ids whose lease this server no longer holds."""
        ...

    async def release(self, table_ids: list[str]) -> None:
        """Give these leases up (a server stopping), so another server takes them at once."""
        ...

    async def unowned(self, table_ids: list[str]) -> list[str]:
        """The tables among these whose lease nobody holds."""
        ...

    def watch(self, table_ids: list[str], on_taken: Callable[[list[str]], None]) -> None:
        """Take these tables' leases as soon as they run out (their owner died), and call
        ``on_taken`` on the event loop with the ids taken; the list replaces the last one."""
        ...

    async def claim_job(self, job: str, ttl_s: float) -> bool:
        """Whether this server is the one to do a one-off job (the first to ask in ``ttl_s``)."""
        ...

    async def hold(self, name: str, ttl_s: float) -> bool:
        """Take the lease ``name`` (a tournament's, not a table's) if nobody holds it, or keep
        it ``ttl_s`` more if this server does; whether this server holds it now. Its holder
        renews it by calling again; it runs out ``ttl_s`` after the last call."""
        ...

    def close(self) -> None:
        """Stop keeping leases (the server is stopping; release them first)."""
        ...


class SoleOwner:
    """One server alone: it owns every table, with nothing to renew."""

    shared = False

    def __init__(self) -> None:
        self.server_id = new_server_id()

    async def acquire(self, table_id: str) -> bool:
        """Always: nobody else runs tables."""
        return True

    async def acquire_many(self, table_ids: list[str]) -> list[str]:
        """All of them."""
        return list(table_ids)

    async def owner_of(self, table_id: str) -> str | None:
        """This server."""
        return self.server_id

    async def still_holds(self, server_id: str, table_id: str) -> bool:
        """Whether it is this server."""
        return server_id == self.server_id

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Nothing is ever lost."""
        return set()

    async def release(self, table_ids: list[str]) -> None:
        """Nothing to give up."""

    async def unowned(self, table_ids: list[str]) -> list[str]:
        """All of them, the first time: this server owns what it loads."""
        return list(table_ids)

    def watch(self, table_ids: list[str], on_taken: Callable[[list[str]], None]) -> None:
        """Nothing to watch: no other server holds a lease."""

    async def claim_job(self, job: str, ttl_s: float) -> bool:
        """Always: there is no other server to do it."""
        return True

    async def hold(self, name: str, ttl_s: float) -> bool:
        """Always: this server holds everything."""
        return True

    def close(self) -> None:
        """Nothing to stop."""


class RedisLeases:
    """Leases with a time to live in Redis, shared by the servers of one site."""

    shared = True

    def __init__(self, client: Any, lease_s: float, url: str) -> None:
        self.server_id = new_server_id()
        self.redis = client
        self.lease_ms = int(lease_s * 1000)
        self.keeper = LeaseKeeper(url, self.server_id, lease_s)
        """Renews the leases off the event loop."""
        self._looks: dict[str, tuple[float, asyncio.Future[bool]]] = {}
        """Per server: when :meth:`still_holds` last asked Redis about it, and the answer."""

    async def acquire(self, table_id: str) -> bool:
        """``SET NX PX``: the first server to ask gets it (never a server that cannot keep
        its leases: it would take a table only to give it up, again and again)."""
        if not self.keeper.can_keep():
            return False
        key = OWNER_PREFIX + table_id
        held = bool(await self.redis.set(key, self.server_id, nx=True, px=self.lease_ms))
        held = held or await self.owner_of(table_id) == self.server_id
        if held:
            self.keeper.add(table_id)  # kept from now on, even before the loop's next hand-over
        return held

    async def acquire_many(self, table_ids: list[str]) -> list[str]:
        """One script call per :data:`RENEW_CHUNK` leases, each ``SET NX PX`` (none taken by a
        server that cannot keep its leases)."""
        held: list[str] = []
        if not self.keeper.can_keep():
            return held
        for start in range(0, len(table_ids), RENEW_CHUNK):
            chunk = table_ids[start : start + RENEW_CHUNK]
            keys = [OWNER_PREFIX + t for t in chunk]
            positions = await self.redis.eval(
                ACQUIRE_MANY, len(keys), *keys, self.server_id, self.lease_ms
            )
            for position in positions:
                held.append(chunk[int(position) - 1])
                self.keeper.add(chunk[int(position) - 1])
        return held

    async def owner_of(self, table_id: str) -> str | None:
        """The value of the lease key."""
        value = await self.redis.get(OWNER_PREFIX + table_id)
        return value.decode() if isinstance(value, bytes) else value

    async def still_holds(self, server_id: str, table_id: str) -> bool:
        """One look at the lease per server every :data:`LOOK_AGAIN_S`, shared by every caller.

        A server's leases are renewed together and run out together, so one of its tables
        answers for all of them: a thousand calls waiting on a dead server make two Redis
        round trips a second, not two thousand. A server that lost just one table
        answers its callers ``not_owner`` itself. If Redis cannot say, yes.
        """
        now = time.monotonic()
        look = self._looks.get(server_id)
        if look is None or now - look[0] >= LOOK_AGAIN_S:
            if len(self._looks) > 64:  # servers that came and went
                self._looks = {k: v for k, v in self._looks.items() if now - v[0] < 60}
            look = (now, asyncio.ensure_future(self._holds(server_id, table_id)))
            self._looks[server_id] = look
        return await asyncio.shield(look[1])

    async def _holds(self, server_id: str, table_id: str) -> bool:
        try:
            return await self.owner_of(table_id) == server_id
        except Exception:
            log.warning("could not look up the owner of table %s", table_id, exc_info=True)
            return True

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Hand the keeper the leases to keep; the ids it found lost since the last call."""
        self.keeper.keep(table_ids)
        return self.keeper.take_lost()

    async def unowned(self, table_ids: list[str]) -> list[str]:
        """One ``MGET`` for all the lease keys."""
        if not table_ids:
            return []
        values = await self.redis.mget([OWNER_PREFIX + t for t in table_ids])
        pairs = zip(table_ids, values, strict=True)
        return [table_id for table_id, value in pairs if value is None]

    def watch(self, table_ids: list[str], on_taken: Callable[[list[str]], None]) -> None:
        """The keeper's thread takes them the moment they run out (:meth:`LeaseKeeper.watch`)."""
        self.keeper.watch(table_ids, on_taken, asyncio.get_running_loop())

    async def claim_job(self, job: str, ttl_s: float) -> bool:
        """``SET NX EX`` on the job's key: one server does it; if it dies, the key expires."""
        return bool(await self.redis.set(JOB_PREFIX + job, self.server_id, nx=True, ex=int(ttl_s)))

    async def hold(self, name: str, ttl_s: float) -> bool:
        """One script call: ``SET NX PX``, or ``PEXPIRE`` when the lease is already ours."""
        held = await self.redis.eval(HOLD, 1, HOLD_PREFIX + name, self.server_id, int(ttl_s * 1000))
        return bool(held)

    def close(self) -> None:
        """Stop the keeper's thread."""
        self.keeper.stop()

    async def release(self, table_ids: list[str]) -> None:
        """Delete the leases that are still ours, up to :data:`RENEW_CHUNK` at once."""
        if not table_ids:
            return
        self.keeper.forget(table_ids)  # or it would take them back
        for start in range(0, len(table_ids), RENEW_CHUNK):
            keys = [OWNER_PREFIX + t for t in table_ids[start : start + RENEW_CHUNK]]
            await self.redis.eval(RELEASE_MANY, len(keys), *keys, self.server_id)


def lease_ownership(bus: Bus, settings: Settings) -> Ownership:
    """The leases of this server: in Redis when servers share tables (``MEEPLE_REDIS`` and a
    Redis bus), else :class:`SoleOwner`."""
    redis = getattr(bus, "redis", None)
    if settings.redis is not None and redis is not None:
        return RedisLeases(redis, settings.lease_s, settings.redis)
    return SoleOwner()
