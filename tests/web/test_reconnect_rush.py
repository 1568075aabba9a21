"""A dead server's players reconnecting here at once: the loop takes in every waiting
connection per turn, and the table socket is the first route the app tries, a plain one."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
from fastapi.routing import APIWebSocketRoute
from starlette.routing import Match, Route, WebSocketRoute

from meeple.config import Settings
from meeple.web.app import create_app
from meeple.web.reconnect_rush import table_socket_route

uvloop = pytest.importorskip("uvloop")

from meeple.web.reconnect_rush import BatchAcceptLoop  # noqa: E402


def connections_made_in_a_few_turns(loop: asyncio.AbstractEventLoop, waiting: int) -> int:
    """Open ``waiting`` connections before the loop runs, run it ten turns, count the accepted."""
    made: list[asyncio.BaseTransport] = []

    class Counting(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            made.append(transport)

    async def listen() -> asyncio.AbstractServer:
        return await loop.create_server(Counting, "127.0.0.1", 0, backlog=512)

    server = loop.run_until_complete(listen())
    port = server.sockets[0].getsockname()[1]
    clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(waiting)]
    try:
        for _ in range(10):
            loop.run_until_complete(asyncio.sleep(0))
        return len(made)
    finally:
        server.close()
        for transport in made:
            transport.close()
        for client in clients:
            client.close()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()


def test_a_burst_of_connections_is_accepted_in_a_few_turns_of_the_loop() -> None:
    """A server at a full core turns its loop a few dozen times a second: plain uvloop took
    in one connection per turn, so a thousand reconnecting players waited many seconds."""
    assert connections_made_in_a_few_turns(BatchAcceptLoop(), 300) == 300
    assert connections_made_in_a_few_turns(uvloop.Loop(), 300) < 300  # why the class exists


def test_a_closed_server_accepts_nothing_more() -> None:
    loop = BatchAcceptLoop()

    async def listen() -> asyncio.AbstractServer:
        return await loop.create_server(asyncio.Protocol, "127.0.0.1", 0)

    server = loop.run_until_complete(listen())
    port = server.sockets[0].getsockname()[1]
    server.close()
    loop.run_until_complete(server.wait_closed())
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2)
    loop.close()


def test_the_table_socket_is_the_first_route_and_a_plain_one(tmp_path: Path) -> None:
    """The router tries the table socket before any route of the app's own (only FastAPI's
    documentation pages come first, and they refuse a socket by its type), and it is
    Starlette's plain route: no FastAPI parameter solving runs for it (``since`` and
    ``invite`` it reads itself; tests/web/test_hardening.py shows it refuses
    what FastAPI did)."""
    settings = Settings(data_dir=tmp_path, db=f"sqlite:///{tmp_path / 'm.db'}", secret_key="k" * 40)
    app = create_app(settings)
    scope = {"type": "websocket", "path": "/ws/tables/abc123", "root_path": "", "headers": []}
    matching = [route for route in app.router.routes if route.matches(scope)[0] is Match.FULL]
    assert matching, "no route takes the table socket"
    route = matching[0]
    before = app.router.routes[: app.router.routes.index(route)]
    docs = {app.openapi_url, app.docs_url, f"{app.docs_url}/oauth2-redirect", app.redoc_url}
    assert all(isinstance(r, Route) and r.path in docs for r in before), before
    assert isinstance(route, WebSocketRoute) and not isinstance(route, APIWebSocketRoute)
    assert route.endpoint is table_socket_route
