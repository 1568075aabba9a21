"""Bots in seats: ``bot.choose`` runs in a worker pool so no table waits on another's bot.

Each worker process (or thread) keeps the bots it has made, keyed by
``(game, level, seed)``, so a bot keeps whatever it learns across a game.
The pool only ever hands a bot the view of its own seat.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from meeple.bots import Bot, get_bot
from meeple.games.base import JSON
from meeple.plugins import load_games

_BOTS: dict[tuple[str, str, int], Bot] = {}
_BOTS_LOCK = threading.Lock()


def choose_in_worker(
    game: str, level: str, seed: int, view: Mapping[str, JSON], seat: int, budget_s: float
) -> JSON:
    """Make (or reuse) the bot in this worker and let it choose an action."""
    key = (game, level, seed)
    with _BOTS_LOCK:
        bot = _BOTS.get(key)
        if bot is None:
            bot = _BOTS[key] = get_bot(game, level, seed)
    return bot.choose(view, seat, budget_s)


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


def bot_seed(table_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat``: fixed by the table's seed, different per seat."""
    return (table_seed * 1_000_003 + seat * 7919) % (2**63)


class BotPool:
    """The worker pool bots think in: processes by default, threads if asked."""

    def __init__(
        self, workers: int, kind: str = "process", game_modules: Sequence[str] = ()
    ) -> None:
        self._executor: Executor
        if kind == "process":
            # Spawned, not forked: workers must not inherit the listening socket (a
            # crashed server could not be restarted on its port while they held it)
            # nor the server's threads; and they stop once the server is gone.
            self._executor = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=start_worker,
                initargs=(os.getpid(), tuple(game_modules)),
            )
        else:
            self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")

    async def choose(
        self,
        game: str,
        level: str,
        seed: int,
        view: Mapping[str, JSON],
        seat: int,
        budget_s: float,
    ) -> Any:
        """The action the bot chooses for ``seat`` from its ``view``."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, choose_in_worker, game, level, seed, view, seat, budget_s
        )

    def close(self) -> None:
        """Stop the workers (waiting for bots still thinking)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
