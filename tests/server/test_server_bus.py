"""The event bus, in-process and on Redis: every subscriber gets every later message, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from server_harness import REDIS_URL, require_redis, run_async

from meeple.bus import Bus, InProcessBus
from meeple.bus.redis import RedisBus


def in_process() -> Bus:
    return InProcessBus()


def on_redis() -> Bus:
    return RedisBus(REDIS_URL)


@pytest.fixture(
    params=[in_process, pytest.param(on_redis, marks=pytest.mark.redis)],
    ids=["in-process", "redis"],
)
def make(request: pytest.FixtureRequest) -> Callable[[], Bus]:
    factory: Callable[[], Bus] = request.param
    if factory is on_redis:
        require_redis()
    return factory


def test_every_subscriber_gets_every_message_in_order(make: Callable[[], Bus]) -> None:
    async def scenario() -> None:
        bus = make()
        first = await bus.subscribe("table:a")
        second = await bus.subscribe("table:a")
        other = await bus.subscribe("table:b")
        for version in range(1, 6):
            await bus.publish("table:a", {"version": version})
        for subscription in (first, second):
            got = [await asyncio.wait_for(subscription.get(), 5) for _ in range(5)]
            assert [m["version"] for m in got] == [1, 2, 3, 4, 5]
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(other.get(), 0.2)
        for subscription in (first, second, other):
            await subscription.close()
        await bus.close()

    run_async(scenario())


def test_a_closed_subscription_receives_nothing_more(make: Callable[[], Bus]) -> None:
    async def scenario() -> None:
        bus = make()
        gone = await bus.subscribe("lobby")
        stays = await bus.subscribe("lobby")
        await gone.close()
        await bus.publish("lobby", {"type": "table"})
        assert await asyncio.wait_for(stays.get(), 5) == {"type": "table"}
        await stays.close()
        await bus.close()

    run_async(scenario())


@pytest.mark.redis
def test_a_thousand_subscribers_share_one_redis_connection() -> None:
    """One pub/sub connection per process, one Redis subscription per channel: clients cost no
    connection (one each ran the pool dry at about a hundred clients per server)."""
    require_redis()

    async def scenario() -> None:
        bus = RedisBus(REDIS_URL)
        probe = RedisBus(REDIS_URL)
        subs = [await bus.subscribe(f"table:t{n % 50}") for n in range(1000)]
        channels = await probe.redis.pubsub_channels("meeple:table:t*")
        assert len(channels) == 50
        await bus.publish("table:t7", {"version": 1})
        got = [await asyncio.wait_for(s.get(), 5) for s in subs if s.channel == "table:t7"]
        assert got == [{"version": 1}] * 20
        numsub = dict(await probe.redis.pubsub_numsub("meeple:table:t7"))
        assert numsub[b"meeple:table:t7"] == 1  # one Redis subscriber for twenty local ones
        for s in subs:
            if s.channel == "table:t7":
                await s.close()
        assert b"meeple:table:t7" not in await probe.redis.pubsub_channels("meeple:table:t*")
        for s in subs:
            await s.close()
        await bus.close()
        await probe.close()

    run_async(scenario())
