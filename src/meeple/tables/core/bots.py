"""Bots in seats: ``bot.choose`` runs in a worker pool so no table waits on another's bot.

Each worker process (or thread) keeps the bots it made last (at most
:data:`BOT_CACHE_SIZE`, keyed by ``(game, level, seed)``); a bot's choices follow
from its seed, seat and view alone, so one made again chooses as the one
forgotten would have. The pool only ever hands a bot the view of its own seat.

Requests wait in a fair queue in front of the workers (:class:`BotPool`): real-time
tables before turn-based ones, and tables taking turns, so thirty bots of one
table cannot hold back another table's one. A bot's budget counts from when a
worker takes it, not from the request. A bot that cannot get a worker in time,
or overruns its budget badly, plays its seat's greedy move instead, computed
in the server (cheap): never an arbitrary first legal action.

Background work (reviews of finished games) never takes a bot's worker: it runs
one piece at a time in a worker of its own at a low OS priority
(:data:`BACKGROUND_NICE`), so live tables get the CPU first.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ddsketch import LogCollapsingLowestDenseDDSketch

from meeple.bots import get_bot
from meeple.games.base import JSON
from meeple.games.kit.bots import Bot
from meeple.plugins import load_games

BOT_CACHE_SIZE = 1024
"""How many bots one process keeps made; the least recently used is forgotten first."""


@functools.lru_cache(maxsize=BOT_CACHE_SIZE)
def made_bot(game: str, level: str, seed: int) -> Bot:
    """The bot of ``(game, level, seed)`` in this process: made on first use, then reused
    while it is among the :data:`BOT_CACHE_SIZE` used last."""
    return get_bot(game, level, seed)


def choose_in_worker(
    game: str, level: str, seed: int, view: Mapping[str, JSON], seat: int, budget_s: float
) -> JSON:
    """Make (or reuse) the bot in this worker and let it choose an action."""
    return made_bot(game, level, seed).choose(view, seat, budget_s)


def watch_server(server_pid: int) -> None:
    """In a worker: exit as soon as the server process is gone (even if it was SIGKILLed)."""

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


def start_worker(server_pid: int, game_modules: tuple[str, ...]) -> None:
    """In a new worker: watch the server, and load the games that are not built in."""
    watch_server(server_pid)
    load_games(game_modules)


def start_background_worker(server_pid: int, game_modules: tuple[str, ...]) -> None:
    """In the background worker: as :func:`start_worker`, at a lower OS priority."""
    start_worker(server_pid, game_modules)
    with contextlib.suppress(OSError):
        os.nice(BACKGROUND_NICE)


BACKGROUND = 2
"""The queue class of work that waits for every bot (after real-time 0 and turn-based 1)."""

BACKGROUND_NICE = 10
"""How much lower the background worker's OS priority is than the server's (``nice``)."""


def bot_seed(table_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat``: fixed by the table's seed, different per seat."""
    return (table_seed * 1_000_003 + seat * 7919) % (2**63)


WAIT_ACCURACY = 0.01
"""The relative error of a reported queue-wait quantile (1%)."""

WAIT_BINS = 1024
"""The most bins the queue waits are counted in: the sketch never grows past them."""


def wait_sketch() -> LogCollapsingLowestDenseDDSketch:
    """An empty sketch of queue waits: quantiles within :data:`WAIT_ACCURACY`, at most
    :data:`WAIT_BINS` bins (past them the shortest waits share one, which no reported
    quantile reads)."""
    return LogCollapsingLowestDenseDDSketch(WAIT_ACCURACY, bin_limit=WAIT_BINS)


@dataclass
class BotStats:
    """What the pool has done since it started: requests, how long they queued for a
    worker (a fixed-size sketch, however many there were), how many fell back to greedy."""

    requests: int = 0
    background: int = 0
    waits: LogCollapsingLowestDenseDDSketch = field(default_factory=wait_sketch)
    longest_wait: float = 0.0
    fallbacks: Counter[str] = field(default_factory=Counter)

    def waited(self, seconds: float) -> None:
        """Count one request that waited ``seconds`` for a worker."""
        self.waits.add(max(0.0, seconds))
        self.longest_wait = max(self.longest_wait, seconds)

    def to_json(self) -> dict[str, JSON]:
        """Counts and queue-wait quantiles (seconds) for the benches."""

        def quantile(q: float) -> float:
            value = self.waits.get_quantile_value(q)
            return round(min(value, self.longest_wait), 4) if value is not None else 0.0

        return {
            "requests": self.requests,
            "background": self.background,
            "queue_wait_p50": quantile(0.5),
            "queue_wait_p95": quantile(0.95),
            "queue_wait_max": round(self.longest_wait, 4),
            "fallbacks": dict(self.fallbacks),
        }


