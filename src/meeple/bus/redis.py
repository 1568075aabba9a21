"""The Redis bus: pub/sub channels shared by several servers.

One process holds one Redis pub/sub connection, whatever the number of its
clients: a channel is subscribed on it once, when its first local subscriber
comes, and dropped when its last one goes; a reader task hands each message to
the local subscribers' queues (the in-process bus). A WebSocket client thus
costs no Redis connection (one per client ran the pool dry at about a hundred
clients per server). Publishing is batched the same way: what the process's
tables publish while a batch is on its way goes together in the next one (one
pipeline, one write), in the order published; each publisher still waits for
Redis to take its message, except a message posted (:meth:`RedisBus.post`).
Messages are JSON text. Redis pub/sub keeps nothing,
which is fine: the store is the truth, and a client that misses a message
catches up by version from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import redis.asyncio as aioredis

from meeple import jsontext
from meeple.bus.memory import InProcessBus, MemorySubscription
from meeple.tasks import cancel_and_wait

CHANNEL_PREFIX = "meeple:"
SUBSCRIBE_WAIT_S = 5.0
POOL_SIZE = 64
"""Connections for commands (publish, leases): a command waits for a free one, never fails for
lack of one (a bounded pool that refused failed actions under load)."""
log = logging.getLogger(__name__)


class RedisSubscription:
    """A local subscriber of a channel of the process's shared pub/sub connection."""

    def __init__(self, bus: RedisBus, local: MemorySubscription) -> None:
        self._bus = bus
        self._local = local
        self.channel = local.channel
        self._closed = False

    async def get(self) -> dict[str, Any]:
        """The next message published on the channel."""
        return await self._local.get()

    async def close(self) -> None:
        """Stop receiving; the channel is unsubscribed once nobody here listens to it."""
        if self._closed:
            return
        self._closed = True
        await self._local.close()
        self._bus._release(self.channel)


