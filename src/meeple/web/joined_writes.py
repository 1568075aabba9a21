"""uvicorn's WebSocket protocol, with what one turn of the event loop writes to a connection
written at once.

An action is answered to its player twice, by the ``ack`` and by the ``event``
(docs/protocol.md): two frames, and with uvloop one ``send`` system call each, as
uvloop writes at once when it can. The system calls were about a tenth of the server's
CPU at 500 tables. The frames a connection is given in one turn of the loop are kept
and written together, in order, at the end of that turn (``call_soon``): no frame waits
for another turn, and the socket sends the table's event and its ack in one call
(:meth:`meeple.web.sockets.TableConnection.handle` sends both in one turn).
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from meeple.slimqueue import SlimEvent, SlimQueue


class JoinedWrites:
    """A transport that keeps the bytes written in one turn of the loop and writes them once,
    at the end of the turn; everything else goes to the transport it wraps."""

    __slots__ = ("_chunks", "_loop", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._chunks: list[bytes] = []

    def write(self, data: bytes) -> None:
        """Keep ``data`` to write at the end of this turn of the loop."""
        if not self._chunks:
            self._loop.call_soon(self.flush)
        self._chunks.append(data)

    def flush(self) -> None:
        """Write what was kept, in one call (nothing once the transport is closing)."""
        chunks, self._chunks = self._chunks, []
        if chunks and not self._transport.is_closing():
            self._transport.write(chunks[0] if len(chunks) == 1 else b"".join(chunks))

    def close(self) -> None:
        """Write what was kept (a close frame among it), then close."""
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class JoinedWritesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol writing through :class:`JoinedWrites`, and
    small while idle: its queue and event keep no deque (:mod:`meeple.slimqueue`), and the
    handshake's request and response (their headers) go once it is answered."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = SlimQueue()  # type: ignore[assignment]
        self.writable = SlimEvent()  # type: ignore[assignment]
        self.writable.set()

    async def send(self, message: Any) -> None:
        """uvicorn's send; after the handshake's answer, its request and response go (the
        ASGI scope keeps the request's headers)."""
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            self.request = self.response = None  # type: ignore[assignment]

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Take the connection, its writes joined per turn of the loop."""
        joined = JoinedWrites(cast(asyncio.Transport, transport), asyncio.get_running_loop())
        super().connection_made(joined)  # type: ignore[arg-type]
