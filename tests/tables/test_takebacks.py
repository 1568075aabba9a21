"""Takebacks at a live table against built-in bots: the earlier position for both seats, the
record and replay without the undone moves, resume across one, clocks, stale bot moves, and
every refusal (docs/server.md, "Takebacks")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from server_harness import Client, LiveServer, Socket, brain, make_settings, play_out, start_server

from meeple.games import get_game
from meeple.games.base import GameRecord, replay
from meeple.tables.core.log import Snapshot, advance

SUMMY = get_game("summy")


def bot_table(client: Client, **spec: Any) -> tuple[str, Socket]:
    """A started Summy table: the client in seat 0, a greedy bot in seat 1; its socket."""
    body = {"game": "summy", "seats": 2, "bots": {"1": "greedy"}, **spec}
    table_id = client.create_table(**body)["table"]["id"]
    client.post(f"/api/tables/{table_id}/start")
    sock = client.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    return table_id, sock


def my_turn(sock: Socket, seat: int = 0) -> None:
    """Receive until ``seat`` is to act."""
    if seat not in sock.to_act:
        sock.recv_until(lambda m: m.get("type") == "event" and seat in m["to_act"])


def move(sock: Socket, seat: int = 0, mind: Any = None) -> int:
    """Play a move of the seat's random mind; the version of its event."""
    mind = mind or brain("summy", 7 + sock.version)
    action = mind(sock.view, seat)
    sock.send({"type": "action", "id": f"a{sock.version}", "action": action})
    ack = sock.recv_until(lambda m: m.get("id") == f"a{sock.version}" or m["type"] == "ack")
    assert ack["type"] == "ack", ack
    version: int = ack["version"]
    return version


def take_back(sock: Socket, answer: str | None = None) -> dict[str, Any]:
    """Send ``takeback`` (with ``answer``, if any); its ack or error."""
    message: dict[str, Any] = {"type": "takeback", "id": f"t{time.monotonic_ns()}"}
    if answer is not None:
        message["answer"] = answer
    sock.send(message)
    return sock.recv_until(lambda m: m.get("id") == message["id"])


def test_a_takeback_against_a_bot_restores_the_earlier_position_for_both_seats(
    server: LiveServer,
) -> None:
    alice = server.client("alice")
    alice.guest()
    table_id, sock = bot_table(alice, move_seconds=60)
    table = server.services.tables.tables[table_id]
    my_turn(sock)
    before_view, before_version = sock.view, sock.version
    bot_before = SUMMY.view(table.snap.state, 1)
    moved = move(sock)
    sock.recv_until(lambda m: m.get("kind") == "action" and m["seat"] == 1)
    my_turn(sock)
    server.advance(20)  # the clock after the takeback starts afresh, not from the bot's move
    ack = take_back(sock)
    taken = sock.recv_until(lambda m: m.get("kind") == "takeback")
    assert ack["type"] == "ack" and ack["version"] == taken["version"]
    assert (taken["seat"], taken["data"]) == (0, {"count": 2})
    assert taken["view"] == before_view and taken["to_act"] == [0]
    assert taken["deadlines"] == {"0": server.clock.now() + 60}
    assert table.runtime.deadlines_from_log() == table.runtime.deadlines  # as a restart reads them
    assert SUMMY.view(table.snap.state, 1) == bot_before  # the bot's seat too
    assert table.snap.state == table.snap.state_at(before_version)
    summary = alice.get(f"/api/tables/{table_id}")["table"]
    assert summary["takeback"] == {"allowed": True, "asked": None}
    assert summary["to_act"] == [0] and summary["version"] == taken["version"]
    undone = [e.version for e in table.events if e.kind == "action" and e.version >= moved]

    # Resume from before the takeback: exactly the events after, each with its view.
    again = alice.connect(table_id, since=before_version)
    assert again.recv()["type"] == "resume"
    again.wait_version(taken["version"])
    resent = [m for m in again.messages if m["type"] == "event"]
    assert [m["version"] for m in resent] == list(range(before_version + 1, taken["version"] + 1))
    assert resent[-1]["view"] == before_view and resent[-1]["kind"] == "takeback"
    again.close()

    # Played on to the end: the record and the replay leave the undone moves out, and the log
    # folded again from the start (as a restart loads it) gives every version's state.
    play_out({0: sock}, "summy")
    again_folded = Snapshot()
    for event in table.events:
        again_folded = advance(SUMMY, table.info.options, table.info.seed, again_folded, event)
    assert again_folded.played_states == table.snap.played_states
    every = range(table.snap.version + 1)
    assert [again_folded.state_at(v) for v in every] == [table.snap.state_at(v) for v in every]
    record = GameRecord.from_json(alice.get(f"/api/tables/{table_id}/record"))
    kept = [(e.seat, e.data["action"]) for e in table.events
            if e.kind == "action" and e.version not in undone]  # fmt: skip
    assert [list(a) for a in record.actions] == [list(a) for a in kept]
    states = replay(SUMMY, record)
    assert SUMMY.result(states[-1]).to_json() == table.snap.result.to_json()  # type: ignore[union-attr]
    last = alice.get(f"/api/tables/{table_id}/replay", step=len(record.actions), seat=0)
    assert last["steps"] == len(record.actions) and last["view"] == SUMMY.view(states[-1], 0)
    first = alice.get(f"/api/tables/{table_id}/replay", step=1, seat=1)
    assert first["view"] == SUMMY.view(states[1], 1)
    refused = take_back(sock)
    assert (refused["type"], refused["code"]) == ("error", "takeback_over")


