"""A first end-to-end game: a guest against a bot, over a real WebSocket."""

from __future__ import annotations

from server_harness import LiveServer, play_out


def test_guest_plays_slide_against_a_bot(server: LiveServer) -> None:
    alice = server.client("alice")
    alice.guest()
    table = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]
    alice.post(f"/api/tables/{table['id']}/start")
    sock = alice.connect(table["id"])
    hello = sock.recv()
    assert hello["type"] == "hello" and hello["seat"] == 0
    play_out({0: sock}, "slide")
    final = alice.get(f"/api/tables/{table['id']}")["table"]
    assert final["status"] == "finished"
    assert final["result"]["ranks"]