class RedisBus:
    """Fan-out through Redis pub/sub, for servers sharing tables."""

    def __init__(self, url: str) -> None:
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=30)
        self._redis = aioredis.Redis(connection_pool=pool)
        self._local = InProcessBus()
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._listeners: dict[str, int] = {}
        self._confirmed: dict[str, asyncio.Event] = {}
        self._commands: list[tuple[str, str]] = []
        """SUBSCRIBE and UNSUBSCRIBE to send, in order: (kind, channel)."""
        self._commander: asyncio.Task[None] | None = None
        self._outbox: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None

    @property
    def redis(self) -> aioredis.Redis:
        """The client (a connection pool) for other uses of the same Redis: leases, presence."""
        return self._redis

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Publish ``message`` as JSON on ``channel``; returns once Redis has taken it."""
        await self._queue(channel, message)

    def post(self, channel: str, message: dict[str, Any]) -> None:
        """Publish ``message`` in its turn without waiting for Redis to take it (a socket
        opening waited most of a second for its presence news, in a dead server's players'
        rush); a failure is logged."""
        self._queue(channel, message).add_done_callback(_log_failure)

    def _queue(self, channel: str, message: dict[str, Any]) -> asyncio.Future[None]:
        taken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.append((CHANNEL_PREFIX + channel, jsontext.encode(message), taken))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send())
        return taken

    async def _send(self) -> None:
        """Send the outbox in batches, one pipeline each, until it is empty."""
        while self._outbox:
            batch, self._outbox = self._outbox, []
            pipeline = self._redis.pipeline(transaction=False)
            for name, data, _taken in batch:
                pipeline.publish(name, data)
            failure: BaseException | None = None
            try:
                await pipeline.execute()
            except asyncio.CancelledError:  # the bus is closing: no publisher waits forever
                _settle(batch + self._outbox, ConnectionError("the bus is closed"))
                raise
            except Exception as exc:  # every publisher of the batch sees the failure
                failure = exc
            _settle(batch, failure)

    async def subscribe(self, channel: str) -> RedisSubscription:
        """A subscriber of ``channel``, receiving every message published once this returns."""
        local = await self._local.subscribe(channel)
        count = self._listeners.get(channel, 0)
        self._listeners[channel] = count + 1
        if count == 0:
            self._confirmed[channel] = asyncio.Event()
            self._command("subscribe", channel)
        confirmed = self._confirmed[channel]
        if confirmed.is_set():  # subscribed here already: no turn of the loop to wait for
            return RedisSubscription(self, local)
        try:
            # Redis confirms the subscription in order on the connection: after it, nothing is
            # missed.
            await asyncio.wait_for(confirmed.wait(), SUBSCRIBE_WAIT_S)
        except BaseException:
            await local.close()
            self._release(channel)
            raise
        return RedisSubscription(self, local)

    def _release(self, channel: str) -> None:
        count = self._listeners.get(channel, 0) - 1
        if count > 0:
            self._listeners[channel] = count
            return
        self._listeners.pop(channel, None)
        self._confirmed.pop(channel, None)
        self._command("unsubscribe", channel)

    def _command(self, kind: str, channel: str) -> None:
        """Queue a SUBSCRIBE or UNSUBSCRIBE of ``channel`` for the commander task.

        Sockets opening together (a dead server's players all reconnecting here) share
        one command per run of the same kind, sent in the order asked by one task, so no
        socket waits for an event-loop turn per channel asked for before its own.
        """
        self._commands.append((kind, channel))
        if self._commander is None or self._commander.done():
            self._commander = asyncio.get_running_loop().create_task(self._send_commands())

    async def _send_commands(self) -> None:
        while self._commands:
            queued, self._commands = self._commands, []
            if self._pubsub is None:
                self._pubsub = self._redis.pubsub()
            for kind, channels in _runs(queued):
                try:
                    command = getattr(self._pubsub, kind)
                    await command(*(CHANNEL_PREFIX + channel for channel in channels))
                except asyncio.CancelledError:
                    raise
                except Exception:  # a subscriber times out waiting for its confirmation
                    log.exception("%s of %d channels failed", kind, len(channels))
            if self._reader is None:
                self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        """Hand every message of the shared connection to the local subscribers of its channel."""
        while True:
            try:
                message = await self._pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the Redis bus lost its connection; reconnecting")
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            name = message.get("channel")
            full = name.decode() if isinstance(name, bytes) else str(name)
            channel = full[len(CHANNEL_PREFIX) :]
            if message["type"] == "subscribe":
                event = self._confirmed.get(channel)
                if event is not None:
                    event.set()
            elif message["type"] == "message":
                await self._local.publish(channel, jsontext.decode(message["data"]))

    async def ping(self) -> None:
        """Fail if Redis does not answer (checked at start-up and by ``/api/ready``)."""
        await self._redis.ping()

    async def close(self) -> None:
        """Stop the reader and the sender, close the pub/sub connection and the pool."""
        await cancel_and_wait(self._sender)
        _settle(self._outbox, ConnectionError("the bus is closed"))  # a sender never started
        self._outbox = []
        await cancel_and_wait(self._commander, self._reader)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        await self._local.close()
        await self._redis.aclose()


def _runs(queued: list[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """Consecutive commands of the same kind, each run as one command of many channels."""
    runs: list[tuple[str, list[str]]] = []
    for kind, channel in queued:
        if runs and runs[-1][0] == kind:
            runs[-1][1].append(channel)
        else:
            runs.append((kind, [channel]))
    return runs


def _log_failure(taken: asyncio.Future[None]) -> None:
    """A message posted without a waiting publisher did not go out: say so."""
    if not taken.cancelled() and taken.exception() is not None:
        log.warning("posting on the bus failed: %s", taken.exception())


def _settle(
    batch: list[tuple[str, bytes, asyncio.Future[None]]], failure: BaseException | None
) -> None:
    """Tell each publisher of ``batch`` that Redis took its message, or why not."""
    for _name, _data, taken in batch:
        if taken.done():  # its publisher stopped waiting
            continue
        if failure is None:
            taken.set_result(None)
        else:
            taken.set_exception(failure)
