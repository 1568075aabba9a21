"""What the bot pool keeps stays bounded however long the server runs: the bots a worker
has made, and the queue waits behind ``/api/health``'s quantiles."""

from __future__ import annotations

import asyncio
import gc
import pickle
import random
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import meeple.tables.core.bots as bots_module
from meeple.tables.core.bots import (
    BOT_CACHE_SIZE,
    WAIT_ACCURACY,
    BotPool,
    BotStats,
    choose_in_worker,
)


class CountedBot:
    """A bot that answers its seed, and whose makings the test counts."""

    made = 0

    def __init__(self, seed: int) -> None:
        CountedBot.made += 1
        self.seed = seed

    def choose(self, view: Any, seat: int, budget_s: float) -> Any:
        """Its seed, whatever the view."""
        return self.seed


@pytest.fixture
def counted_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[weakref.ref[CountedBot]]]:
    """Workers make :class:`CountedBot` s; the list holds a weak reference to each one made."""
    made: list[weakref.ref[CountedBot]] = []

    def make(game: str, level: str, seed: int) -> CountedBot:
        bot = CountedBot(seed)
        made.append(weakref.ref(bot))
        return bot

    monkeypatch.setattr(bots_module, "get_bot", make)
    CountedBot.made = 0
    forget = getattr(bots_module, "made_bot", None)
    if forget is not None:
        forget.cache_clear()
    yield made
    if forget is not None:
        forget.cache_clear()


def test_a_worker_keeps_at_most_a_fixed_number_of_bots(
    counted_bots: list[weakref.ref[CountedBot]],
) -> None:
    """A server that has seen many tables' bots keeps only the ones used last: the others
    are freed, and a bot used again while kept is not made again."""
    seeds = range(3 * BOT_CACHE_SIZE)
    for seed in seeds:
        assert choose_in_worker("slide", "random", seed, {}, 0, 1.0) == seed
        assert choose_in_worker("slide", "random", seed, {}, 0, 1.0) == seed  # reused
    gc.collect()
    alive = [ref for ref in counted_bots if ref() is not None]
    assert CountedBot.made == len(seeds)
    assert len(alive) <= BOT_CACHE_SIZE
    # the last one used is still kept; the first one is made again when asked for
    choose_in_worker("slide", "random", seeds[-1], {}, 0, 1.0)
    assert CountedBot.made == len(seeds)
    choose_in_worker("slide", "random", seeds[0], {}, 0, 1.0)
    assert CountedBot.made == len(seeds) + 1


def test_the_queue_wait_statistics_stay_the_same_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting ten times as many bot requests does not make the pool's statistics bigger."""
    monkeypatch.setattr(bots_module, "choose_in_worker", lambda *args: "done")

    async def ask(pool: BotPool, times: int) -> None:
        for start in range(0, times, 200):
            batch = range(start, min(times, start + 200))
            await asyncio.gather(
                *(pool.choose("slide", "random", 1, {}, 0, 1.0, table=str(n % 7)) for n in batch)
            )

    async def scenario() -> tuple[int, int, dict[str, Any]]:
        pool = BotPool(2, "thread")
        try:
            await ask(pool, 2_000)
            small = len(pickle.dumps(pool.stats))
            await ask(pool, 18_000)
            return small, len(pickle.dumps(pool.stats)), pool.stats.to_json()
        finally:
            pool.close()

    with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever runs in this thread
        small, large, stats = thread.submit(asyncio.run, scenario()).result()
    assert stats["requests"] == 20_000
    assert 0 <= stats["queue_wait_p50"] <= stats["queue_wait_p95"] <= stats["queue_wait_max"]
    assert large < 2 * small + 4_000, (small, large)


def test_the_queue_wait_quantiles_are_within_the_sketch_accuracy() -> None:
    """Quantiles from the fixed-size sketch are the exact ones within 1% (4 decimals shown),
    and the longest wait is exact."""
    rng = random.Random(28)
    waits = [rng.lognormvariate(-4, 1.5) for _ in range(50_000)]
    stats = BotStats()
    for wait in waits:
        stats.waited(wait)
    ordered = sorted(waits)
    shown = stats.to_json()
    for key, q in (("queue_wait_p50", 0.5), ("queue_wait_p95", 0.95)):
        exact = ordered[int(q * (len(ordered) - 1))]
        assert shown[key] == pytest.approx(exact, rel=2 * WAIT_ACCURACY, abs=1e-4), key
    assert shown["queue_wait_max"] == round(ordered[-1], 4)
    assert BotStats().to_json()["queue_wait_p50"] == 0.0
