"""A tournament's lease (``Ownership.hold``): one server holds it and keeps it by asking
again; another takes it only once it ran out; a lone server holds every one."""

from __future__ import annotations

import asyncio
import time

import pytest
from server_harness import require_redis, run_async

from meeple.tables.cluster.owners import SoleOwner


def test_a_lone_server_holds_every_tournament() -> None:
    assert run_async(SoleOwner().hold("tournament:t1", 5)) is True


@pytest.mark.redis
def test_one_server_holds_a_tournament_until_its_lease_runs_out() -> None:
    import redis.asyncio as aioredis

    from meeple.tables.cluster.owners import RedisLeases

    url = require_redis()

    async def scenario() -> list[bool]:
        client = aioredis.Redis.from_url(url)
        east, west = RedisLeases(client, 3, url), RedisLeases(client, 3, url)
        name = f"tournament:test-{time.time_ns()}"
        try:
            seen = [await east.hold(name, 30), await west.hold(name, 30)]
            seen.append(await east.hold(name, 0.2))  # kept by asking again (for less time)
            for _ in range(600):  # east stops asking: it runs out
                if await west.hold(name, 30):
                    break
                await asyncio.sleep(0.05)
            seen.append(await east.hold(name, 30))
            return seen
        finally:
            east.close()
            west.close()
            await client.aclose()

    assert run_async(scenario()) == [True, False, True, False]
