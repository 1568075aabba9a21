"""A casual Swiss filled by its creator with built-in bots runs to its end like any other
(docs/tournaments.md, "Built-in bots"): the bots are paired, play their tables (two bots
may meet at a table of their own), and the standings count every game."""

from __future__ import annotations

import time

from server_harness import LiveServer


def test_a_casual_swiss_of_built_in_bots_runs_to_its_end(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register(f"ada{time.monotonic_ns() % 10**6}")
    body = {"name": "Bots' Swiss", "game": "summy", "format": "swiss", "rounds": 2,
            "starts_at": server.clock.now() + 60}  # fmt: skip
    tournament_id = ada.post("/api/tournaments", body, 201)["id"]
    filled = ada.post(f"/api/tournaments/{tournament_id}/bots", {"level": "random", "count": 4})
    assert filled["players"] == 4
    server.advance(61)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        shown = ada.get(f"/api/tournaments/{tournament_id}")
        if shown["status"] == "finished":
            break
        time.sleep(0.1)
    else:
        raise AssertionError(
            f"the bots' Swiss never finished: {shown['status']}, round {shown['round']}"
        )
    assert shown["round"] == 2
    rounds = ada.get(f"/api/tournaments/{tournament_id}/pairings")
    assert [len(r["games"]) for r in rounds] == [2, 2]
    assert all(game["status"] == "finished" and game["how"] == "played"
               for r in rounds for game in r["games"])  # fmt: skip
    standings = shown["standings"]
    assert sorted(row["player"]["id"] for row in standings) == [-4, -3, -2, -1]
    assert all(row["games"] == 2 for row in standings)
    assert sum(row["points"] for row in standings) == 2 * 2 * 2  # 2 points a game, 4 games
    met = [frozenset(p["id"] for p in game["players"]) for r in rounds for game in r["games"]]
    assert len(set(met)) == 4  # nobody met the same bot twice
