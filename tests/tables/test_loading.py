"""Loading stored tables together: one batch for every table asked for meanwhile."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from meeple.store import queries
from meeple.tables.cluster.loading import TableLoader


class FakeStore:
    """Answers ``tables_with_events`` from a dict, counting the batches and what they held."""

    def __init__(self, stored: dict[str, Any]) -> None:
        self.stored = stored
        self.batches: list[list[str]] = []
        self.read_first: list[list[str]] = []
        """The batches read by ``run_first``, ahead of the common queue."""
        self.broken = False

    async def run_first(self, query: Any, table_ids: list[str]) -> Any:
        self.read_first.append(sorted(table_ids))
        return await self.run(query, table_ids)

    async def run(self, query: Any, table_ids: list[str]) -> Any:
        assert query is queries.tables_with_events
        self.batches.append(sorted(table_ids))
        await asyncio.sleep(0.01)
        if self.broken:
            raise OSError("the store went away")
        return {t: (t, [f"{t} event"]) for t in table_ids if t in self.stored}


def loader_of(store: FakeStore) -> TableLoader[str]:
    return TableLoader(store, lambda row, events: f"{row} with {events}", KeyError)  # type: ignore[arg-type]


def test_tables_asked_for_together_are_read_in_one_batch_and_each_once() -> None:
    store = FakeStore({f"t{n}": True for n in range(500)})
    loader = loader_of(store)

    async def scenario() -> list[str]:
        asks = [loader.load(f"t{n % 500}") for n in range(1000)]  # two players per table
        return await asyncio.gather(*asks)

    loaded = asyncio.run(scenario())
    assert loaded == [f"t{n % 500} with ['t{n % 500} event']" for n in range(1000)]
    assert store.batches == [sorted(f"t{n}" for n in range(500))]


def test_a_missing_table_fails_only_its_askers_and_a_failed_read_only_its_batch() -> None:
    store = FakeStore({"here": True})
    loader = loader_of(store)

    async def scenario() -> None:
        here, gone = await asyncio.gather(
            loader.load("here"), loader.load("gone"), return_exceptions=True
        )
        assert here == "here with ['here event']" and isinstance(gone, KeyError)
        store.broken = True
        with pytest.raises(OSError):
            await loader.load("here")
        store.broken = False
        assert await loader.load("here") == "here with ['here event']"  # asked again

    asyncio.run(scenario())
    assert len(store.batches) == 3


def test_tables_asked_for_while_a_batch_is_read_go_in_the_next_one() -> None:
    store = FakeStore({f"t{n}": True for n in range(6)})
    loader = loader_of(store)

    async def scenario() -> None:
        first = asyncio.gather(*(loader.load(f"t{n}") for n in range(3)))
        await asyncio.sleep(0.005)  # the first batch is being read
        second = asyncio.gather(*(loader.load(f"t{n}") for n in range(1, 6)))
        await asyncio.gather(first, second)

    asyncio.run(scenario())
    assert store.batches == [["t0", "t1", "t2"], ["t3", "t4", "t5"]]


def test_a_batch_holding_a_table_asked_for_first_is_read_ahead_of_the_common_queue() -> None:
    """A table being taken over is read by ``run_first``, and the tables asked for with it
    ride along; the next batch goes back to the common queue."""
    store = FakeStore({f"t{n}": True for n in range(4)})
    loader = loader_of(store)

    async def scenario() -> None:
        await asyncio.gather(loader.load("t0"), loader.load("t1", first=True))
        await loader.load("t2")
        await loader.load("t3", first=True)

    asyncio.run(scenario())
    assert store.batches == [["t0", "t1"], ["t2"], ["t3"]]
    assert store.read_first == [["t0", "t1"], ["t3"]]
