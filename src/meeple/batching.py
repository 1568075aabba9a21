"""Reads that many tasks ask for at once, done together.

When a server dies, its thousand players reconnect to another one at once, and
each socket opening asks the store something about its own session or table;
one query each would queue for seconds in the database threads. :class:`Batches`
reads every key asked for while a batch is being read in the next batch (or,
where an answer a little older will do, takes the running read's answer): one
query for all of them, and each key once however many ask for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

ReadMany = Callable[[list[K], bool], Awaitable[Mapping[K, V]]]
"""Reads the answers of some keys (and whether one was asked for ``first``); a key with no
answer is left out."""


class Batches(Generic[K, V]):
    """Shared, batched answers: the keys asked for meanwhile go in the next read, together."""

    def __init__(self, read: ReadMany[K, V], join_running: bool) -> None:
        """``join_running``: a key asked for while a read holding it runs takes that read's
        answer; otherwise the answer is read after the asking (it must not be older)."""
        self.read = read
        self.join_running = join_running
        self._next: dict[K, asyncio.Future[V | None]] = {}
        self._next_first = False
        self._running: dict[K, asyncio.Future[V | None]] = {}
        self._running_first = False
        self._reading: asyncio.Task[None] | None = None
        self.reads = 0
        """How many reads were made (tests and benches)."""

    async def ask(self, key: K, first: bool = False) -> V | None:
        """The answer for ``key`` (``None`` if the read had none); raises what the read raised.

        ``first``: the batch holding it is read ahead of the common queue (the read
        function decides how).
        """
        answer = self._next.get(key)
        if answer is None and self.join_running and (self._running_first or not first):
            answer = self._running.get(key)  # (a read ``first`` is not joined from behind)
        if answer is None:
            answer = self._next.setdefault(key, asyncio.get_running_loop().create_future())
        if key in self._next:
            self._next_first = self._next_first or first
        if self._reading is None:
            self._reading = asyncio.create_task(self._read_all())
        # Shielded: one asker giving up must not cancel the read for the others.
        return await asyncio.shield(answer)

    async def _read_all(self) -> None:
        try:
            while self._next:
                self._running, self._next = self._next, {}
                self._running_first, self._next_first = self._next_first, False
                self.reads += 1
                try:
                    found = await self.read(list(self._running), self._running_first)
                except Exception as exc:
                    _fail(self._running.values(), exc)
                    continue
                for key, answer in self._running.items():
                    if not answer.done():
                        answer.set_result(found.get(key))
        except BaseException as exc:  # cancelled (the server stopping): nobody waits forever
            _fail([*self._running.values(), *self._next.values()], exc)
            self._next = {}
            raise
        finally:
            self._running, self._running_first = {}, False
            self._reading = None


def _fail(answers: Iterable[asyncio.Future[V | None]], exc: BaseException) -> None:
    """Give every asker still waiting the read's error (a cancellation cancels them)."""
    for answer in answers:
        if answer.done():
            continue
        if isinstance(exc, asyncio.CancelledError):
            answer.cancel()
        else:
            answer.set_exception(exc)
            answer.exception()  # retrieved: every asker may have given up
