"""Many sockets on one table: presence news that grows with their number, caps per address and
per user."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, LiveServer, Socket, make_settings, running
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from meeple.web.presence import PRESENCE_INTERVAL_S

SETTLE_S = 3 * PRESENCE_INTERVAL_S
"""Long enough for the last presence news of a burst to reach every socket."""

TRY_AGAIN_LATER = 1013


def watchers_in(sockets: list[Socket]) -> int:
    """How many ``watchers`` messages these sockets received so far (draining what waits)."""
    for sock in sockets:
        sock.drain()
    return sum(1 for sock in sockets for m in sock.messages if m["type"] == "watchers")


def last_presence(sock: Socket) -> tuple[int, tuple[int, ...]]:
    """What ``sock`` was told last of the table's spectators and present seats."""
    for message in reversed(sock.messages):
        if message["type"] == "watchers":
            return message["spectators"], tuple(message["present"])
        if message["type"] == "hello":
            return message["table"]["spectators"], tuple(message["table"]["present"])
    raise AssertionError("no presence was told")


def test_sockets_on_one_table_cost_presence_messages_in_proportion_to_their_number(
    server: LiveServer,
) -> None:
    count = 60
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2)["table"]["id"]
    seated = alice.connect(table_id)
    seated.recv()
    sockets = [seated]
    watchers = server.client("watchers")  # anonymous: every socket of it is a spectator
    for _ in range(count - 1):
        sock = watchers.connect(table_id)
        sock.recv()
        sockets.append(sock)
    time.sleep(SETTLE_S)
    opened = watchers_in(sockets)
    # Told to every socket at each opening, they were N²/2 (1,770).
    assert opened < 4 * count, opened
    # Coalesced, the news still ends with the counts as they are.
    assert {last_presence(sock) for sock in sockets} == {(count - 1, (0,))}

    staying, leaving = sockets[: count // 2], sockets[count // 2 :]
    before = watchers_in(staying)
    for sock in leaving:
        sock.close()
    time.sleep(SETTLE_S)
    closed = watchers_in(staying) - before
    assert closed < 4 * count, closed
    assert {last_presence(sock) for sock in staying} == {(len(staying) - 1, (0,))}


def refusal(url: str, headers: dict[str, str] | None = None) -> tuple[dict[str, Any], int]:
    """Open a socket expected to be refused: the error it was sent, and its close code."""
    with connect(url, additional_headers=headers or {}, open_timeout=10) as ws:
        error = json.loads(ws.recv(timeout=10))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    return error, closed.value.rcvd.code


def open_until_free(client: Client, table_id: str, timeout: float = 10.0) -> Socket:
    """A socket opened once the server has counted a closed one out (its close is a message
    it reads in its turn)."""
    deadline = time.monotonic() + timeout
    while True:
        sock = client.connect(table_id)
        first = sock.recv()
        if first["type"] == "hello":
            return sock
        assert first["code"] == "too_many_sockets", first
        sock.close()
        assert time.monotonic() < deadline, "a closed socket's place was never freed"
        time.sleep(0.05)


def test_one_address_holds_at_most_its_cap_of_sockets_and_a_closed_one_frees_a_place(
    tmp_path: Path,
) -> None:
    with running(make_settings(tmp_path, max_sockets_per_address=3)) as server:
        alice = server.client("alice")
        alice.guest()
        table_id = alice.create_table(game="slide", seats=2)["table"]["id"]
        url = f"{server.ws_url}/ws/tables/{table_id}"
        sockets = [server.client(f"w{n}").connect(table_id) for n in range(3)]
        assert [sock.recv()["type"] for sock in sockets] == ["hello"] * 3
        error, code = refusal(url)
        assert (error["type"], error["code"], error["params"]) == (
            "error",
            "too_many_sockets",
            {"limit": 3},
        )
        assert code == TRY_AGAIN_LATER
        # The lobby socket counts against the same cap.
        lobby_error, lobby_code = refusal(f"{server.ws_url}/ws/lobby")
        assert (lobby_error["code"], lobby_code) == ("too_many_sockets", TRY_AGAIN_LATER)
        sockets[0].close()
        assert open_until_free(server.client("late"), table_id).seat is None


def test_one_user_holds_at_most_their_cap_of_sockets(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, max_sockets_per_user=2)) as server:
        alice = server.client("alice")
        alice.guest()
        table_id = alice.create_table(game="slide", seats=2)["table"]["id"]
        tabs = [alice.connect(table_id) for _ in range(2)]
        assert [tab.recv()["seat"] for tab in tabs] == [0, 0]
        error, code = refusal(
            f"{server.ws_url}/ws/tables/{table_id}", {"Cookie": alice.cookie_header()}
        )
        assert (error["code"], error["params"], code) == (
            "too_many_sockets",
            {"limit": 2},
            TRY_AGAIN_LATER,
        )
        # Others from the same address are not that user.
        assert server.client("bob").connect(table_id).recv()["type"] == "hello"
        tabs[1].close()
        assert open_until_free(alice, table_id).seat == 0


def test_the_socket_cap_counts_the_address_a_trusted_proxy_forwards(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, max_sockets_per_address=1, trusted_proxies="127.0.0.1")
    with running(settings) as server:
        alice = server.client("alice")
        alice.guest()
        table_id = alice.create_table(game="slide", seats=2)["table"]["id"]
        url = f"{server.ws_url}/ws/tables/{table_id}"
        with (
            connect(url, additional_headers={"X-Forwarded-For": "203.0.113.1"}) as first,
            connect(url, additional_headers={"X-Forwarded-For": "203.0.113.2"}) as other,
        ):
            assert json.loads(first.recv(timeout=10))["type"] == "hello"
            assert json.loads(other.recv(timeout=10))["type"] == "hello"
            error, _code = refusal(url, {"X-Forwarded-For": "203.0.113.1"})
            assert error["code"] == "too_many_sockets"
