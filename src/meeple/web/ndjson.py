"""NDJSON streams: one JSON object a line over a long HTTP response, for programs.

A stream is fed by a *producer* coroutine that puts lines into a bounded queue
(:class:`LineStream`) while the response sends them. When the queue has held
nothing for ``keepalive_s`` a blank line goes out, so a client tells a quiet
stream from a dead one. A client that stops reading stops the sending (the
server's socket buffer fills), the queue fills behind it, and the stream is
dropped: the producer is cancelled, the queue let go and the response ended,
so a stalled client holds no more than ``buffer`` lines in memory and then
nothing. Whoever holds the :class:`LineStream` may also end it from outside
(:meth:`LineStream.end`: a revoked token, :mod:`meeple.web.revocations`).

A line is a :class:`Line`, which makes its bytes, plain and deflated, once: the same
line put into a hundred streams (a table's event for all the streams of a seat) is
encoded and compressed once for all of them.
"""

from __future__ import annotations

import asyncio
import logging
import struct
import zlib
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from meeple.jsontext import dumps

log = logging.getLogger(__name__)

MEDIA_TYPE = "application/x-ndjson"

GZIP_LEVEL = 6
GZIP_WBITS = 12
"""zlib's window bits: a 4 KB window, which finds the repeats of a list of actions as well
as the largest window within about a tenth."""
GZIP_MEMLEVEL = 5
"""With the 4 KB window, about 32 KB of compressor while a line is compressed (zlib's
default takes 256 KB)."""
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
"""A gzip member's header: deflate, no name, no time, no flags, unknown system."""


def _deflate(chunk: bytes, mode: int) -> bytes:
    """``chunk`` as raw deflate blocks of its own, ending on a byte boundary."""
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -GZIP_WBITS, GZIP_MEMLEVEL)
    return packer.compress(chunk) + packer.flush(mode)


