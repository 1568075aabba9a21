"""The server's loop takes in every waiting connection at once, not one per turn."""

from __future__ import annotations

import asyncio
import socket

import pytest

uvloop = pytest.importorskip("uvloop")

from meeple.web.accepting import BatchAcceptLoop  # noqa: E402


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
