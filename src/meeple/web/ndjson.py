"""NDJSON streams: one JSON object a line over a long HTTP response, for programs.

A stream is fed by a *producer* coroutine that puts lines into a bounded queue
(:class:`LineStream`) while the response sends them. When the queue has held
nothing for ``keepalive_s`` a blank line goes out, so a client tells a quiet
stream from a dead one. A client that stops reading stops the sending (the
server's socket buffer fills), the queue fills behind it, and the stream is
dropped: the producer is cancelled, the queue let go and the response ended,
so a stalled client holds no more than ``buffer`` lines in memory and then
nothing. :class:`StreamCounts` counts open streams per key (a token, an
account) to cap them and to show they are all gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from meeple.jsontext import dumps

log = logging.getLogger(__name__)

MEDIA_TYPE = "application/x-ndjson"
KEEPALIVE = b"\n"

GZIP_LEVEL = 6
GZIP_WBITS = 16 + 12
"""zlib's window bits: a gzip header and trailer (16) and a 4 KB window, which finds the
repeats of a list of actions as well as the largest window within about a tenth."""
GZIP_MEMLEVEL = 5
"""With the 4 KB window, about 32 KB of compressor per open stream instead of zlib's
default 256 KB: a server holds hundreds of idle bot streams."""

_END = object()
"""Put in the queue by :meth:`LineStream.end`: the stream is over."""


class StreamDropped(Exception):
    """The client fell ``buffer`` lines behind and its stream was dropped."""


class LineStream:
    """The queue between a stream's producer and its response: at most ``buffer`` lines."""

    def __init__(self, buffer: int) -> None:
        self._queue: asyncio.Queue[object] = asyncio.Queue(maxsize=buffer)
        self.dropped = asyncio.Event()

    def put(self, line: Mapping[str, Any] | str) -> None:
        """Queue one line (a JSON object, or its text); a full queue drops the stream.

        Never waits, so a producer reading the bus is never held by a slow
        client; raises :class:`StreamDropped` once the stream is dropped, which
        ends the producer.
        """
        if self.dropped.is_set():
            raise StreamDropped
        text = line if isinstance(line, str) else dumps(line)
        try:
            self._queue.put_nowait(text.encode() + b"\n")
        except asyncio.QueueFull:
            self.drop()
            raise StreamDropped from None

    def drop(self) -> None:
        """Drop the stream: the lines waiting are let go and the response ends."""
        self.dropped.set()
        while not self._queue.empty():
            self._queue.get_nowait()

    def end(self) -> None:
        """End the stream once the lines already queued are sent."""
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(_END)
            return
        self.drop()

    async def next_chunk(self, keepalive_s: float) -> bytes | None:
        """The next line's bytes, a keep-alive after ``keepalive_s`` of quiet, None at the end."""
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for may swallow a
            # cancellation that comes as the queue hands over a line.
            async with asyncio.timeout(keepalive_s):
                item = await self._queue.get()
        except TimeoutError:
            return KEEPALIVE
        if item is _END:
            return None
        assert isinstance(item, bytes)
        return item


class StreamCounts:
    """Open streams per key, in this process, to cap them and to count them."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def open(self, key: str, cap: int) -> bool:
        """Count one more stream for ``key`` unless ``cap`` are open already (then False)."""
        if self._open.get(key, 0) >= cap:
            return False
        self._open[key] = self._open.get(key, 0) + 1
        return True

    def close(self, key: str) -> None:
        """Count one stream of ``key`` fewer."""
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)

    def total(self) -> int:
        """Every stream open in this process."""
        return sum(self._open.values())


Producer = Callable[[LineStream], Awaitable[None]]


class NdjsonResponse(Response):
    """A streaming response whose lines ``producer`` puts into a :class:`LineStream`.

    The producer runs beside the sending; when it returns the stream ends after
    its last line; when it raises :class:`StreamDropped`, or the client goes,
    or the client stops reading until the queue is full, the response ends at
    once. ``on_close`` runs exactly once at the end, whichever way it came.
    """

    media_type = MEDIA_TYPE

    def __init__(
        self,
        producer: Producer,
        *,
        buffer: int,
        keepalive_s: float,
        on_close: Callable[[], Awaitable[None] | None] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        # Not Response.__init__: a response without a body would say content-length 0.
        self.status_code = 200
        self.background = None
        self.init_headers({"cache-control": "no-store", **(headers or {})})
        self.producer = producer
        self.buffer = buffer
        self.keepalive_s = keepalive_s
        self.on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Send the lines until the stream ends, is dropped or the client leaves."""
        stream = LineStream(self.buffer)
        tasks: list[asyncio.Task[Any]] = []
        try:
            producing = asyncio.create_task(self._produce(stream))
            sending = asyncio.create_task(self._send_lines(stream, send, takes_gzip(scope)))
            leaving = asyncio.create_task(_client_gone(receive))
            dropped = asyncio.create_task(stream.dropped.wait())
            tasks = [producing, sending, leaving, dropped]
            await asyncio.wait([sending, leaving, dropped], return_when=asyncio.FIRST_COMPLETED)
        finally:
            await _cancel(tasks)
            stream.drop()
            if self.on_close is not None:
                done = self.on_close()
                if done is not None:
                    await done

    async def _produce(self, stream: LineStream) -> None:
        try:
            await self.producer(stream)
        except StreamDropped:
            return
        except Exception:
            log.exception("a stream's producer failed")
            stream.drop()
            return
        stream.end()

    async def _send_lines(self, stream: LineStream, send: Send, gzip: bool) -> None:
        headers = list(self.raw_headers)
        headers.append((b"vary", b"accept-encoding"))
        packer = None
        if gzip:
            headers.append((b"content-encoding", b"gzip"))
            packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, GZIP_WBITS, GZIP_MEMLEVEL)
        await send({"type": "http.response.start", "status": self.status_code, "headers": headers})
        while True:
            chunk = await stream.next_chunk(self.keepalive_s)
            if chunk is None:
                break
            if packer is not None:
                # A sync flush per line: the client reads each line as soon as it is sent.
                chunk = packer.compress(chunk) + packer.flush(zlib.Z_SYNC_FLUSH)
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        last = b"" if packer is None else packer.flush()
        await send({"type": "http.response.body", "body": last, "more_body": False})


def takes_gzip(scope: Scope) -> bool:
    """Whether the request's ``Accept-Encoding`` takes gzip (and does not refuse it, q=0)."""
    for name, value in scope.get("headers", ()):
        if name != b"accept-encoding":
            continue
        for coding in value.decode("latin-1").lower().split(","):
            token, _, params = coding.strip().partition(";")
            refused = params.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000")
            if token.strip() == "gzip" and not refused:
                return True
    return False


async def _cancel(tasks: list[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait until each has ended, cancelling again any that held on
    (one that swallowed a cancellation would otherwise keep its stream alive)."""
    pending = set(tasks)
    while pending:
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=1.0)
        if pending:
            log.warning("a stream's task outlived its cancellation; cancelling it again")
    for task in tasks:
        if not task.cancelled() and task.exception() is not None:
            log.warning("a stream's task failed: %r", task.exception())


async def _client_gone(receive: Receive) -> None:
    """Returns when the client disconnects."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