class Line:
    """One line of a stream, written once: its JSON text, and its bytes plain and deflated
    (:class:`GzipLines`), each made on first use and kept for every stream it goes to."""

    __slots__ = ("_deflated", "_raw", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._raw: bytes | None = None
        self._deflated: bytes | None = None

    @property
    def raw(self) -> bytes:
        """The line as sent plain: its text in UTF-8 and a newline."""
        if self._raw is None:
            self._raw = self.text.encode() + b"\n"
        return self._raw

    @property
    def deflated(self) -> bytes:
        """:attr:`raw` as deflate blocks of its own (a piece of any gzip stream)."""
        if self._deflated is None:
            self._deflated = _deflate(self.raw, zlib.Z_SYNC_FLUSH)
        return self._deflated


KEEPALIVE_LINE = Line("")
"""A blank line: the stream is alive (its bytes made once for every stream)."""


class GzipLines:
    """One gzip member sent line by line, each readable as soon as it arrives, with no
    compressor kept between lines.

    Each line is deflated by a compressor of its own, ended by a sync flush (non-final
    blocks ending on a byte boundary, as pigz joins the pieces it deflates in parallel):
    the pieces follow one another as one valid deflate stream, under one header and one
    trailer (the CRC-32 and length of everything). So a line's deflated bytes are the same
    in every stream (:attr:`Line.deflated`: compressed once for all of them), and a stream
    waiting for its next line holds two numbers rather than a 32 KB compressor: idle bot
    streams are the many. What is lost is the repeats across lines.
    """

    def __init__(self) -> None:
        self.crc = 0
        self.size = 0
        self.started = False

    def pack(self, lines: list[Line]) -> bytes:
        """The bytes that carry ``lines`` (the header first, on the first call)."""
        for line in lines:
            self.crc = zlib.crc32(line.raw, self.crc)
            self.size += len(line.raw)
        return self._head() + b"".join(line.deflated for line in lines)

    def finish(self) -> bytes:
        """The last bytes: an empty final block and the trailer."""
        trailer = struct.pack("<II", self.crc, self.size & 0xFFFFFFFF)
        return self._head() + _deflate(b"", zlib.Z_FINISH) + trailer

    def _head(self) -> bytes:
        if self.started:
            return b""
        self.started = True
        return GZIP_HEADER


class StreamDropped(Exception):
    """The client fell ``buffer`` lines behind and its stream was dropped."""


class LineStream:
    """The lines between a stream's producer and its response: at most ``buffer`` waiting.

    A plain deque and, while the response waits for a line, one future: a stream
    costs little while it idles (an ``asyncio.Queue`` holds three deques and an event).
    """

    def __init__(self, buffer: int) -> None:
        self.buffer = buffer
        self._lines: deque[Line] = deque()
        self._ended = False
        self._waiter: asyncio.Future[None] | None = None
        self.gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        """Done once the stream is dropped."""

    @property
    def dropped(self) -> bool:
        """Whether the stream was dropped."""
        return self.gone.done()

    def put(self, line: Line | Mapping[str, Any] | str) -> None:
        """Queue one line (a :class:`Line`, a JSON object, or its text); a full queue drops
        the stream.

        Never waits, so a producer reading the bus is never held by a slow
        client; raises :class:`StreamDropped` once the stream is dropped, which
        ends the producer. A line put after :meth:`end` is not sent.
        """
        if self.dropped:
            raise StreamDropped
        if self._ended:
            return
        if len(self._lines) >= self.buffer:
            self.drop()
            raise StreamDropped
        if not isinstance(line, Line):
            line = Line(line if isinstance(line, str) else dumps(line))
        self._lines.append(line)
        self._wake()

    def drop(self) -> None:
        """Drop the stream: the lines waiting are let go and the response ends."""
        if not self.gone.done():
            self.gone.set_result(None)
        self._lines.clear()
        self._wake()

    def end(self) -> None:
        """End the stream once the lines already queued are sent."""
        self._ended = True
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def next_chunk(self, keepalive_s: float) -> list[Line] | None:
        """Every line waiting; the keep-alive after ``keepalive_s`` of quiet; ``None`` at the
        end. :class:`StreamDropped` once dropped."""
        if not (self._lines or self._ended or self.dropped):
            loop = asyncio.get_running_loop()
            self._waiter = waiter = loop.create_future()
            timer = loop.call_later(keepalive_s, _resolve, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiter = None
        if self.dropped:
            raise StreamDropped
        if self._lines:
            lines = list(self._lines)
            self._lines.clear()
            return lines
        return None if self._ended else [KEEPALIVE_LINE]


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


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
        stream: LineStream,
        keepalive_s: float,
        on_close: Callable[[], Awaitable[None] | None] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        # Not Response.__init__: a response without a body would say content-length 0.
        self.status_code = 200
        self.background = None
        self.init_headers({"cache-control": "no-store", **(headers or {})})
        self.producer = producer
        self.stream = stream
        self.keepalive_s = keepalive_s
        self.on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Send the lines until the stream ends, is dropped or the client leaves."""
        stream = self.stream
        tasks: list[asyncio.Task[Any]] = []
        try:
            producing = asyncio.create_task(self._produce(stream))
            sending = asyncio.create_task(self._send_lines(stream, send, takes_gzip(scope)))
            leaving = asyncio.create_task(_client_gone(receive))
            tasks = [producing, sending, leaving]
            await asyncio.wait([sending, leaving, stream.gone], return_when=asyncio.FIRST_COMPLETED)
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
            packer = GzipLines()
        await send({"type": "http.response.start", "status": self.status_code, "headers": headers})
        while True:
            try:
                lines = await stream.next_chunk(self.keepalive_s)
            except StreamDropped:
                return  # nothing more to a client that stopped reading
            if lines is None:
                break
            if packer is None:
                chunk = lines[0].raw if len(lines) == 1 else b"".join(line.raw for line in lines)
            else:
                chunk = packer.pack(lines)
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        last = b"" if packer is None else packer.finish()
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
