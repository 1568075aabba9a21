"""The bus interface: publish a JSON message on a channel, subscribe to a channel.

Messages are JSON-able dicts. A subscriber sees every message published on
its channel after it subscribed, in the order published by one publisher.
The tables code publishes; the WebSocket handlers subscribe.

The bus is trusted like the database, and only servers read it: a table's
message carries the event as stored (so another server folds it without a
query), and a stored event holds what only one seat may see, such as a Slide
seat's pick before the reveal. What a client is sent is computed per client
from its seat's view, never forwarded from the bus. A Redis bus shared by
servers on different machines is reached over TLS with a password
(``rediss://``, docs/server.md), or on a private network like the database.
"""

from __future__ import annotations

from typing import Any, Protocol


class Subscription(Protocol):
    """Messages arriving on one channel, until closed."""

    async def get(self) -> dict[str, Any]:
        """The next message (waits for one)."""
        ...

    async def close(self) -> None:
        """Stop receiving; further ``get`` calls wait forever."""
        ...


class Bus(Protocol):
    """Fan-out of messages by channel name."""

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every current subscriber of ``channel``."""
        ...

    def post(self, channel: str, message: dict[str, Any]) -> None:
        """:meth:`publish` without waiting for it to go out, for news whose loss costs
        nothing lasting (who is watching): in order with the other messages published
        here, a failure logged."""
        ...

    async def subscribe(self, channel: str) -> Subscription:
        """A new subscription to ``channel``, receiving from now on."""
        ...

    async def ping(self) -> None:
        """Return once the bus answers; raise if it cannot be reached."""
        ...

    async def close(self) -> None:
        """Release connections; the bus is unusable afterwards."""
        ...
