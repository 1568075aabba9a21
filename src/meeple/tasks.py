"""Stopping the background tasks a service started."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any


async def cancel_and_wait(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel each task (``None`` is skipped), then wait until each has ended.

    How a task ends (cancelled, or an error it met on the way out) is dropped: a service
    stopping its own loops has nothing left to do with it."""
    await cancel_all_and_wait(tasks)


async def cancel_all_and_wait(tasks: Iterable[asyncio.Task[Any] | None]) -> None:
    """:func:`cancel_and_wait` for a collection of tasks (copied first: the tasks may
    remove themselves from it as they end)."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(BaseException):
            await task
