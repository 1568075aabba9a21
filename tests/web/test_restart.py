"""Reliability: ``meeple serve`` as a real process, killed with SIGKILL mid-game and started again.

The server runs with no settings at all (its data folder comes from
XDG_DATA_HOME), so this also checks the default SQLite file and the secret key
kept on first run: the players' session cookies still work after the restart.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from serve_process import RemoteServer, ServeProcess, client_of
from server_harness import GAMES, Socket, free_port, play_out

from meeple.games.base import GameRecord, replay


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_loses_nothing(tmp_path: Path) -> None:
    data_home = tmp_path
    port = free_port()
    first = ServeProcess(data_home, port)
    seats: dict[int, Socket] = {}
    try:
        remote = RemoteServer(first.url)
        alice, bob = client_of(remote, "alice"), client_of(remote, "bob")
        alice.guest()
        bob.guest()
        table_id = alice.create_table(
            game="slide", seats=3, bots={"2": "greedy"}, move_seconds=3600
        )["table"]["id"]
        bob.post(f"/api/tables/{table_id}/join", {})
        alice.post(f"/api/tables/{table_id}/start")
        seats = {0: alice.connect(table_id), 1: bob.connect(table_id)}
        for sock in seats.values():
            sock.recv()
        play_out(seats, "slide", stop=lambda: seats[0].version >= 25)
        before = alice.get(f"/api/tables/{table_id}/events")
        seen = {seat: sock.version for seat, sock in seats.items()}
    finally:
        first.kill()
        for sock in seats.values():
            sock.close()
    assert (data_home / "meeple" / "meeple.db").exists()

    second = ServeProcess(data_home, port)
    try:
        alice = client_of(remote, "alice", alice.http.cookies)
        bob = client_of(remote, "bob", bob.http.cookies)
        assert alice.get("/api/auth/me")["guest"] is True
        after = alice.get(f"/api/tables/{table_id}/events")
        assert after[: len(before)] == before
        old = seats
        seats = {0: alice.connect(table_id, since=seen[0]), 1: bob.connect(table_id, since=seen[1])}
        for seat, sock in seats.items():
            sock.adopt(old[seat])
            resumed = sock.recv()
            assert resumed["type"] == "resume" and resumed["from"] == seen[seat]
        # An action id used before the crash is still known: sending it again applies nothing.
        seats[0].send({"type": "action", "id": "alice-0", "action": {"type": "reveal"}})
        repeat = seats[0].recv_until(lambda m: m.get("id") == "alice-0")
        assert repeat["type"] == "ack" and repeat["duplicate"] is True
        play_out(seats, "slide")
        table = alice.get(f"/api/tables/{table_id}")["table"]
        assert table["status"] == "finished"
        record = GameRecord.from_json(alice.get(f"/api/tables/{table_id}/record"))
        final = GAMES["slide"].result(replay(GAMES["slide"], record)[-1])
        assert final is not None and table["result"] == final.to_json()
        events = alice.get(f"/api/tables/{table_id}/events")
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        assert sum(e["kind"] == "action" for e in events) == len(record.actions)
    finally:
        for client in (alice, bob):
            client.close()
        second.stop()
