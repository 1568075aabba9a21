"""The injected clock: tables read the time and wait through it, so tests control time.

:class:`SystemClock` is the real one. :class:`ManualClock` only moves when a
test calls :meth:`ManualClock.advance`, waking every timer whose time came.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Now, and waiting until a moment."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep_until(self, moment: float) -> None:
        """Return once ``now() >= moment``."""
        ...


class SystemClock:
    """The wall clock."""

    def now(self) -> float:
        """Seconds since the epoch, from the system."""
        return time.time()

    async def sleep_until(self, moment: float) -> None:
        """Sleep until ``moment`` by the wall clock."""
        delay = moment - time.time()
        if delay > 0:
            await asyncio.sleep(delay)


class ManualClock:
    """A clock that stands still until told to move; safe to advance from another thread."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._waiters: list[tuple[float, asyncio.Future[None], asyncio.AbstractEventLoop]] = []

    def now(self) -> float:
        """The current manual time."""
        return self._now

    async def sleep_until(self, moment: float) -> None:
        """Wait until :meth:`advance` has moved the time to ``moment`` or later."""
        if self._now >= moment:
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._waiters.append((moment, future, loop))
        try:
            await future
        finally:
            self._waiters = [w for w in self._waiters if w[1] is not future]

    def advance(self, seconds: float) -> None:
        """Move the time forward and wake every timer that is now due."""
        self._now += seconds
        for moment, future, loop in list(self._waiters):
            if moment <= self._now:
                loop.call_soon_threadsafe(_set_done, future)


def _set_done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
