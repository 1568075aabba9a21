"""The in-process bus: one queue per subscriber, for a single server."""

from __future__ import annotations

from typing import Any

from meeple.slimqueue import SlimQueue


class MemorySubscription:
    """A subscriber's queue on an :class:`InProcessBus` channel."""

    def __init__(self, bus: InProcessBus, channel: str) -> None:
        self._bus = bus
        self.channel = channel
        # Not an asyncio.Queue: every table socket holds one, idle (see meeple.slimqueue).
        self.queue: SlimQueue[dict[str, Any]] = SlimQueue()

    async def get(self) -> dict[str, Any]:
        """The next message on the channel."""
        return await self.queue.get()

    async def close(self) -> None:
        """Leave the channel."""
        self._bus._channels.get(self.channel, set()).discard(self)


class InProcessBus:
    """Fan-out inside one process: publishing puts the message in every queue."""

    def __init__(self) -> None:
        self._channels: dict[str, set[MemorySubscription]] = {}

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for every subscriber of ``channel``."""
        self.post(channel, message)

    def post(self, channel: str, message: dict[str, Any]) -> None:
        """The same, from code that does not wait: queueing never waits here."""
        for subscription in list(self._channels.get(channel, ())):
            subscription.queue.put_nowait(message)

    async def subscribe(self, channel: str) -> MemorySubscription:
        """A new queue on ``channel``."""
        subscription = MemorySubscription(self, channel)
        self._channels.setdefault(channel, set()).add(subscription)
        return subscription

    async def ping(self) -> None:
        """Always answers: the bus is this process."""

    async def close(self) -> None:
        """Forget every subscriber."""
        self._channels.clear()
