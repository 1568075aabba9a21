"""Two servers sharing tables: one PostgreSQL database and the Redis bus.

Players on different servers play one game together; each server applies
actions to its copy of the table, the database's (table, version) key lets
one writer win, and the bus tells the other server to catch up.
"""

from __future__ import annotations

import pytest
from server_harness import (
    LiveServer,
    play_out,
)


@pytest.mark.postgres
@pytest.mark.redis
def test_players_on_two_servers_finish_one_game(two_servers: tuple[LiveServer, LiveServer]) -> None:
    east, west = two_servers
    alice, bob = east.client("alice"), west.client("bob")
    alice.register("alice")
    bob.register("bob")
    table_id = alice.create_table(game="slide", seats=3, bots={"2": "greedy"})["table"]["id"]
    assert [t["id"] for t in bob.get("/api/tables")] == [table_id]
    bob.post(f"/api/tables/{table_id}/join", {})
    alice.post(f"/api/tables/{table_id}/start")
    seats = {0: alice.connect(table_id), 1: bob.connect(table_id)}
    for sock in seats.values():
        assert sock.recv()["table"]["status"] == "playing"
    play_out(seats, "slide")
    for client in (alice, bob):
        table = client.get(f"/api/tables/{table_id}")["table"]
        assert table["status"] == "finished"
    events = bob.get(f"/api/tables/{table_id}/events")
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert seats[0].version == seats[1].version == len(events)
