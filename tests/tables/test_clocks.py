"""Move clocks, time-outs, zombies, leaving, and chat, with the server's clock moved by hand."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from server_harness import LiveServer, Socket, brain, make_settings, play_out, start_server

import meeple.tables.core.bots as bots_module
from meeple.tables.core.ratings import FIRST_MOVES


def advance_until(
    server: LiveServer, sock: Socket, check: Callable[[dict[str, Any]], bool], step: float = 61
) -> dict[str, Any]:
    """Move the clock a step, wait a while for a message passing ``check``; again if none came."""
    for _ in range(20):
        server.advance(step)
        deadline = time.monotonic() + 3
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = sock.recv(timeout=left)
            except TimeoutError:
                break
            if check(message):
                return message
    raise AssertionError("the clock ran and nothing happened")


def timeout_of(seat: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the stand-in's move for ``seat`` when its clock ran out."""
    return lambda m: (
        m.get("kind") == "action" and m["seat"] == seat and m["data"]["by"] == "timeout"
    )


def test_a_late_player_gets_a_greedy_move_and_after_three_a_zombie(server: LiveServer) -> None:
    alice = server.client("alice")
    alice.guest()
    table = alice.create_table(game="slide", seats=2, bots={"1": "greedy"}, move_seconds=60)
    table_id = table["table"]["id"]
    alice.post(f"/api/tables/{table_id}/start")
    sock = alice.connect(table_id)
    hello = sock.recv()
    assert hello["table"]["deadlines"] == {"0": server.clock.now() + 60}
    for count in (1, 2, 3):
        advance_until(server, sock, timeout_of(0))
        seats = alice.get(f"/api/tables/{table_id}")["table"]["seats"]
        assert seats[0]["timeouts"] == count
    zombie = sock.recv_until(lambda m: m.get("kind") == "zombie")
    assert (zombie["seat"], zombie["data"]) == (0, {"reason": "timeouts"})
    sock.recv_until(lambda m: m.get("kind") == "finish", timeout=60)
    final = alice.get(f"/api/tables/{table_id}")["table"]
    assert final["status"] == "finished" and final["seats"][0]["zombie"]
    assert not final["seats"][0]["left"]


def test_a_move_in_time_resets_the_clock(server: LiveServer) -> None:
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"}, move_seconds=30)[
        "table"
    ]["id"]
    alice.post(f"/api/tables/{table_id}/start")
    sock = alice.connect(table_id)
    sock.recv()
    server.advance(29)
    sock.drain(wait=0.2)
    assert not any(timeout_of(0)(m) for m in sock.messages)
    play_out({0: sock}, "slide", stop=lambda: sock.version >= 5)
    assert not any(timeout_of(0)(m) for m in sock.messages)


def test_turn_based_tables_use_the_long_clock(server: LiveServer) -> None:
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(
        game="slide", seats=2, bots={"1": "random"}, pace="turn", move_seconds=86400
    )["table"]["id"]
    alice.post(f"/api/tables/{table_id}/start")
    sock = alice.connect(table_id)
    assert sock.recv()["table"]["deadlines"] == {"0": server.clock.now() + 86400}
    server.advance(3600)
    assert not any(timeout_of(0)(m) for m in sock.drain(wait=0.2))
    advance_until(server, sock, timeout_of(0), step=86400)


def test_leaving_a_running_game_hands_the_seat_to_a_zombie_ranked_last(
    server: LiveServer,
) -> None:
    alice, bob = server.client("alice"), server.client("bob")
    alice.guest()
    bob.guest()
    table_id = alice.create_table(game="slide", seats=2, rated=True)["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", {})
    alice.post(f"/api/tables/{table_id}/start")
    a, b = alice.connect(table_id), bob.connect(table_id)
    a.recv(), b.recv()
    # Both make their first moves (takes, in Slide): a game left sooner would be aborted.
    play_out({0: a, 1: b}, "slide", stop=lambda: (a.view or {}).get("round", 0) > FIRST_MOVES)
    b.send({"type": "leave", "id": "bye"})
    zombie = a.recv_until(lambda m: m.get("kind") == "zombie")
    after_leave = len(a.messages)
    assert (zombie["seat"], zombie["data"]) == (1, {"reason": "left"})
    play_out({0: a}, "slide")
    final = alice.get(f"/api/tables/{table_id}")["table"]
    assert final["status"] == "finished"
    assert final["seats"][1]["zombie"] and final["seats"][1]["left"]
    bob_name = bob.user["name"]  # type: ignore[index]
    alice_name = alice.user["name"]  # type: ignore[index]
    assert [h["rank"] for h in bob.get(f"/api/users/{bob_name}/history/slide")] == [2]
    assert [h["rank"] for h in alice.get(f"/api/users/{alice_name}/history/slide")] == [1]
    assert all(
        m["seat"] != 1 or m["data"].get("by") != "player"
        for m in a.messages[after_leave:]
        if m.get("kind") == "action"
    )


