"""Whether sign-in sessions are still open, for many sockets at once.

Every table socket checks its session again every few seconds, so a socket
opened before signing out stops acting for the user. :class:`SessionChecks`
answers from a verdict fresh enough for the asker, and otherwise with the next
single query, which also refreshes every verdict half that old: the sockets of
a server share about one query per ``max_age / 2`` whatever their number, where
a query per socket per check would grow with them.

A socket opening asks for its user with :meth:`SessionChecks.user_of`: always of
the store, but together with every socket opening meanwhile, so the thousand
players of a dead server reconnecting to this one cost a few queries, not a
thousand.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from meeple.batching import Batches
from meeple.store.database import Database
from meeple.store.models import User
from meeple.store.sessions import open_sessions, users_of_sessions

FORGET_AFTER_S = 60.0
"""A session nobody asked about for this long is no longer refreshed."""


class SessionChecks:
    """Shared, batched answers to "is this session still open?"."""

    def __init__(self, db: Database, now: Callable[[], float]) -> None:
        self.db, self.now = db, now
        self._verdicts: dict[str, tuple[bool, float]] = {}
        """Token hash: (open, when checked), on the monotonic clock, oldest check first."""
        self._asked_at: dict[str, float] = {}
        """Token hash: when last asked about, oldest first."""
        self._checks: Batches[str, bool] = Batches(self._check, join_running=False)
        self._refresh_older_than = math.inf
        """Half the smallest ``max_age`` asked for since the last check began: the next check
        also refreshes the verdicts older than that."""
        self._users: Batches[str, User] = Batches(self._look_up, join_running=False)
        self.queries = 0
        """How many store queries the checks took (tests and benches)."""

    async def still_open(self, token_hash: str, max_age: float = 0.0) -> bool:
        """Whether the session with this token hash is open and not expired, as the store
        said at most ``max_age`` seconds ago."""
        clock = time.monotonic()
        _put_last(self._asked_at, token_hash, clock)
        verdict = self._verdicts.get(token_hash)
        if verdict is not None and clock - verdict[1] <= max_age:
            return verdict[0]
        self._refresh_older_than = min(self._refresh_older_than, max_age / 2)
        return bool(await self._checks.ask(token_hash))

    async def user_of(self, token_hash: str) -> User | None:
        """The user of the session with this token hash if it is open now (asked of the store
        after this call, in one query with every other session asked about meanwhile)."""
        return await self._users.ask(token_hash)

    async def _look_up(self, token_hashes: list[str], _first: bool) -> dict[str, User]:
        clock = time.monotonic()
        self.queries += 1
        users = await self.db.run(users_of_sessions, sorted(token_hashes), self.now())
        for token_hash in token_hashes:
            _put_last(self._asked_at, token_hash, clock)
            _put_last(self._verdicts, token_hash, (token_hash in users, clock))
        return users

    def _also_refreshed(self, clock: float, older_than: float) -> set[str]:
        """The sessions asked about lately whose verdict is getting old (the others forgotten).

        Both dicts are kept oldest first, so this reads only the old entries, not every
        session of the server's thousands of sockets at each query.
        """
        while self._asked_at:
            token_hash, asked = next(iter(self._asked_at.items()))
            if clock - asked <= FORGET_AFTER_S:
                break
            del self._asked_at[token_hash]
            self._verdicts.pop(token_hash, None)
        old: set[str] = set()
        for token_hash, (_open, checked) in self._verdicts.items():
            if clock - checked <= older_than:
                break  # (a lookup and a check answered out of order only delay a refresh)
            old.add(token_hash)
        return old

    async def _check(self, asked: list[str], _first: bool) -> dict[str, bool]:
        clock = time.monotonic()
        older_than, self._refresh_older_than = self._refresh_older_than, math.inf
        tokens = set(asked) | self._also_refreshed(clock, older_than)
        self.queries += 1
        found = await self.db.run(open_sessions, sorted(tokens), self.now())
        for token_hash in tokens:
            _put_last(self._verdicts, token_hash, (token_hash in found, clock))
        return {token_hash: token_hash in found for token_hash in asked}


def _put_last(entries: dict[str, Any], key: str, value: Any) -> None:
    """Set ``entries[key]``, moving it to the end (the dict stays in time order)."""
    entries.pop(key, None)
    entries[key] = value
