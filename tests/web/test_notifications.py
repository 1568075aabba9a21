"""Notifications in the site, as a player meets them: made once by the table's owner,
listed newest first with the unread count, marked read, kept over a restart, heard live
on another server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from server_harness import Client, LiveServer, make_settings, play_out, running, start_server
from test_bot_streams import LineReader, wait_line


def all_notes(client: Client) -> list[dict[str, Any]]:
    """Every notification of the client's account, newest first (every page)."""
    notes: list[dict[str, Any]] = []
    before = None
    while True:
        params = {"limit": 50} if before is None else {"limit": 50, "before": before}
        page = client.get("/api/notifications", **params)
        notes.extend(page["notifications"])
        before = page["next_before"]
        if before is None:
            return notes


def wait_notes(client: Client, check: Any, timeout: float = 20.0) -> list[dict[str, Any]]:
    """The account's notifications once ``check`` holds for them."""
    deadline = time.monotonic() + timeout
    while True:
        notes = all_notes(client)
        if check(notes):
            return notes
        assert time.monotonic() < deadline, notes
        time.sleep(0.05)


def turns_given(messages: list[dict[str, Any]], seat: int) -> int:
    """How many times the turn passed to ``seat`` in what a table socket heard."""
    given, due = 0, False
    for message in messages:
        if message["type"] == "hello":
            now = seat in message["table"]["to_act"] and message["table"]["status"] == "playing"
        elif message["type"] == "event":
            now = seat in message["to_act"]
        else:
            continue
        given += now and not due
        due = now
    return given


def test_a_turn_based_game_tells_each_turn_once_then_the_result_and_a_rematch(
    server: LiveServer,
) -> None:
    alice, bob = server.client("alice"), server.client("bob")
    alice.register("alice")
    bob.register("bob")
    table = alice.create_table(game="slide", seats=2, pace="turn")["table"]
    bob.post(f"/api/tables/{table['id']}/join", {})
    alice.post(f"/api/tables/{table['id']}/start")
    sockets = {0: alice.connect(table["id"]), 1: bob.connect(table["id"])}
    for sock in sockets.values():
        sock.recv_until(lambda m: m["type"] == "hello")
    play_out(sockets, "slide")
    seat_of = {s.seat: s for s in sockets.values()}
    assert set(seat_of) == {0, 1}
    for client in (alice, bob):
        sock = next(s for s in sockets.values() if s.client is client)
        assert sock.seat is not None
        notes = wait_notes(client, lambda n: any(x["kind"] == "game_finished" for x in n))
        turns = [n for n in notes if n["kind"] == "your_turn"]
        # One per turn given: the table socket saw the turn pass to this seat as many times.
        assert len(turns) == turns_given(sock.messages, sock.seat) > 0
        assert {n["table_id"] for n in turns} == {table["id"]}
        assert all(n["data"]["game"] == "slide" and not n["read"] for n in turns)
        finished = [n for n in notes if n["kind"] == "game_finished"]
        assert len(finished) == 1
        finish = next(m for m in sock.messages if m.get("kind") == "finish")
        result = finish["data"]["result"]
        assert finished[0]["data"]["rank"] == result["ranks"][sock.seat]
        assert finished[0]["data"]["score"] == result["scores"][sock.seat]
        assert [n["id"] for n in notes] == sorted((n["id"] for n in notes), reverse=True)
    alice.post(f"/api/tables/{table['id']}/rematch")
    rematch = wait_notes(bob, lambda n: n[0]["kind"] == "rematch")[0]
    assert rematch["data"]["from"] == "alice" and rematch["table_id"] == table["id"]
    assert not [n for n in all_notes(alice) if n["kind"] == "rematch"]


def test_a_challenge_is_told_once_kept_over_a_restart_and_marked_read(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with running(settings) as first:
        alice, bob = first.client("alice"), first.client("bob")
        alice.register("alice")
        bob.register("bob")
        alice.post("/api/challenges", {"to": "bob", "game": "slide", "pace": "turn"}, 201)
        page = bob.get("/api/notifications")
        assert page["unread"] == 1
        assert [n["kind"] for n in page["notifications"]] == ["challenge"]
        assert page["notifications"][0]["data"]["from"] == "alice"
        assert alice.get("/api/notifications")["notifications"] == []
    second = start_server(settings)
    try:
        bob = second.client("bob")
        bob.post("/api/auth/login", {"name": "bob", "password": "Tile-Slider-42"})
        alice = second.client("alice")
        alice.post("/api/auth/login", {"name": "alice", "password": "Tile-Slider-42"})
        alice.post("/api/challenges", {"to": "bob", "game": "slide"}, 201)
        page = bob.get("/api/notifications")
        assert page["unread"] == 2 and len(page["notifications"]) == 2
        newest, oldest = page["notifications"]
        # Another account's ids change nothing.
        assert alice.post("/api/notifications/read", {"ids": [newest["id"]]})["marked"] == 0
        marked = bob.post("/api/notifications/read", {"ids": [oldest["id"]]})
        assert marked == {"marked": 1, "unread": 1}
        assert [n["read"] for n in bob.get("/api/notifications")["notifications"]] == [
            False,
            True,
        ]
        assert bob.post("/api/notifications/read", {"all": True}) == {"marked": 1, "unread": 0}
        # A token with games:read reads them; marking read takes the cookie.
        made = bob.post("/api/account/tokens", {"label": "t", "scopes": ["games:read"]}, 201)
        headers = {"Authorization": f"Bearer {made['token']}"}
        listed = bob.http.get("/api/notifications", headers=headers)
        assert listed.status_code == 200 and listed.json()["unread"] == 0
        refused = bob.http.post("/api/notifications/read", json={"all": True}, headers=headers)
        assert refused.status_code == 403 and refused.json()["code"] == "token_scope"
        assert (
            bob.http.post(
                "/api/notifications/read",
                json={"all": True},
                headers={"Authorization": "Bearer nope"},
            ).status_code
            == 401
        )
    finally:
        second.stop()


def test_a_notification_made_on_the_owner_reaches_the_player_on_the_other_server(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    owner, other = two_servers
    alice, bob = owner.client("alice"), other.client("bob")
    alice.register("alice-far")
    bob.register("bob-far")
    events = LineReader(other, "/api/stream/events", None, cookie=bob.cookie_header())
    try:
        alice.post("/api/challenges", {"to": "bob-far", "game": "slide"}, 201)
        line = wait_line(events, lambda m: m.get("type") == "notification")
        assert line["notification"]["kind"] == "challenge"
        assert line["notification"]["data"]["from"] == "alice-far"
        listed = bob.get("/api/notifications")
        assert [n["id"] for n in listed["notifications"]] == [line["notification"]["id"]]
        assert listed["unread"] == 1
    finally:
        events.close()


def test_no_notifications_before_anyone_signs_in(server: LiveServer) -> None:
    nobody = server.client("nobody")
    assert nobody.get("/api/notifications", expect=401)["code"] == "sign_in"
    guest = server.client("guest")
    guest.guest()
    assert guest.get("/api/notifications") == {
        "notifications": [],
        "unread": 0,
        "next_before": None,
    }
