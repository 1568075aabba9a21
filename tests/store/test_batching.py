"""Batches: what many tasks ask for at once is read together, each key once."""

from __future__ import annotations

import asyncio

import pytest

from meeple.batching import Batches


class Reads:
    """Answers each key with its upper case, recording the batches and whether read first."""

    def __init__(self) -> None:
        self.batches: list[tuple[list[str], bool]] = []
        self.broken = False

    async def __call__(self, keys: list[str], first: bool) -> dict[str, str]:
        self.batches.append((sorted(keys), first))
        await asyncio.sleep(0.01)
        if self.broken:
            raise OSError("the store went away")
        return {k: k.upper() for k in keys if k != "none"}


def test_keys_asked_for_while_a_read_runs_are_read_again_after_it_unless_joining() -> None:
    """Without ``join_running`` an answer is never older than its asking: a key already in
    the running read goes in the next one (a catch-up must see what was stored before it)."""

    async def scenario(join_running: bool) -> list[tuple[list[str], bool]]:
        reads = Reads()
        batches = Batches(reads, join_running)
        running = asyncio.gather(batches.ask("a"), batches.ask("b"), batches.ask("a"))
        await asyncio.sleep(0.005)  # the first read is running
        later = asyncio.gather(batches.ask("a"), batches.ask("c", first=True))
        assert await running == ["A", "B", "A"]
        assert await later == ["A", "C"]
        assert batches.reads == len(reads.batches)
        return reads.batches

    assert asyncio.run(scenario(False)) == [(["a", "b"], False), (["a", "c"], True)]
    assert asyncio.run(scenario(True)) == [(["a", "b"], False), (["c"], True)]


def test_a_key_without_an_answer_gets_none_and_a_failed_read_fails_only_its_askers() -> None:
    reads = Reads()
    batches: Batches[str, str] = Batches(reads, join_running=False)

    async def scenario() -> None:
        assert await asyncio.gather(batches.ask("none"), batches.ask("x")) == [None, "X"]
        reads.broken = True
        with pytest.raises(OSError):
            await batches.ask("x")
        reads.broken = False
        assert await batches.ask("x") == "X"

    asyncio.run(scenario())


def test_an_asker_giving_up_does_not_cancel_the_read_for_the_others() -> None:
    reads = Reads()
    batches: Batches[str, str] = Batches(reads, join_running=True)

    async def scenario() -> str | None:
        impatient = asyncio.create_task(batches.ask("k"))
        patient = asyncio.create_task(batches.ask("k"))
        await asyncio.sleep(0.001)
        impatient.cancel()
        return await patient

    assert asyncio.run(scenario()) == "K"


def test_a_key_asked_for_first_does_not_join_a_common_read_from_behind() -> None:
    """A take-over's ``first`` read of a table already in a common read gets a read of its
    own ahead of the queue; the next plain read goes back to the common queue."""
    reads = Reads()
    batches: Batches[str, str] = Batches(reads, join_running=True)

    async def scenario() -> None:
        common = asyncio.create_task(batches.ask("t"))
        await asyncio.sleep(0.005)  # the common read is running
        assert await batches.ask("t", first=True) == "T"
        await common
        assert await batches.ask("u") == "U"

    asyncio.run(scenario())
    assert reads.batches == [(["t"], False), (["t"], True), (["u"], False)]


def test_a_cancelled_read_cancels_its_askers_and_the_next_ask_reads_again() -> None:
    reads = Reads()
    batches: Batches[str, str] = Batches(reads, join_running=False)

    async def scenario() -> None:
        asker = asyncio.create_task(batches.ask("k"))
        await asyncio.sleep(0.005)
        assert batches._reading is not None
        batches._reading.cancel()  # the server stopping
        with pytest.raises(asyncio.CancelledError):
            await asker
        assert await batches.ask("k") == "K"

    asyncio.run(scenario())
