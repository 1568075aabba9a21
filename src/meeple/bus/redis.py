"""The Redis bus: pub/sub channels shared by several servers.

Each subscription has its own pub/sub connection; messages are JSON text.
Redis pub/sub does not keep messages, which is fine: the store is the truth,
and a client that misses a message catches up by version from the store.
"""

from __future__ import annotations

import json
from typing import Any

import redis.asyncio as aioredis

CHANNEL_PREFIX = "meeple:"


class RedisSubscription:
    """One channel of a Redis pub/sub connection."""

    def __init__(self, pubsub: Any, channel: str) -> None:
        self._pubsub = pubsub
        self.channel = channel

    async def get(self) -> dict[str, Any]:
        """The next message published on the channel."""
        while True:
            message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
            if message is not None and message.get("type") == "message":
                data: dict[str, Any] = json.loads(message["data"])
                return data

    async def close(self) -> None:
        """Unsubscribe and release the connection."""
        await self._pubsub.unsubscribe()
        await self._pubsub.aclose()


class RedisBus:
    """Fan-out through Redis pub/sub, for servers sharing tables."""

    def __init__(self, url: str) -> None:
        self._redis = aioredis.Redis.from_url(url)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Publish ``message`` as JSON on ``channel``."""
        await self._redis.publish(CHANNEL_PREFIX + channel, json.dumps(message))

    async def subscribe(self, channel: str) -> RedisSubscription:
        """A new pub/sub connection subscribed to ``channel`` (ready when this returns)."""
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(CHANNEL_PREFIX + channel)
        return RedisSubscription(pubsub, channel)

    async def ping(self) -> None:
        """Fail if Redis does not answer (checked at start-up)."""
        await self._redis.ping()

    async def close(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()
