"""The tournament socket (docs/protocol.md, "The tournament socket"): the tournament with
its standings and rounds on connect, then again at each change, whoever made it (a
player through the API, the runner at the start, a pairing, a result); a private one
only with its secret; and the home page's list of finished tournaments, the last first."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from server_harness import Client, LiveServer, play_out
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def account(server: LiveServer, name: str) -> Client:
    client = server.client(name)
    client.register(f"{name}{time.monotonic_ns() % 10**6}")
    return client


def watch(server: LiveServer, tournament_id: str, query: str = "") -> ClientConnection:
    """The tournament socket as an anonymous visitor's page opens it."""
    url = f"{server.ws_url}/ws/tournaments/{tournament_id}{query}"
    return connect(url, open_timeout=10, max_queue=None, legacy=True)


def next_until(
    sock: ClientConnection, check: Callable[[dict[str, Any]], bool], timeout: float = 30.0
) -> dict[str, Any]:
    """The first message (each a ``tournament`` one) for which ``check`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(sock.recv(timeout=deadline - time.monotonic()))
        assert message["type"] == "tournament" and set(message) == {"type", "tournament", "rounds"}
        if check(message):
            return message


def names(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["player"]["name"]: row for row in message["tournament"]["standings"]}


def test_the_socket_sends_each_change_as_it_comes(server: LiveServer) -> None:
    ada, bob = account(server, "ada"), account(server, "bob")
    starts = server.clock.now() + 60
    body = {"name": "Live", "game": "summy", "format": "swiss", "rounds": 1, "starts_at": starts}
    tournament = ada.post("/api/tournaments", body, 201)
    sock = watch(server, tournament["id"])
    first = next_until(sock, lambda m: True)
    assert first["tournament"]["status"] == "scheduled" and first["rounds"] == []
    assert first["tournament"]["standings"] == []

    ada.post(f"/api/tournaments/{tournament['id']}/join")
    joined = next_until(sock, lambda m: len(m["tournament"]["standings"]) == 1)
    assert joined["tournament"]["standings"][0]["paused"] is False
    ada.post(f"/api/tournaments/{tournament['id']}/pause", {"paused": True})
    next_until(sock, lambda m: names(m)[ada.user["name"]]["paused"])
    ada.post(f"/api/tournaments/{tournament['id']}/pause", {"paused": False})
    next_until(sock, lambda m: not names(m)[ada.user["name"]]["paused"])
    bob.post(f"/api/tournaments/{tournament['id']}/join")
    next_until(sock, lambda m: len(m["tournament"]["standings"]) == 2)

    server.advance(61)  # the runner starts it and pairs round 1: the socket is told
    paired = next_until(
        sock, lambda m: bool(m["rounds"]) and m["rounds"][0]["games"][0]["status"] == "playing"
    )
    assert paired["tournament"]["status"] == "running"
    game = paired["rounds"][0]["games"][0]
    by_id = {ada.user["id"]: ada, bob.user["id"]: bob}
    sockets = {}
    for seat, player in enumerate(game["players"]):
        sockets[seat] = by_id[player["id"]].connect(game["table_id"])
        sockets[seat].recv_until(lambda m: m["type"] == "hello")
    play_out(sockets, "summy")
    over = next_until(sock, lambda m: m["tournament"]["status"] == "finished", timeout=60)
    assert sorted(row["points"] for row in over["tournament"]["standings"]) in ([0, 2], [1, 1])
    assert over["rounds"][0]["games"][0]["status"] == "finished"
    sock.close()


def test_a_private_tournament_needs_its_secret_and_a_cancel_is_sent(server: LiveServer) -> None:
    ada = account(server, "ada")
    body = {"name": "Hidden", "game": "summy", "format": "swiss", "rounds": 2,
            "starts_at": server.clock.now() + 600, "private": True}  # fmt: skip
    tournament = ada.post("/api/tournaments", body, 201)
    refused = watch(server, tournament["id"])
    with pytest.raises(ConnectionClosed) as closed:
        refused.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    none = watch(server, "no-such-tournament")
    with pytest.raises(ConnectionClosed):
        none.recv(timeout=10)

    sock = watch(server, tournament["id"], f"?secret={tournament['secret']}")
    first = next_until(sock, lambda m: True)
    assert first["tournament"]["secret"] is None  # the link's holder is not its creator
    ada.post(f"/api/tournaments/{tournament['id']}/cancel")
    next_until(sock, lambda m: m["tournament"]["status"] == "cancelled")
    sock.close()


def test_finished_tournaments_are_listed_the_last_finished_first(server: LiveServer) -> None:
    ada = account(server, "ada")
    made = []
    for index in range(3):
        body = {"name": f"Arena {index}", "game": "summy", "format": "arena", "minutes": 5,
                "starts_at": server.clock.now() + 60}  # fmt: skip
        made.append(ada.post("/api/tournaments", body, 201)["id"])
    # Started with too few players, each is cancelled; finish them in an order unlike
    # their starts' by marking them so in the store, as the runner does at an end.
    from meeple.store import tournaments as store

    db = server.services.db
    for at, tournament_id in zip((300.0, 100.0, 200.0), made, strict=True):
        moved = db.call(store.set_status, tournament_id, [store.SCHEDULED], store.FINISHED, at)
        assert moved
    listed = [t["id"] for t in ada.get("/api/tournaments", status="finished")]
    assert listed == [made[0], made[2], made[1]]
