"""The event bus: table and lobby events to every connected client, on one server or several.

:func:`make_bus` picks the in-process bus, or Redis pub/sub when a Redis URL is set.
"""

from __future__ import annotations

from meeple.bus.base import Bus, Subscription
from meeple.bus.memory import InProcessBus


def make_bus(redis_url: str | None) -> Bus:
    """The Redis bus for ``redis_url``, else the in-process bus."""
    if redis_url:
        from meeple.bus.redis import RedisBus

        return RedisBus(redis_url)
    return InProcessBus()


__all__ = ["Bus", "InProcessBus", "Subscription", "make_bus"]
