"""Whether sign-in sessions are still open, for many sockets at once.

Every table socket checks its session again every few seconds, so a socket
opened before signing out stops acting for the user. A thousand sockets made
two hundred store queries a second of that alone. :class:`SessionChecks`
answers from a verdict fresh enough for the asker, and otherwise with the next
single query, which also refreshes every verdict half that old: the sockets of
a server share about one query per ``max_age / 2`` whatever their number (at
500 tables, the per-socket queries were 9% of the server's time).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from meeple.store.database import Database
from meeple.store.sessions import open_sessions

FORGET_AFTER_S = 60.0
"""A session nobody asked about for this long is no longer refreshed."""


class SessionChecks:
    """Shared, batched answers to "is this session still open?"."""

    def __init__(self, db: Database, now: Callable[[], float]) -> None:
        self.db, self.now = db, now
        self._verdicts: dict[str, tuple[bool, float]] = {}
        """Token hash: (open, when checked), on the monotonic clock."""
        self._asked_at: dict[str, float] = {}
        self._waiting: dict[str, list[asyncio.Future[bool]]] = {}
        self._refresh_older_than = 0.0
        self._asking: asyncio.Task[None] | None = None
        self.queries = 0
        """How many store queries the checks took (tests and benches)."""

    async def still_open(self, token_hash: str, max_age: float = 0.0) -> bool:
        """Whether the session with this token hash is open and not expired, as the store
        said at most ``max_age`` seconds ago."""
        clock = time.monotonic()
        self._asked_at[token_hash] = clock
        verdict = self._verdicts.get(token_hash)
        if verdict is not None and clock - verdict[1] <= max_age:
            return verdict[0]
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bool] = loop.create_future()
        if not self._waiting:
            self._refresh_older_than = max_age / 2
        else:
            self._refresh_older_than = min(self._refresh_older_than, max_age / 2)
        self._waiting.setdefault(token_hash, []).append(answer)
        if self._asking is None:
            self._asking = loop.create_task(self._ask())
        return await answer

    def _also_refreshed(self, clock: float) -> set[str]:
        """The sessions asked about lately whose verdict is getting old (the others forgotten)."""
        for token_hash, asked in list(self._asked_at.items()):
            if clock - asked > FORGET_AFTER_S:
                del self._asked_at[token_hash]
                self._verdicts.pop(token_hash, None)
        return {
            token_hash
            for token_hash, (_open, checked) in self._verdicts.items()
            if clock - checked > self._refresh_older_than
        }

    async def _ask(self) -> None:
        try:
            while self._waiting:
                asked, self._waiting = self._waiting, {}
                clock = time.monotonic()
                tokens = set(asked) | self._also_refreshed(clock)
                self.queries += 1
                try:
                    found = await self.db.run(open_sessions, sorted(tokens), self.now())
                except Exception as exc:
                    for answers in asked.values():
                        for answer in answers:
                            if not answer.done():
                                answer.set_exception(exc)
                    continue
                for token_hash in tokens:
                    self._verdicts[token_hash] = (token_hash in found, clock)
                for token_hash, answers in asked.items():
                    for answer in answers:
                        if not answer.done():
                            answer.set_result(token_hash in found)
        finally:
            self._asking = None
