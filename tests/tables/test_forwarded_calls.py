"""Forwarded calls: a caller waiting on a dead owner stops waiting once the lease has moved."""

from __future__ import annotations

import asyncio
import time

import pytest

from meeple.bus.memory import InProcessBus
from meeple.tables.calls import CallRouter, CallTimeout


def test_a_call_to_an_owner_whose_lease_moved_fails_at_once_not_at_its_time_out() -> None:
    async def scenario() -> tuple[float, int]:
        bus = InProcessBus()
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await caller.start()
        checks = 0

        async def still_owner() -> bool:
            nonlocal checks
            checks += 1
            return checks < 3  # the dead owner's lease runs out at the third look

        started = time.monotonic()
        with pytest.raises(CallTimeout):
            # "west" is dead: nobody listens on its channel.
            await caller.call(
                "west", "t1", "act", {}, timeout=30, still_owner=still_owner, check_every=0.05
            )
        took = time.monotonic() - started
        await caller.stop()
        return took, checks

    took, checks = asyncio.run(scenario())
    assert checks == 3
    assert took < 2  # three looks 50 ms apart, not the 30 s time-out


def test_a_slow_owner_still_holding_the_lease_is_waited_for() -> None:
    async def scenario() -> tuple[object, int]:
        bus = InProcessBus()
        checks = 0

        class SlowTable:
            owned = True

            async def act(self) -> str:
                await asyncio.sleep(0.3)
                return "done"

        async def find(table_id: str) -> SlowTable:
            return SlowTable()

        async def still_owner() -> bool:
            nonlocal checks
            checks += 1
            return True

        owner = CallRouter(bus, "west", find=find)  # type: ignore[arg-type]
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await owner.start()
        await caller.start()
        result = await caller.call(
            "west", "t1", "act", {}, timeout=5, still_owner=still_owner, check_every=0.05
        )
        await caller.stop()
        await owner.stop()
        return result, checks

    result, checks = asyncio.run(scenario())
    assert result == "done"
    assert checks >= 3  # it looked at the lease while it waited, and kept waiting


def test_an_owner_answering_tells_where_its_clients_reach_it_and_a_silent_one_is_forgotten() -> (
    None
):
    async def scenario() -> tuple[dict[str, str], dict[str, str]]:
        bus = InProcessBus()

        class Table:
            owned = True

            async def act(self) -> str:
                return "done"

        async def find(table_id: str) -> Table:
            return Table()

        owner = CallRouter(bus, "west", find=find, public_url="https://play.example/west")  # type: ignore[arg-type]
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await owner.start()
        await caller.start()
        assert await caller.call("west", "t1", "act", {}, timeout=5) == "done"
        heard = dict(caller.addresses)
        await owner.stop()  # west dies
        with pytest.raises(CallTimeout):
            await caller.call("west", "t1", "act", {}, timeout=0.2)
        await caller.stop()
        return heard, caller.addresses

    heard, after = asyncio.run(scenario())
    assert heard == {"west": "https://play.example/west"}
    assert after == {}


@pytest.mark.redis
def test_callers_waiting_on_one_server_share_one_look_at_its_leases() -> None:
    """A thousand calls waiting on a dead server ask Redis about it a few times a second, not
    once each; once its leases run out they all hear it."""
    import redis.asyncio as aioredis
    from server_harness import require_redis, run_async

    from meeple.tables.owners import LOOK_AGAIN_S, RedisLeases

    url = require_redis()

    async def scenario() -> tuple[list[bool], list[bool], int, float]:
        client = aioredis.Redis.from_url(url)
        lease_s = 2.0  # long enough that a loaded machine renews it in time while alive
        owner = RedisLeases(client, lease_s, url)
        caller = RedisLeases(client, lease_s, url)
        tables = [f"look-test-{time.time_ns()}-{n}" for n in range(1000)]
        looks = 0
        real_owner_of = caller.owner_of

        async def counted_owner_of(table_id: str) -> str | None:
            nonlocal looks
            looks += 1
            return await real_owner_of(table_id)

        caller.owner_of = counted_owner_of  # type: ignore[method-assign]
        try:
            assert await owner.acquire_many(tables) == tables
            asking = 0.0  # time spent in the two waves of calls: a stalled loop may look again
            started = time.monotonic()
            alive = await asyncio.gather(*(caller.still_holds(owner.server_id, t) for t in tables))
            asking += time.monotonic() - started
            owner.close()  # it dies: nothing renews its leases
            await asyncio.sleep(lease_s + LOOK_AGAIN_S)
            started = time.monotonic()
            dead = await asyncio.gather(*(caller.still_holds(owner.server_id, t) for t in tables))
            asking += time.monotonic() - started
            return alive, dead, looks, asking
        finally:
            caller.close()
            await client.aclose()

    alive, dead, looks, asking = run_async(scenario())
    assert all(alive) and not any(dead)
    # One look per wave, plus one per LOOK_AGAIN_S the waves took on a loaded machine.
    assert 2 <= looks <= 2 + int(asking / LOOK_AGAIN_S)
