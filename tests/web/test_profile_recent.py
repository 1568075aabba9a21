"""A profile's recent tables say whom the player played, the scores and how it went."""

from __future__ import annotations

from server_harness import LiveServer, play_out


def test_recent_tables_name_the_opponents_and_the_players_seat(server: LiveServer) -> None:
    grace, linus = server.client("grace"), server.client("linus")
    grace.register("Grace", "Nanosecond-Wire-1906")
    linus.register("Linus", "Kernel-Penguin-1991")
    table_id = grace.create_table(game="slide", seats=3, bots={"2": "greedy"})["table"]["id"]
    linus.post(f"/api/tables/{table_id}/join", {"seat": 1})
    grace.post(f"/api/tables/{table_id}/start")
    play_out({0: grace.connect(table_id), 1: linus.connect(table_id)}, "slide")
    expected = [
        {"seat": 0, "name": "Grace", "bot": None, "bot_account": False},
        {"seat": 1, "name": "Linus", "bot": None, "bot_account": False},
        {"seat": 2, "name": None, "bot": "greedy", "bot_account": False},
    ]
    for name, seat in (("Grace", 0), ("Linus", 1)):
        # Anyone may read it (the table is public): a stranger asks.
        recent = server.client("stranger").get(f"/api/users/{name}")["recent_tables"]
        (table,) = [t for t in recent if t["id"] == table_id]
        assert table["seat"] == seat
        assert table["players"] == expected
        assert table["status"] == "finished" and len(table["result"]["ranks"]) == 3
