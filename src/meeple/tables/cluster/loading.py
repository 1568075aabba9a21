"""Loading stored tables into memory, many at once.

A table not in memory is read from the store (its row and its whole event log)
and folded. :class:`TableLoader` reads every table asked for meanwhile in one
batch (:func:`meeple.store.queries.tables_with_events`): a server taking over
hundreds of tables at once makes one query for them, not two per table, so the
last of them does not wait behind every other's round trip through the
database threads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from meeple.batching import Batches
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import GameTable

T = TypeVar("T")

Stored = tuple[GameTable, list[queries.EventRow]]


class TableLoader(Generic[T]):
    """Batched loads: each table id is read once, with every other id asked for meanwhile."""

    def __init__(
        self,
        db: Database,
        build: Callable[[GameTable, list[queries.EventRow]], T],
        missing: Callable[[str], Exception],
    ) -> None:
        self.db = db
        self.build = build
        """Makes the loaded thing from a table's row and events (called on the event loop)."""
        self.missing = missing
        """The error for an id with no stored table."""
        self.batches: Batches[str, Stored] = Batches(self._read, join_running=True)

    async def load(self, table_id: str, first: bool = False) -> T:
        """What ``build`` made of the stored table ``table_id``; ``missing(id)`` if none.

        ``first``: its batch is read by :meth:`Database.run_first`, ahead of the common
        queue (a table being taken over).
        """
        stored = await self.batches.ask(table_id, first)
        if stored is None:
            raise self.missing(table_id)
        return self.build(*stored)

    async def _read(self, table_ids: list[str], first: bool) -> Mapping[str, Stored]:
        run = self.db.run_first if first else self.db.run
        return await run(queries.tables_with_events, table_ids)