def test_a_bot_move_chosen_before_a_takeback_is_never_played(tmp_path: Path) -> None:
    server = start_server(make_settings(tmp_path, bot_min_think_s=5))
    try:
        alice = server.client("alice")
        alice.guest()
        table_id, sock = bot_table(alice)
        table = server.services.tables.tables[table_id]
        if 0 not in sock.to_act:  # the bot begins: its moment passes with the clock
            server.advance(10)
            my_turn(sock)
        move(sock)
        time.sleep(0.3)  # the bot has chosen and waits out its visible moment
        assert take_back(sock)["type"] == "ack"
        taken = sock.recv_until(lambda m: m.get("kind") == "takeback")
        assert taken["data"] == {"count": 1} and taken["to_act"] == [0]
        server.advance(10)
        time.sleep(0.3)
        assert not [m for m in sock.drain(wait=0.2) if m.get("kind") == "action"]
        assert table.snap.version == taken["version"] and sock.to_act == [0]
        move(sock)
        reply = None
        for _ in range(20):  # the bot's moment runs on the server's clock: move it on
            server.advance(10)
            found = [m for m in sock.drain(wait=0.2) if m.get("kind") == "action" and m["seat"]]
            if found:
                reply = found
                break
        assert reply is not None
        after = [m for m in sock.messages if m.get("version", 0) > taken["version"]]
        assert [m["seat"] for m in after if m.get("kind") == "action"] == [0, 1]
    finally:
        server.stop()


def test_a_bot_still_to_act_after_a_takeback_thinks_again_on_the_position_it_leaves(
    tmp_path: Path,
) -> None:
    """Slide's reveal is simultaneous: the bot is still to act after my reveal is taken back.
    Its move chosen before the takeback is dropped; it thinks again, its visible moment
    counted from the takeback."""
    server = start_server(make_settings(tmp_path, bot_min_think_s=5))
    try:
        alice = server.client("alice")
        alice.guest()
        body = {"game": "slide", "seats": 2, "bots": {"1": "greedy"}}
        table_id = alice.create_table(**body)["table"]["id"]
        alice.post(f"/api/tables/{table_id}/start")
        sock = alice.connect(table_id)
        sock.recv_until(lambda m: m["type"] == "hello")
        assert sock.to_act == [0, 1]
        time.sleep(0.3)  # the bot has chosen its reveal and waits out its moment (5 s)
        reveal = {"type": "reveal", "cell": [0, 0]}
        sock.send({"type": "action", "id": "r1", "action": reveal})
        assert sock.recv_until(lambda m: m.get("id") == "r1")["type"] == "ack"
        server.advance(3)
        assert take_back(sock)["type"] == "ack"
        taken = sock.recv_until(lambda m: m.get("kind") == "takeback")
        assert taken["data"] == {"count": 1} and taken["to_act"] == [0, 1]
        time.sleep(0.3)
        server.advance(2.5)  # past the moment of the move chosen before: it never comes
        assert not [m for m in sock.drain(wait=0.5) if m.get("kind") == "action"]
        server.advance(3)  # past the new moment: the bot reveals, once
        bot = sock.recv_until(lambda m: m.get("kind") == "action" and m["seat"] == 1)
        assert bot["version"] == taken["version"] + 1
        assert not [m for m in sock.drain(wait=0.3) if m.get("kind") == "action"]
    finally:
        server.stop()


def test_takebacks_are_refused_where_they_are_not_allowed(server: LiveServer) -> None:
    alice, carol = server.client("alice"), server.client("carol")
    alice.guest()
    carol.guest()
    table_id, sock = bot_table(alice)
    my_turn(sock)
    assert take_back(sock)["code"] == "takeback_none"  # nothing of mine to undo yet
    assert take_back(sock, "accept")["code"] == "takeback_no_ask"
    watcher = carol.connect(table_id)
    watcher.recv()
    assert take_back(watcher)["code"] == "not_seated"
    answer = carol.http.post(f"/api/tables/{table_id}/takeback", json={})
    assert (answer.status_code, answer.json()["code"]) == (403, "not_seated")

    rated_id, rated = bot_table(alice, rated=True)
    assert alice.get(f"/api/tables/{rated_id}")["table"]["takeback"]["allowed"] is False
    my_turn(rated)
    move(rated)
    assert take_back(rated)["code"] == "takeback_rated"

    solo = alice.create_table(game="summy", seats=2)["table"]["id"]
    answer = alice.http.post(f"/api/tables/{solo}/takeback")
    assert (answer.status_code, answer.json()["code"]) == (400, "not_playing")


def test_no_takeback_in_a_tournament_game(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register(f"ada{time.monotonic_ns() % 10**6}")
    body = {"name": "Casual", "game": "summy", "format": "swiss", "rounds": 1,
            "starts_at": server.clock.now() + 60}  # fmt: skip
    tournament_id = ada.post("/api/tournaments", body, 201)["id"]
    ada.post(f"/api/tournaments/{tournament_id}/join")
    ada.post(f"/api/tournaments/{tournament_id}/bots", {"level": "greedy", "count": 1})
    server.advance(61)
    deadline = time.monotonic() + 30
    games: list[dict[str, Any]] = []
    while not games and time.monotonic() < deadline:
        rounds = ada.get(f"/api/tournaments/{tournament_id}/pairings")
        games = [g for r in rounds for g in r["games"] if g["status"] != "pending"]
        time.sleep(0.05)
    table_id = games[0]["table_id"]
    summary = ada.get(f"/api/tables/{table_id}")["table"]
    assert summary["rated"] is False and summary["takeback"]["allowed"] is False
    answer = ada.http.post(f"/api/tables/{table_id}/takeback", json={})
    assert (answer.status_code, answer.json()["code"]) == (400, "takeback_tournament")
    row = server.services.tables.tables[table_id].info
    assert row.tournament and not row.rated