class BotPool:
    """The worker pool bots think in (processes by default, threads if asked), with its queue."""

    def __init__(
        self, workers: int, kind: str = "process", game_modules: Sequence[str] = ()
    ) -> None:
        self._executor: Executor
        self.workers = workers
        if kind == "process":
            # Spawned, not forked: workers must not inherit the listening socket (a
            # crashed server could not be restarted on its port while they held it)
            # nor the server's threads; and they stop once the server is gone.
            spawn = multiprocessing.get_context("spawn")
            initargs = (os.getpid(), tuple(game_modules))
            self._executor = ProcessPoolExecutor(
                workers, spawn, initializer=start_worker, initargs=initargs
            )
            # Started on first use: a server that reviews nothing never has it.
            self._background: Executor = ProcessPoolExecutor(
                1, spawn, initializer=start_background_worker, initargs=initargs
            )
        else:
            self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
            self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="background")
        self._busy = 0
        self._queue: list[tuple[int, int, int, asyncio.Future[None]]] = []
        self._queued_by_table: Counter[str] = Counter()
        self._tickets = itertools.count()
        self.stats = BotStats()

    @property
    def queued(self) -> int:
        """Requests waiting for a worker now."""
        return len(self._queue)

    async def _slot(self, table: str, realtime: bool, rank: int | None = None) -> None:
        """Wait for a free worker: real-time first, then the table with fewest queued, then FIFO.

        ``rank`` overrides the class (0 real-time, 1 turn-based; background work is 2,
        served only when no bot waits).
        """
        if self._busy < self.workers and not self._queue:
            self._busy += 1
            return
        turn = asyncio.get_running_loop().create_future()
        order = (0 if realtime else 1) if rank is None else rank
        entry = (order, self._queued_by_table[table], next(self._tickets), turn)
        self._queued_by_table[table] += 1
        heapq.heappush(self._queue, entry)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the slot was handed over just as we gave up
            elif entry in self._queue:  # not yet passed over by a release
                self._queue.remove(entry)
                heapq.heapify(self._queue)
            raise
        finally:
            self._queued_by_table[table] -= 1
            if self._queued_by_table[table] <= 0:
                del self._queued_by_table[table]

    def _release(self) -> None:
        """A worker is free: hand it to the next request in the queue."""
        while self._queue:
            *_, turn = heapq.heappop(self._queue)
            if not turn.done():
                turn.set_result(None)
                return
        self._busy -= 1

    async def choose(
        self,
        game: str,
        level: str,
        seed: int,
        view: Mapping[str, JSON],
        seat: int,
        budget_s: float,
        *,
        table: str = "",
        realtime: bool = True,
        fallback: Any = None,
    ) -> Any:
        """The action the bot chooses for ``seat`` from its ``view``.

        ``fallback(reason)`` gives the seat's greedy move: it is played when no worker
        is free within ``max(1 s, 2 x budget)`` or the bot takes more than four times its
        budget and a second from when a worker took it.
        """
        self.stats.requests += 1
        asked = time.monotonic()
        patience = max(1.0, 2 * budget_s)
        try:
            await asyncio.wait_for(self._slot(table, realtime), patience)
        except TimeoutError:
            self.stats.waited(time.monotonic() - asked)
            if fallback is None:
                raise
            self.stats.fallbacks["queue"] += 1
            return await fallback("queue")
        self.stats.waited(time.monotonic() - asked)
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(
            self._executor, choose_in_worker, game, level, seed, view, seat, budget_s
        )
        work.add_done_callback(lambda _done: self._release())
        try:
            return await asyncio.wait_for(asyncio.shield(work), 4 * budget_s + 1)
        except TimeoutError:
            if fallback is None:
                raise
            self.stats.fallbacks["overrun"] += 1
            return await fallback("overrun")

    async def background(self, work: Any, *args: Any) -> Any:
        """Run ``work(*args)`` in the background worker, after the pieces asked before it.

        For pieces of background work (a few actions of a game's review): they run
        one at a time at a low OS priority and never hold a bot's worker.
        """
        self.stats.background += 1
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._background, work, *args)

    async def run(self, work: Any, *args: Any, rank: int = BACKGROUND) -> Any:
        """Run ``work(*args)`` in a worker when its turn comes in the queue (``rank``: 0
        with real-time bots, 1 with turn-based ones, 2 in the background)."""
        await self._slot("", False, rank=rank)
        loop = asyncio.get_running_loop()
        running = loop.run_in_executor(self._executor, work, *args)
        running.add_done_callback(lambda _done: self._release())
        return await asyncio.shield(running)

    async def run_until(self, seconds: float, work: Any, *args: Any, rank: int = BACKGROUND) -> Any:
        """Run ``work(*args, left)`` in a worker, giving up ``seconds`` from now (queue included).

        ``left`` is the time still left when a worker takes the work: the work must
        stop by itself within it (the caller gives up then, ``TimeoutError``), so
        the worker is free again when the caller stops waiting, not when the work
        would have ended. No worker is taken if the time runs out in the queue.
        """
        loop = asyncio.get_running_loop()
        give_up = loop.time() + seconds
        await asyncio.wait_for(self._slot("", False, rank=rank), seconds)
        left = give_up - loop.time()
        running = loop.run_in_executor(self._executor, work, *args, left)
        running.add_done_callback(lambda _done: self._release())
        return await asyncio.wait_for(asyncio.shield(running), left)

    def close(self) -> None:
        """Stop the workers (waiting for bots still thinking)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._background.shutdown(wait=True, cancel_futures=True)
