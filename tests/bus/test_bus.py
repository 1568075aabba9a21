"""The event bus, in-process and on Redis: every subscriber gets every later message, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
import redis.exceptions
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
        for _ in range(100):  # the UNSUBSCRIBE goes out right after, from the commander
            if b"meeple:table:t7" not in await probe.redis.pubsub_channels("meeple:table:t*"):
                break
            await asyncio.sleep(0.02)
        assert b"meeple:table:t7" not in await probe.redis.pubsub_channels("meeple:table:t*")
        for s in subs:
            await s.close()
        await bus.close()
        await probe.close()

    run_async(scenario())


@pytest.mark.redis
def test_channels_subscribed_at_once_share_one_command_and_each_gets_its_messages() -> None:
    """A dead server's thousand players reconnecting here subscribe hundreds of new channels in
    the same moment: they go to Redis in a few commands, not one each under a lock."""
    require_redis()

    async def scenario() -> tuple[int, list[dict[str, int]], dict[str, int]]:
        bus = RedisBus(REDIS_URL)
        first = await bus.subscribe("table:warm-up")  # the pub/sub connection exists
        commands = 0
        subscribe = bus._pubsub.subscribe

        async def counted(*channels: str) -> None:
            nonlocal commands
            commands += 1
            await subscribe(*channels)

        bus._pubsub.subscribe = counted
        subs = await asyncio.gather(*(bus.subscribe(f"table:many{n}") for n in range(500)))
        for n in range(500):
            await bus.publish(f"table:many{n}", {"version": n})
        got = [await asyncio.wait_for(s.get(), 5) for s in subs]
        # Closed and opened again at once: the unsubscription and the new subscription go in
        # that order, and the new subscriber hears what is published after.
        await subs[0].close()
        again = await bus.subscribe("table:many0")
        await bus.publish("table:many0", {"version": 1000})
        heard = await asyncio.wait_for(again.get(), 5)
        for sub in [*subs[1:], again, first]:
            await sub.close()
        await bus.close()
        return commands, got, heard

    commands, got, heard = run_async(scenario())
    assert got == [{"version": n} for n in range(500)]
    assert heard == {"version": 1000}
    assert commands <= 3  # 500 channels: one command (two if the first was sent alone)


def test_values_the_fast_encoder_refuses_cross_the_bus_exactly(make: Callable[[], Bus]) -> None:
    """An id beyond 64 bits or a lone surrogate (both a client may send) arrive as sent."""

    async def scenario() -> None:
        bus = make()
        sub = await bus.subscribe("server:s1")
        odd = {"id": 10**30, "big": 2**64, "text": "\ud800 é", "score": 0.1}
        await bus.publish("server:s1", odd)
        await bus.publish("server:s1", {"plain": [1, 2.5, "é"]})
        got = await asyncio.wait_for(sub.get(), 5)
        assert got == odd and type(got["id"]) is int
        assert await asyncio.wait_for(sub.get(), 5) == {"plain": [1, 2.5, "é"]}
        await sub.close()
        await bus.close()

    run_async(scenario())


@pytest.mark.redis
def test_messages_published_at_once_go_to_redis_together_each_channel_in_order() -> None:
    """Tables publishing at the same moment share one write to Redis (a pipeline), and every
    subscriber still gets its channel's messages in the order they were published."""
    require_redis()

    async def scenario() -> None:
        bus = RedisBus(REDIS_URL)
        subs = {n: await bus.subscribe(f"table:p{n}") for n in range(20)}
        pipelines = 0
        make_pipeline = bus.redis.pipeline

        def counted(*args: object, **kwargs: object) -> object:
            nonlocal pipelines
            pipelines += 1
            return make_pipeline(*args, **kwargs)  # type: ignore[arg-type]

        bus.redis.pipeline = counted  # type: ignore[method-assign]

        async def table(n: int) -> None:
            for version in range(1, 11):
                await bus.publish(f"table:p{n}", {"version": version})

        await asyncio.gather(*(table(n) for n in range(20)))
        assert 1 <= pipelines <= 20  # 200 messages, about one batch per round of the 20 tables
        for sub in subs.values():
            got = [await asyncio.wait_for(sub.get(), 5) for _ in range(10)]
            assert [m["version"] for m in got] == list(range(1, 11))
            await sub.close()
        await bus.close()

    run_async(scenario())


def test_a_publish_fails_with_the_error_when_redis_cannot_take_it() -> None:
    """A publisher whose batch cannot be sent is told so (it never waits forever)."""

    async def scenario() -> None:
        bus = RedisBus("redis://127.0.0.1:9/0")  # nothing listens there
        with pytest.raises(redis.exceptions.ConnectionError):
            await asyncio.wait_for(bus.publish("table:x", {"version": 1}), 30)
        await bus.close()

    run_async(scenario())


@pytest.mark.redis
def test_closing_the_bus_fails_the_publishers_still_waiting() -> None:
    """A server stopping never leaves a coroutine waiting forever on a message never sent."""
    require_redis()

    async def scenario() -> None:
        bus = RedisBus(REDIS_URL)
        waiting = asyncio.create_task(bus.publish("table:z", {"version": 1}))
        await asyncio.sleep(0)  # queued, its batch not sent yet
        await bus.close()
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(waiting, 5)

    run_async(scenario())


def test_a_message_posted_without_waiting_goes_out_in_its_turn(make: Callable[[], Bus]) -> None:
    """``post`` returns at once, and its message keeps its place among those published."""

    async def scenario() -> None:
        bus = make()
        listener = await bus.subscribe("table:p")
        later = await bus.subscribe("table:p")  # the channel is subscribed here already
        await bus.publish("table:p", {"n": 1})
        bus.post("table:p", {"n": 2})
        await bus.publish("table:p", {"n": 3})
        for subscription in (listener, later):
            got = [await asyncio.wait_for(subscription.get(), 5) for _ in range(3)]
            assert [m["n"] for m in got] == [1, 2, 3]
        await listener.close()
        await later.close()
        await bus.close()

    run_async(scenario())


def test_a_post_that_cannot_go_out_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """Nobody waits for a posted message, so its failure is said in the log."""

    async def scenario() -> None:
        bus = RedisBus("redis://127.0.0.1:9/0")  # nothing listens there
        bus.post("table:x", {"version": 1})
        with pytest.raises(redis.exceptions.ConnectionError):
            await asyncio.wait_for(bus.publish("table:x", {"version": 2}), 30)
        await asyncio.sleep(0)
        await bus.close()

    run_async(scenario())
    assert "posting on the bus failed" in caplog.text
