"""Rate limits that hold under concurrency and across servers, on the `limits` library.

Each kind of request has one moving-window limit, or several that must all
allow it (from the settings, in the library's notation: ``"10/minute"``,
``"20 per hour"``, ``"60/minute;300/hour"``). A hit is checked and counted in
one atomic step per limit: in memory for one server, in Redis when
``MEEPLE_REDIS`` is set, so every server counts against the same window.
What counts per client address counts per :func:`address_key`: an IPv6 user
holds a whole /64 and would otherwise get a fresh count from each address in it.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import Counter

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from meeple.errors import Code, MustWait

KINDS = {
    "login": "log-in attempts",
    "register": "sign-up attempts",
    "guest": "guest accounts from this address",
    "chat": "chat messages",
    "tables": "new tables",
    "analysis": "positions analysed from this address",
    "puzzle_answers": "puzzle answers",
    "challenges": "challenges",
    "challenge_notifications": "challenge notifications to this account",
    "api": "Bot API requests",
    "emails": "emails of links (verification, password reset)",
    "reports": "reports",
    "blocks": "blocks",
}
"""Each limited kind of request, and how a refusal names it."""


SIGN_IN_HELPS = frozenset({"guest"})
"""Kinds whose refusal offers to sign in: an account needs no new guest."""


def parse_limit(text: str) -> list[RateLimitItem]:
    """The limits of a text (``"10/minute"``, ``"60/minute;300/hour"``), longest window first.

    ``ValueError`` if it cannot be read.
    """
    items = parse_many(text)
    if not items:
        raise ValueError("no limit given")
    if any(item.amount < 1 for item in items):
        raise ValueError("a limit allows at least one request")
    return sorted(items, key=lambda item: item.get_expiry(), reverse=True)


def address_key(host: str) -> str:
    """What limits count a client address as: an IPv4 address as it is, an IPv6 address by
    its /64 (one subscriber's prefix: a user rotating through it stays one count), an
    IPv4-mapped IPv6 address as its IPv4 one; anything else (no address) as given.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("203.0.113.7")
    ('2001:db8:1:2::/64', '203.0.113.7')
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv4Address):
        return str(address)
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))


def wait_text(seconds: int) -> str:
    """A wait in plain English: seconds under a minute, else whole minutes rounded up."""
    if seconds < 60:
        return f"{seconds} s"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"


class RateLimited(MustWait):
    """Too many requests of one kind: a refusal saying how long to wait (HTTP 429).

    ``reason`` is ``rate_limited_<kind>`` for a kind that signing in gets around
    (pages then offer the sign-in link), else ``rate_limited``; ``params``
    carry the wait in ``seconds`` for the pages to say in minutes.
    """

    def __init__(self, kind: str, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        self.kind = kind
        hint = ", or sign in" if kind in SIGN_IN_HELPS else ""
        code = Code.RATE_LIMITED
        super().__init__(
            code,
            code.sentence(what=KINDS[kind], wait=wait_text(seconds), hint=hint),
            retry_after=seconds,
            reason=f"{code}_{kind}" if kind in SIGN_IN_HELPS else None,
            params={"seconds": seconds},
        )


class RateLimits:
    """The server's limits, one or more per kind, with their shared storage."""

    def __init__(self, limits: dict[str, str], redis_url: str | None = None) -> None:
        unknown = set(limits) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown rate limit kinds: {sorted(unknown)}")
        self.items = {kind: parse_limit(text) for kind, text in limits.items()}
        """Each kind's limits, longest window first."""
        self.storage: Storage
        if redis_url:
            self.storage = RedisStorage(
                "async+" + redis_url, implementation="redispy", key_prefix="meeple-limits"
            )
        else:
            self.storage = MemoryStorage()
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.refused: Counter[str] = Counter()
        """Requests refused on this server, by kind (for /metrics)."""

    async def hit(self, kind: str, key: str) -> None:
        """Count one ``kind`` request from ``key``; :class:`RateLimited` if over a limit.

        The limits are hit longest window first, each atomically: a request the
        hour refuses costs no place in the minute; one the minute refuses has
        used a place in the hour (an abuser's refused burst still counts). No
        limit ever lets through more than its amount.
        """
        for item in self.items.get(kind, ()):
            if await self.limiter.hit(item, kind, key):
                continue
            self.refused[kind] += 1
            stats = await self.limiter.get_window_stats(item, kind, key)
            raise RateLimited(kind, stats.reset_time - time.time())

    async def reset(self) -> None:
        """Forget every count (for tests and operators)."""
        await self.storage.reset()
