"""Rate limits that hold under concurrency and across servers, on the `limits` library.

Each kind of request has one moving-window limit (from the settings, in the
library's notation: ``"10/minute"``, ``"20 per hour"``). A hit is checked and
counted in one atomic step: in memory for one server, in Redis when
``MEEPLE_REDIS`` is set, so every server counts against the same window.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from meeple.errors import TableError

KINDS = {
    "login": "log-in attempts",
    "register": "sign-up attempts",
    "guest": "guest accounts from this address",
    "chat": "chat messages",
    "tables": "new tables",
    "analysis": "positions analysed from this address",
    "puzzle_answers": "puzzle answers",
}
"""Each limited kind of request, and how a refusal names it."""


def parse_limit(text: str) -> RateLimitItem:
    """A limit from its text (``"10/minute"``); ``ValueError`` if it cannot be read."""
    item = parse(text)
    if item.amount < 1:
        raise ValueError("a limit allows at least one request")
    return item


class RateLimited(TableError):
    """Too many requests of one kind: a refusal saying how long to wait (HTTP 429)."""

    def __init__(self, kind: str, wait: float) -> None:
        self.retry_after = max(1, math.ceil(wait))
        super().__init__(
            "rate_limited",
            f"too many {KINDS[kind]}; try again in {self.retry_after} s",
            params={"seconds": self.retry_after},
        )


class RateLimits:
    """The server's limits, one per kind, with their shared storage."""

    def __init__(self, limits: dict[str, str], redis_url: str | None = None) -> None:
        unknown = set(limits) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown rate limit kinds: {sorted(unknown)}")
        self.items = {kind: parse_limit(text) for kind, text in limits.items()}
        self.storage: Storage
        if redis_url:
            self.storage = RedisStorage(
                "async+" + redis_url, implementation="redispy", key_prefix="meeple-limits"
            )
        else:
            self.storage = MemoryStorage()
        self.limiter = MovingWindowRateLimiter(self.storage)

    async def hit(self, kind: str, key: str) -> None:
        """Count one ``kind`` request from ``key``; :class:`RateLimited` if over the limit."""
        item = self.items.get(kind)
        if item is None:
            return
        if await self.limiter.hit(item, kind, key):
            return
        stats = await self.limiter.get_window_stats(item, kind, key)
        raise RateLimited(kind, stats.reset_time - time.time())

    async def reset(self) -> None:
        """Forget every count (for tests and operators)."""
        await self.storage.reset()
