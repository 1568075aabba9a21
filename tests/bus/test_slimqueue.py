"""The small queue and event every open socket waits on: asyncio.Queue's and asyncio.Event's
behaviour (order, one item per getter, cancellation) without their idle deques."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.slimqueue import SlimEvent, SlimQueue


@given(st.lists(st.one_of(st.integers(), st.none()), max_size=30))
def test_items_come_out_in_the_order_they_went_in(items: list[int | None]) -> None:
    async def scenario() -> list[int | None]:
        queue: SlimQueue[int | None] = SlimQueue()
        for item in items:
            queue.put_nowait(item)
        assert queue.qsize() == len(items)
        return [await queue.get() for _ in items]

    assert asyncio.run(scenario()) == items


def test_an_empty_queue_refuses_get_nowait_and_keeps_no_deque() -> None:
    queue: SlimQueue[int] = SlimQueue()
    with pytest.raises(asyncio.QueueEmpty):
        queue.get_nowait()
    queue.put_nowait(1)
    assert not queue.empty()
    assert queue.get_nowait() == 1
    assert queue.empty() and queue.qsize() == 0
    assert queue._items is None  # what the queue is for: nothing kept while idle


def test_each_item_wakes_one_waiting_getter_in_the_order_they_waited() -> None:
    async def scenario() -> list[tuple[int, str]]:
        queue: SlimQueue[str] = SlimQueue()
        got: list[tuple[int, str]] = []

        async def take(n: int) -> None:
            got.append((n, await queue.get()))

        takers = [asyncio.create_task(take(n)) for n in range(3)]
        await asyncio.sleep(0)
        queue.put_nowait("a")
        queue.put_nowait("b")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert got == [(0, "a"), (1, "b")]
        queue.put_nowait("c")
        await asyncio.gather(*takers)
        return got

    assert asyncio.run(scenario()) == [(0, "a"), (1, "b"), (2, "c")]


def test_a_cancelled_getter_loses_no_item() -> None:
    async def scenario() -> str:
        queue: SlimQueue[str] = SlimQueue()
        first = asyncio.create_task(queue.get())
        second = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        # The first getter is woken for the item, then cancelled before it runs: the item
        # goes to the next getter, as with asyncio.Queue.
        queue.put_nowait("only")
        first.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await first
        return await asyncio.wait_for(second, 1)

    assert asyncio.run(scenario()) == "only"


def test_a_getter_cancelled_while_waiting_leaves_the_queue_working() -> None:
    async def scenario() -> str:
        queue: SlimQueue[str] = SlimQueue()
        waiting = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        queue.put_nowait("next")
        return await asyncio.wait_for(queue.get(), 1)

    assert asyncio.run(scenario()) == "next"


def test_the_event_wakes_every_waiter_and_clear_makes_them_wait_again() -> None:
    async def scenario() -> None:
        event = SlimEvent()
        assert not event.is_set()
        waiters = [asyncio.create_task(event.wait()) for _ in range(3)]
        await asyncio.sleep(0)
        assert not any(w.done() for w in waiters)
        event.set()
        assert await asyncio.gather(*waiters) == [True, True, True]
        assert await event.wait() is True  # at once while set
        event.clear()
        later = asyncio.create_task(event.wait())
        await asyncio.sleep(0.01)
        assert not later.done()
        event.set()
        assert await asyncio.wait_for(later, 1) is True

    asyncio.run(scenario())


def test_a_cancelled_event_waiter_is_forgotten() -> None:
    async def scenario() -> None:
        event = SlimEvent()
        waiter = asyncio.create_task(event.wait())
        await asyncio.sleep(0)
        waiter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiter
        assert not event._waiters
        event.set()

    asyncio.run(scenario())
