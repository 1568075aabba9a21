"""Who runs a table: one owner at a time, by a lease in Redis that its owner keeps renewing.

Only a table's owner runs its clocks and bots and writes its events; other
servers keep a copy for views and forward writes to the owner (see
:mod:`meeple.tables.calls`). A lease is a Redis key ``meeple:owner:<table>``
whose value is the owner's server id, set with ``NX`` and a time to live,
renewed by its owner every third of that time. If the owner dies its leases
expire and another server takes them (its watcher looks every second), folds
the log and resumes the clocks from the stored times.

A single server (no Redis) owns every table: :class:`SoleOwner`.
"""

from __future__ import annotations

import uuid
from typing import Any, Protocol

OWNER_PREFIX = "meeple:owner:"
JOB_PREFIX = "meeple:job:"

# Renew only a lease still ours, in one round trip per key (pipelined for all of them).
RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


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

    async def owner_of(self, table_id: str) -> str | None:
        """The server holding the table's lease, if any."""
        ...

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Extend these leases; the ids whose lease this server no longer holds."""
        ...

    async def release(self, table_ids: list[str]) -> None:
        """Give these leases up (a server stopping), so another server takes them at once."""
        ...

    async def unowned(self, table_ids: list[str]) -> list[str]:
        """The tables among these whose lease nobody holds."""
        ...

    async def claim_job(self, job: str, ttl_s: float) -> bool:
        """Whether this server is the one to do a one-off job (the first to ask in ``ttl_s``)."""
        ...


class SoleOwner:
    """One server alone: it owns every table, with nothing to renew."""

    shared = False

    def __init__(self) -> None:
        self.server_id = new_server_id()

    async def acquire(self, table_id: str) -> bool:
        """Always: nobody else runs tables."""
        return True

    async def owner_of(self, table_id: str) -> str | None:
        """This server."""
        return self.server_id

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Nothing is ever lost."""
        return set()

    async def release(self, table_ids: list[str]) -> None:
        """Nothing to give up."""

    async def unowned(self, table_ids: list[str]) -> list[str]:
        """All of them, the first time: this server owns what it loads."""
        return list(table_ids)

    async def claim_job(self, job: str, ttl_s: float) -> bool:
        """Always: there is no other server to do it."""
        return True


class RedisLeases:
    """Leases with a time to live in Redis, shared by the servers of one site."""

    shared = True

    def __init__(self, redis: Any, lease_s: float) -> None:
        self.server_id = new_server_id()
        self.redis = redis
        self.lease_ms = int(lease_s * 1000)

    async def acquire(self, table_id: str) -> bool:
        """``SET NX PX``: the first server to ask gets it."""
        key = OWNER_PREFIX + table_id
        if await self.redis.set(key, self.server_id, nx=True, px=self.lease_ms):
            return True
        return await self.owner_of(table_id) == self.server_id

    async def owner_of(self, table_id: str) -> str | None:
        """The value of the lease key."""
        value = await self.redis.get(OWNER_PREFIX + table_id)
        return value.decode() if isinstance(value, bytes) else value

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Extend every lease still ours (one pipeline); the ones that are not."""
        if not table_ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.eval(RENEW, 1, OWNER_PREFIX + table_id, self.server_id, self.lease_ms)
            results = await pipe.execute()
        return {table_id for table_id, kept in zip(table_ids, results, strict=True) if not kept}

    async def unowned(self, table_ids: list[str]) -> list[str]:
        """One ``MGET`` for all the lease keys."""
        if not table_ids:
            return []
        values = await self.redis.mget([OWNER_PREFIX + t for t in table_ids])
        pairs = zip(table_ids, values, strict=True)
        return [table_id for table_id, value in pairs if value is None]

    async def claim_job(self, job: str, ttl_s: float) -> bool:
        """``SET NX EX`` on the job's key: one server does it; if it dies, the key expires."""
        return bool(await self.redis.set(JOB_PREFIX + job, self.server_id, nx=True, ex=int(ttl_s)))

    async def release(self, table_ids: list[str]) -> None:
        """Delete the leases that are still ours."""
        if not table_ids:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.eval(RELEASE, 1, OWNER_PREFIX + table_id, self.server_id)
            await pipe.execute()