def test_chat_reaches_players_and_spectators_raw_with_limits(server: LiveServer) -> None:
    alice, watcher = server.client("alice"), server.client("watcher")
    alice.guest()
    watcher.guest()
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
    a, w = alice.connect(table_id), watcher.connect(table_id)
    a.recv(), w.recv()
    w.send({"type": "chat", "id": "c1", "text": "<b>good luck</b> & have fun"})
    ack = w.recv_until(lambda m: m["type"] == "ack")
    said = a.recv_until(lambda m: m.get("kind") == "chat")
    assert said["version"] == ack["version"]
    assert said["seat"] is None
    assert said["data"]["text"] == "<b>good luck</b> & have fun"
    a.send({"type": "chat", "id": "long", "text": "x" * 501})
    too_long = a.recv_until(lambda m: m["type"] == "error")
    assert (too_long["code"], too_long["params"]["limit"]) == ("chat_too_long", 500)
    a.send({"type": "chat", "id": "blank", "text": "   "})
    assert a.recv_until(lambda m: m["type"] == "error")["code"] == "chat_empty"
    for n in range(20):
        a.send({"type": "chat", "id": f"n{n}", "text": f"line {n}"})
        assert a.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
    a.send({"type": "chat", "id": "flood", "text": "one more"})
    refused = a.recv_until(lambda m: m["type"] in ("ack", "error"))
    assert refused["code"] == "rate_limited" and refused["id"] == "flood"
    assert refused["message"].startswith("too many chat messages; try again in ")
    anonymous = server.client("anonymous").connect(table_id)
    anonymous.recv()
    anonymous.send({"type": "chat", "text": "hi"})
    assert anonymous.recv_until(lambda m: m["type"] == "error")["code"] == "sign_in"


