"""What a server needs when another one dies and its players all reconnect here at once.

Two steps stand between a reconnecting player and its table; each is kept cheap here, and
neither changes what a client sees.

**Accepting the connection** (:class:`BatchAcceptLoop`, the loop ``meeple serve`` runs on).
libuv, under uvloop, accepts one connection per turn of the event loop (since libuv 1.45,
libuv/libuv#3696), and a busy server's turn lasts tens of milliseconds: a thousand players
would queue for many seconds in the kernel's listen backlog, though each, once accepted,
is served in well under one. This loop is uvloop plus, on a duplicate of each listening
socket, a reader that accepts every waiting connection (up to the backlog) per turn and
hands each to the loop as libuv would. Both take from the same kernel queue; whichever
finds it empty stops. (asyncio's own loop accepts a backlog per turn too, but plays the
steady game at about half uvloop's speed.) Shown by
``tests/web/test_reconnect_rush.py::test_a_burst_of_connections_is_accepted_in_a_few_turns_of_the_loop``,
which plain uvloop fails.

**Routing the socket** (:func:`table_socket_route`). The table socket is a plain Starlette
route, registered before any of the app's own routes (only FastAPI's documentation pages
come first, and they refuse a socket by its type at once): the router reaches it without
trying the others' paths, and no FastAPI parameter solving runs, which in the rush cost
more than the socket's own work. It reads its query itself: ``since`` a whole number or
absent (anything else is refused at the handshake, as FastAPI did), ``invite`` any text.
Shown by
``test_the_table_socket_is_the_first_route_and_a_plain_one`` (same file) and, for the
query, ``tests/web/test_hardening.py::
test_a_table_socket_with_a_since_that_is_not_a_version_is_refused``.

The measurements behind both are in docs/benchmarks.md (failover).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

from meeple.web.sockets import POLICY_VIOLATION, table_socket

try:
    from uvloop import Loop as UvLoop
except ImportError:  # a platform without uvloop: `meeple serve` runs asyncio's loop there
    UvLoop = asyncio.SelectorEventLoop  # type: ignore[assignment,misc]

log = logging.getLogger(__name__)


class BatchAcceptLoop(UvLoop):
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


TABLE_SOCKET_PATH = "/ws/tables/{table_id}"
VERSION = re.compile(r"[+-]?[0-9]{1,30}")
"""What ``since`` may be: a whole number (of a size a version can have)."""


async def table_socket_route(websocket: WebSocket) -> None:
    """The table socket as a plain Starlette route, read its query and play or watch."""
    query = websocket.query_params
    since_text = query.get("since")
    if since_text is not None:
        since_text = since_text.strip()  # ("+1" in a query is " 1")
    if since_text is not None and not VERSION.fullmatch(since_text):
        await websocket.close(POLICY_VIOLATION, "since is a version: a whole number")
        return
    since = None if since_text is None else int(since_text)
    await table_socket(websocket, websocket.path_params["table_id"], since, query.get("invite"))
