"""What one turn of the event loop writes to a WebSocket goes out in one write, in order."""

from __future__ import annotations

import asyncio
from typing import Any

from server_harness import LiveServer, brain, run_async

from meeple.web.joined_writes import JoinedWrites, JoinedWritesProtocol


class FakeTransport:
    """A transport recording each write it is given."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("10.0.0.1", 5)}.get(name, default)


def test_the_writes_of_one_turn_go_out_once_in_order_and_the_next_turns_after() -> None:
    async def scenario() -> list[bytes]:
        transport = FakeTransport()
        joined = JoinedWrites(transport, asyncio.get_running_loop())  # type: ignore[arg-type]
        joined.write(b"event")
        joined.write(b"ack")
        assert transport.writes == []  # nothing yet: the turn is not over
        await asyncio.sleep(0)
        joined.write(b"next")
        await asyncio.sleep(0)
        return transport.writes

    assert run_async(scenario()) == [b"eventack", b"next"]


def test_closing_writes_what_was_kept_first_and_nothing_goes_to_a_closed_transport() -> None:
    async def scenario() -> FakeTransport:
        transport = FakeTransport()
        joined = JoinedWrites(transport, asyncio.get_running_loop())  # type: ignore[arg-type]
        joined.write(b"close frame")
        joined.close()
        joined.write(b"late")
        await asyncio.sleep(0)
        return transport

    transport = run_async(scenario())
    assert transport.writes == [b"close frame"] and transport.closed


def test_everything_else_is_the_wrapped_transports() -> None:
    async def scenario() -> Any:
        joined = JoinedWrites(FakeTransport(), asyncio.get_running_loop())  # type: ignore[arg-type]
        return joined.get_extra_info("peername")

    assert run_async(scenario()) == ("10.0.0.1", 5)


class CountingTransport:
    """Passes writes on to a transport, keeping a copy of each."""

    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)
        self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


def test_an_actions_event_and_ack_reach_the_player_in_one_write(server: LiveServer) -> None:
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
    alice.post(f"/api/tables/{table_id}/start")
    sock = alice.connect(table_id)
    sock.recv()
    [protocol] = [
        p for p in server.server.server_state.connections if isinstance(p, JoinedWritesProtocol)
    ]
    joined = protocol.transport
    assert isinstance(joined, JoinedWrites)
    counting = CountingTransport(joined._transport)
    joined._transport = counting  # type: ignore[assignment]
    sock.send({"type": "action", "id": "a1", "action": brain("slide", 1)(sock.view, 0)})
    sock.recv_until(lambda m: m.get("id") == "a1")
    both = [w for w in counting.writes if b'"type":"ack"' in w and b'"type":"event"' in w]
    assert len(both) == 1
    assert both[0].index(b'"type":"event"') < both[0].index(b'"type":"ack"')
