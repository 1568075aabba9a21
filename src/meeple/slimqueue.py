"""An unbounded FIFO queue and an event for asyncio, small while idle.

Every open WebSocket waits on two queues (uvicorn's messages from the client, and the
table's bus subscription) and an event (whether the socket can be written to). An
``asyncio.Queue`` holds three ``collections.deque`` and an ``asyncio.Event`` (another),
and each empty deque is about 760 bytes: some 7 KiB per idle socket. These keep nothing
while empty: the items' deque is made when an item comes and dropped once it is taken,
and the waiters are a list, mostly empty.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class SlimQueue(Generic[T]):
    """An unbounded FIFO queue with ``asyncio.Queue``'s ``put_nowait``, ``get``,
    ``get_nowait``, ``empty`` and ``qsize`` (and its behaviour on cancellation)."""

    __slots__ = ("_getters", "_items")

    def __init__(self) -> None:
        self._items: deque[T] | None = None
        self._getters: list[asyncio.Future[None]] = []

    def qsize(self) -> int:
        """How many items wait."""
        return 0 if self._items is None else len(self._items)

    def empty(self) -> bool:
        """Whether no item waits."""
        return not self._items

    def put_nowait(self, item: T) -> None:
        """Add ``item`` (never waits: the queue is unbounded) and wake one getter."""
        if self._items is None:
            self._items = deque()
        self._items.append(item)
        self._wake_next()

    def get_nowait(self) -> T:
        """The first item; ``asyncio.QueueEmpty`` if there is none."""
        items = self._items
        if not items:
            raise asyncio.QueueEmpty
        item = items.popleft()
        if not items:
            self._items = None
        return item

    async def get(self) -> T:
        """The first item, once there is one."""
        while not self._items:
            getter = asyncio.get_running_loop().create_future()
            self._getters.append(getter)
            try:
                await getter
            except BaseException:
                getter.cancel()  # in case it is not done yet
                with contextlib.suppress(ValueError):
                    self._getters.remove(getter)
                if self._items and not getter.cancelled():
                    self._wake_next()  # it was woken for an item it will not take
                raise
        return self.get_nowait()

    def _wake_next(self) -> None:
        getters = self._getters
        while getters:
            getter = getters.pop(0)
            if not getter.done():
                getter.set_result(None)
                return


class SlimEvent:
    """``asyncio.Event``'s ``set``, ``clear``, ``is_set`` and ``wait``, with no deque."""

    __slots__ = ("_value", "_waiters")

    def __init__(self) -> None:
        self._value = False
        self._waiters: list[asyncio.Future[bool]] | None = None

    def is_set(self) -> bool:
        """Whether the event is set."""
        return self._value

    def set(self) -> None:
        """Set it, waking every waiter."""
        if self._value:
            return
        self._value = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(True)

    def clear(self) -> None:
        """Unset it: waiters wait until the next :meth:`set`."""
        self._value = False

    async def wait(self) -> bool:
        """Return once the event is set (at once if it is)."""
        if self._value:
            return True
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        waiters = self._waiters
        waiters.append(waiter)
        try:
            await waiter
            return True
        finally:
            if waiter in waiters:
                waiters.remove(waiter)
