"""Ratings cannot be farmed with a second account: a game left before it began is aborted.

Over the real protocol: two accounts at a rated table, one leaves at once (its
zombie and, to end the game fast, the other's too play it out). Nothing is rated,
the game counts for no gate (the profile's rated games, the leaderboard, the
history the puzzle rater's gate reads), and the table says it was aborted. A
game both players began (two moves each) and one then leaves is rated as before.
"""

from __future__ import annotations

from typing import Any

from server_harness import Client, LiveServer, Socket, make_settings, play_out, running

from meeple.tables.core.ratings import FIRST_MOVES


def rated_pair(server: LiveServer, game: str) -> tuple[Client, Client, str, dict[int, Socket]]:
    """Two new accounts seated at a started rated two-seat table, with their sockets."""
    farmer, puppet = server.client("farmer"), server.client("puppet")
    farmer.register("farmer")
    puppet.register("puppet")
    table_id = farmer.create_table(game=game, seats=2, rated=True)["table"]["id"]
    puppet.post(f"/api/tables/{table_id}/join", {})
    farmer.post(f"/api/tables/{table_id}/start")
    seats = {0: farmer.connect(table_id), 1: puppet.connect(table_id)}
    for sock in seats.values():
        sock.recv()
    return farmer, puppet, table_id, seats


def both_leave(farmer: Client, puppet: Client, table_id: str, watch: Socket) -> dict[str, Any]:
    """The puppet leaves, then the farmer: the zombies play the game out; its summary."""
    puppet.post(f"/api/tables/{table_id}/leave")
    farmer.post(f"/api/tables/{table_id}/leave")
    watch.wait_finished()
    table: dict[str, Any] = farmer.get(f"/api/tables/{table_id}")["table"]
    return table


def counts_for_nothing(client: Client) -> None:
    """Neither account has a rating, a history point or a line on the leaderboard."""
    for name in ("farmer", "puppet"):
        profile = client.get(f"/api/users/{name}")
        assert profile["ratings"] == []
        assert client.get(f"/api/users/{name}/history/slide") == []
    assert client.get("/api/leaderboard/slide") == []


def test_a_rated_game_left_at_once_is_aborted_and_rates_nobody(server: LiveServer) -> None:
    farmer, puppet, table_id, seats = rated_pair(server, "slide")
    table = both_leave(farmer, puppet, table_id, seats[0])
    counts_for_nothing(farmer)
    assert table["status"] == "finished" and table["aborted"] is True
    recent = farmer.get("/api/users/farmer")["recent_tables"]
    assert [(t["id"], t["aborted"]) for t in recent] == [(table_id, True)]


def test_an_aborted_game_passes_no_puzzle_gate(tmp_path: Any) -> None:
    """With a gate of one rated game, the aborted game does not open it: the accounts'
    puzzle answers would move no puzzle (the gate reads the rated games counted)."""
    with running(make_settings(tmp_path, puzzle_rater_games=1)) as server:
        farmer, puppet, table_id, seats = rated_pair(server, "summy")
        table = both_leave(farmer, puppet, table_id, seats[0])
        for name in ("farmer", "puppet"):
            assert farmer.get(f"/api/users/{name}")["ratings"] == []
        assert farmer.get("/api/leaderboard/summy") == []
        assert table["aborted"] is True


def test_a_game_both_began_and_one_left_is_still_rated(server: LiveServer) -> None:
    farmer, puppet, table_id, seats = rated_pair(server, "slide")
    # In Slide a move is a take (the reveal before it is not one): the third round begins
    # once both players have taken twice.
    play_out(seats, "slide", stop=lambda: (seats[0].view or {}).get("round", 0) > FIRST_MOVES)
    puppet.post(f"/api/tables/{table_id}/leave")
    play_out({0: seats[0]}, "slide")
    table = farmer.get(f"/api/tables/{table_id}")["table"]
    assert table["status"] == "finished" and table["aborted"] is False
    history = farmer.get("/api/users/farmer/history/slide")
    assert [h["table_id"] for h in history] == [table_id]
    assert history[0]["rank"] == 1  # the leaver is ranked last
    assert farmer.get("/api/users/puppet")["ratings"][0]["games"] == 1


def test_players_who_never_move_and_time_out_abort_the_game(server: LiveServer) -> None:
    """Time-outs are not the players' moves: enough of them hand both seats to zombies
    before the game began, and it rates nobody."""
    farmer, _puppet, table_id, seats = rated_pair(server, "slide")
    move_seconds = farmer.get(f"/api/tables/{table_id}")["table"]["move_seconds"]
    for _ in range(60):
        table = farmer.get(f"/api/tables/{table_id}")["table"]
        if all(seat["zombie"] for seat in table["seats"]):
            break
        server.advance(move_seconds + 1)
        seats[0].drain(wait=0.2)
    seats[0].wait_finished()
    table = farmer.get(f"/api/tables/{table_id}")["table"]
    assert all(seat["zombie"] and not seat["left"] for seat in table["seats"])
    counts_for_nothing(farmer)
    assert table["aborted"] is True