def test_a_restart_keeps_the_move_clock_where_it_was(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    first = start_server(settings)
    try:
        alice = first.client("alice")
        alice.guest()
        table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
        sock = alice.connect(table_id)
        sock.recv()
        alice.post(f"/api/tables/{table_id}/start")
        started_at = first.clock.now()
        sock.wait_version(3)  # the bot's pick: the last action before the restart
        first.advance(45)
        later = first.clock.now()
    finally:
        first.stop()
    second = start_server(settings, clock_start=later)
    try:
        watcher = second.client("watcher").connect(table_id)
        assert watcher.recv()["table"]["deadlines"] == {"0": started_at + 60}
        advance_until(second, watcher, timeout_of(0), step=16)
    finally:
        second.stop()


def test_a_bot_that_overruns_its_budget_plays_its_greedy_move(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot still thinking after four times its budget and a second is not waited for: the
    seat plays its greedy move (computed in the server), never an arbitrary legal action."""
    thinking = threading.Event()

    def slow(*_args: Any) -> Any:
        thinking.set()
        time.sleep(2.0)
        raise AssertionError("the overrun bot's answer is not used")

    monkeypatch.setattr(bots_module, "choose_in_worker", slow)
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "expert"})["table"]["id"]
    sock = alice.connect(table_id)
    sock.recv()
    alice.post(f"/api/tables/{table_id}/start")
    moved = sock.recv_until(lambda m: m.get("kind") == "action" and m["seat"] == 1, timeout=15)
    assert moved["data"]["by"] == "bot" and thinking.is_set()
    assert server.services.bots.stats.fallbacks["overrun"] == 1


def test_a_socket_with_unread_messages_closes_cleanly(server: LiveServer) -> None:
    # The server always answered the close at once; the test client stopped
    # reading the network past 16 unread messages and timed out after 10 s.
    alice, watcher = server.client("alice"), server.client("watcher")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
    a, w = alice.connect(table_id), watcher.connect(table_id)
    a.recv(), w.recv()
    for n in range(20):  # 20 events the watcher never reads
        a.send({"type": "chat", "id": f"n{n}", "text": f"line {n}"})
        assert a.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
    w.ws.close_timeout = 2  # a failure costs 2 s, not 10
    w.close()
    assert w.ws.close_code == 1000  # 1006: the close handshake timed out


def test_a_bot_takes_its_minimum_thinking_moment_by_the_servers_clock(tmp_path: Path) -> None:
    """A bot's move lands no sooner than ``bot_min_think_s`` after it starts thinking, so that
    people see it think; a stand-in for a late player does not wait."""
    server = start_server(make_settings(tmp_path, bot_min_think_s=2.0))
    try:
        alice = server.client("alice")
        alice.guest()
        table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
        sock = alice.connect(table_id)
        sock.recv()
        alice.post(f"/api/tables/{table_id}/start")
        sock.recv_until(lambda m: m.get("kind") == "start")
        bot_moved = lambda m: m.get("kind") == "action" and m["seat"] == 1  # noqa: E731
        with pytest.raises(TimeoutError):
            sock.recv_until(bot_moved, timeout=1.5)  # the bot has chosen, the clock has not moved
        server.advance(1.0)
        with pytest.raises(TimeoutError):
            sock.recv_until(bot_moved, timeout=1.0)
        server.advance(1.0)
        moved = sock.recv_until(bot_moved, timeout=10)
        assert moved["data"]["by"] == "bot"
    finally:
        server.stop()


def two_guests_playing_slide(
    server: LiveServer, move_seconds: int
) -> tuple[str, dict[int, Socket]]:
    """A started two-seat Slide table of two guests, and each seat's socket (hello unread)."""
    alice, bob = server.client("alice"), server.client("bob")
    alice.guest()
    bob.guest()
    table_id = alice.create_table(game="slide", seats=2, move_seconds=move_seconds)["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", {})
    alice.post(f"/api/tables/{table_id}/start")
    return table_id, {0: alice.connect(table_id), 1: bob.connect(table_id)}


def test_clocks_rebuilt_from_the_log_match_the_running_clocks(server: LiveServer) -> None:
    """A server taking a table over (or catching up) rebuilds the move clocks from the stored
    events: in a simultaneous reveal, a seat's clock keeps running while the other seat acts
    (a stale deadline kept from an old copy timed players out early)."""
    table_id, sockets = two_guests_playing_slide(server, move_seconds=60)
    started = sockets[0].recv()["table"]["deadlines"]["0"]
    sockets[1].recv()
    table = server.services.tables.tables[table_id]
    minds = {seat: brain("slide", 7 + seat) for seat in sockets}
    order = [1, 0] * 10
    for step, seat in enumerate(order):
        server.advance(7)
        sock = sockets[seat]
        sock.drain(wait=0.05)
        if seat not in sock.to_act:
            continue
        sock.send({"type": "action", "id": f"s{step}", "action": minds[seat](sock.view, seat)})
        sock.recv_until(lambda m, cid=f"s{step}": m.get("id") == cid)
        for other in sockets.values():
            other.drain(wait=0.05)
        assert table.runtime.deadlines_from_log() == table.runtime.deadlines, step
        if step == 0:  # bob revealed: alice's clock still runs from the start
            assert table.runtime.deadlines[0] == started


def test_moves_keep_the_tables_one_timer_and_a_late_seat_still_times_out_on_time(
    server: LiveServer,
) -> None:
    """A move ends one clock and starts a later one: the table keeps its one timer task (it
    wakes at the earlier moment and looks again), and the seat that stops moving is played
    for at its own deadline, not before nor after."""
    table_id, sockets = two_guests_playing_slide(server, move_seconds=30)
    for sock in sockets.values():
        sock.recv()
    table = server.services.tables.tables[table_id]
    timer = table.runtime._timer
    assert timer is not None
    minds = {seat: brain("slide", 3 + seat) for seat in sockets}
    moves = 0
    for step in range(12):
        server.advance(2)
        for seat, sock in sockets.items():
            sock.drain(wait=0.05)
            if seat in sock.to_act:
                action = minds[seat](sock.view, seat)
                sock.send({"type": "action", "id": f"m{step}", "action": action})
                sock.recv_until(lambda m, cid=f"m{step}": m.get("id") == cid)
                moves += 1
    assert moves >= 6 and table.snap.status == "playing"
    assert table.runtime._timer is timer  # the same task through every move
    sockets[0].drain(wait=0.1)
    late = min(table.runtime.deadlines, key=table.runtime.deadlines.__getitem__)
    due = table.runtime.deadlines[late]
    server.advance(due - server.clock.now() - 0.5)
    sockets[0].drain(wait=0.3)
    assert not any(timeout_of(late)(m) for m in sockets[0].messages)
    server.advance(0.5)
    played = sockets[0].recv_until(timeout_of(late), timeout=10)
    assert table.events[played["version"] - 1].at == due  # played at the deadline itself
