"""Whether sign-in sessions are still open, for many sockets at once.

Every table socket checks its session again every few seconds, so a socket
opened before signing out stops acting for the user. A thousand sockets made
two hundred store queries a second of that alone; :class:`SessionChecks`
answers the questions that arrive while one query runs with the next single
query (as group commit does for writes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from meeple.store.database import Database
from meeple.store.sessions import open_sessions


class SessionChecks:
    """Batched answers to "is this session still open?"."""

    def __init__(self, db: Database, now: Callable[[], float]) -> None:
        self.db, self.now = db, now
        self._waiting: dict[str, list[asyncio.Future[bool]]] = {}
        self._asking: asyncio.Task[None] | None = None
        self.queries = 0
        """How many store queries the checks took (tests and benches)."""

    async def still_open(self, token_hash: str) -> bool:
        """Whether the session with this token hash is open and not expired."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bool] = loop.create_future()
        self._waiting.setdefault(token_hash, []).append(answer)
        if self._asking is None:
            self._asking = loop.create_task(self._ask())
        return await answer

    async def _ask(self) -> None:
        try:
            while self._waiting:
                asked, self._waiting = self._waiting, {}
                self.queries += 1
                try:
                    found = await self.db.run(open_sessions, list(asked), self.now())
                except Exception as exc:
                    for answers in asked.values():
                        for answer in answers:
                            if not answer.done():
                                answer.set_exception(exc)
                    continue
                for token_hash, answers in asked.items():
                    for answer in answers:
                        if not answer.done():
                            answer.set_result(token_hash in found)
        finally:
            self._asking = None
