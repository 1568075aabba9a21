"""The server's event loop: uvloop, accepting waiting connections in batches.

libuv (under uvloop) accepts one connection per turn of the event loop (since
libuv 1.45, libuv/libuv#3696). On a server at a full core a turn runs hundreds
of callbacks and lasts tens of milliseconds, so it took in 25 to 60 new
connections a second: when a server died and its thousand players reconnected
to the survivor, they queued in the kernel's listen backlog for up to 20 s
(measured with ``ss``: the queue grew to 900 and drained at 60 a second),
while every socket opening, once accepted, took under a second. asyncio's own
loop accepts up to a backlog's worth per turn, but runs the steady play at
half uvloop's speed (p99 117 ms against 57-70 ms at 500 tables on one server).

:class:`BatchAcceptLoop` keeps uvloop and adds, beside libuv's listener, a
reader on a duplicate of each listening socket that accepts every connection
waiting (up to the backlog) and hands each to the loop as libuv would. Both
take from the same kernel queue; whichever finds it empty stops there.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from typing import Any

import uvloop

log = logging.getLogger(__name__)


class BatchAcceptLoop(uvloop.Loop):
    """uvloop, with servers that accept many waiting connections per turn."""

    async def create_server(  # type: ignore[override]
        self, protocol_factory: Callable[[], asyncio.BaseProtocol], *args: Any, **kwargs: Any
    ) -> BatchAcceptingServer:
        """uvloop's server, plus a batch accepter on each of its listening sockets."""
        server = await super().create_server(protocol_factory, *args, **kwargs)
        batch = kwargs.get("backlog") or 100
        return BatchAcceptingServer(self, server, protocol_factory, batch, kwargs.get("ssl"))


class BatchAcceptingServer:
    """A started server with batch accepters; closing it stops them too (else it delegates)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        server: asyncio.AbstractServer,
        protocol_factory: Callable[[], asyncio.BaseProtocol],
        batch: int,
        ssl: Any,
    ) -> None:
        self._loop, self._server = loop, server
        self._protocol_factory, self._batch, self._ssl = protocol_factory, batch, ssl
        self._opening: set[asyncio.Task[Any]] = set()
        self._listeners: list[socket.socket] = []
        for listening in getattr(server, "sockets", None) or ():
            duplicate = socket.socket(fileno=os.dup(listening.fileno()))
            duplicate.setblocking(False)
            loop.add_reader(duplicate.fileno(), self._accept_waiting, duplicate)
            self._listeners.append(duplicate)

    def _accept_waiting(self, listening: socket.socket) -> None:
        for _ in range(self._batch):
            try:
                connection, _address = listening.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as exc:  # out of file descriptors, say: libuv's listener goes on
                log.warning("accepting a connection failed: %s", exc)
                return
            connection.setblocking(False)
            opening = self._loop.create_task(
                self._loop.connect_accepted_socket(
                    self._protocol_factory, connection, ssl=self._ssl
                )
            )
            self._opening.add(opening)
            opening.add_done_callback(self._opened)

    def _opened(self, opening: asyncio.Task[Any]) -> None:
        self._opening.discard(opening)
        if not opening.cancelled() and opening.exception() is not None:
            log.debug("a connection closed while opening: %r", opening.exception())

    def close(self) -> None:
        """Stop accepting (the batch accepters and uvloop's listener)."""
        for listening in self._listeners:
            self._loop.remove_reader(listening.fileno())
            listening.close()
        self._listeners = []
        self._server.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._server, name)


def new_event_loop() -> asyncio.AbstractEventLoop:
    """The loop uvicorn runs the server on (its ``loop`` setting names this function)."""
    return BatchAcceptLoop()
