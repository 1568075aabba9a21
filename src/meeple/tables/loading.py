"""Loading stored tables into memory, many at once.

A table not in memory is read from the store (its row and its whole event log)
and folded. One at a time, that was two queries per table, each a round trip
through the database threads: a server taking over five hundred tables its
players had followed to a server that then died (so it had no copy of them)
spent seconds in that queue before the first of them moved again, and its
thousand reconnecting sockets queued behind it. :class:`TableLoader` reads every
table asked for meanwhile in one batch (:func:`meeple.store.queries.tables_with_events`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import GameTable, TableEvent

T = TypeVar("T")


class TableLoader(Generic[T]):
    """Batched loads: each table id is read once, with every other id asked for meanwhile."""

    def __init__(
        self,
        db: Database,
        build: Callable[[GameTable, list[TableEvent]], T],
        missing: Callable[[str], Exception],
    ) -> None:
        self.db = db
        self.build = build
        """Makes the loaded thing from a table's row and events (called on the event loop)."""
        self.missing = missing
        """The error for an id with no stored table."""
        self._asked: dict[str, asyncio.Future[T]] = {}
        """Ids waiting for the next batch (or in the batch being read), and their answers."""
        self._next: list[str] = []
        self._reading: asyncio.Task[None] | None = None

    async def load(self, table_id: str) -> T:
        """What ``build`` made of the stored table ``table_id``; ``missing(id)`` if none."""
        answer = self._asked.get(table_id)
        if answer is None:
            answer = asyncio.get_running_loop().create_future()
            self._asked[table_id] = answer
            self._next.append(table_id)
            if self._reading is None:
                self._reading = asyncio.create_task(self._read())
        # Shielded: one asker giving up must not cancel the load for the others.
        return await asyncio.shield(answer)

    async def _read(self) -> None:
        try:
            while self._next:
                batch, self._next = self._next, []
                try:
                    found = await self.db.run(queries.tables_with_events, batch)
                except Exception as exc:
                    for table_id in batch:
                        _fail(self._asked.pop(table_id), exc)
                    continue
                for n, table_id in enumerate(batch):
                    answer = self._asked.pop(table_id)
                    stored = found.get(table_id)
                    try:
                        if stored is None:
                            raise self.missing(table_id)
                        value = self.build(*stored)
                    except Exception as exc:
                        _fail(answer, exc)
                    else:
                        if not answer.done():
                            answer.set_result(value)
                    if n % 20 == 19:
                        await asyncio.sleep(0)  # folding hundreds of logs: let the loop breathe
        finally:
            self._reading = None


def _fail(answer: asyncio.Future[T], error: Exception) -> None:
    if not answer.done():
        answer.set_exception(error)
        answer.exception()  # retrieved: every asker may have given up
