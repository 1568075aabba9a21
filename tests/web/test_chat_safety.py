"""Chat safety over the API (docs/moderation.md): a block hides nothing on the server's feed
(the pages filter by the list they fetch) but refuses the blocked player's challenges; and a
moderator marking a cheater, seen through the API: off the leaderboard, games unrated,
opponents' ratings restored, the action logged."""

from __future__ import annotations

from typing import Any

from rated_history import GAME, account, rated_game
from server_harness import Client, LiveServer
from test_moderation import act, people, role


def challenge(sender: Client, to: str, expect: int = 201) -> Any:
    """Challenge ``to`` to a Slide game."""
    return sender.post("/api/challenges", {"to": to, "game": "slide"}, expect)


def test_a_block_refuses_the_blocked_players_challenges_until_lifted(server: LiveServer) -> None:
    bob, carol = people(server, "bob", "carol")
    assert bob.get("/api/blocks") == []
    blocked = bob.post("/api/blocks", {"name": "Carol"}, 201)
    assert (blocked["name"], blocked["since"]) == ("carol", server.clock.now())
    bob.post("/api/blocks", {"name": "carol"}, 201)  # again: the same block
    assert [b["name"] for b in bob.get("/api/blocks")] == ["carol"]
    refused = challenge(carol, "bob", 403)
    assert (refused["code"], refused["family"], refused["params"]) == (
        "blocked",
        "forbidden",
        {"name": "bob"},
    )
    assert carol.get("/api/challenges") == []  # nothing was sent
    challenge(bob, "carol")  # the blocker may still challenge
    assert bob.post("/api/blocks", {"name": "bob"}, 422)["code"] == "invalid"
    assert bob.post("/api/blocks", {"name": "nobody"}, 404)["code"] == "no_player"
    assert server.client("anon").post("/api/blocks", {"name": "bob"}, 401)["code"] == "sign_in"
    assert bob.http.delete("/api/blocks/carol").status_code == 204
    assert bob.get("/api/blocks") == []
    challenge(carol, "bob")


def test_marking_a_cheater_unrates_their_games_and_restores_their_opponents(
    server: LiveServer,
) -> None:
    db = server.services.db
    mod, reporter = people(server, "mod", "reporter")
    role(server, "mod", "moderator")
    cheat, victim, other = (account(db, name) for name in ("cheat", "victim", "other"))
    rated_game(db, "t1", {victim: 2, other: 1}, 1.0)
    rated_game(db, "t2", {cheat: 1, victim: 2}, 2.0)
    rated_game(db, "t3", {cheat: 1, other: 2}, 3.0)
    board = reporter.get(f"/api/leaderboard/{GAME}")
    assert board[0]["name"] == "cheat"
    victim_before = reporter.get(f"/api/users/victim/history/{GAME}")
    other_after_t1 = reporter.get(f"/api/users/other/history/{GAME}")[0]
    reporter.post("/api/reports", {"name": "cheat", "reason": "cheating", "text": "engine"}, 201)
    done = act(mod, "cheat", "cheater")
    assert done["entry"]["details"] == {"tables": 2, "opponents": 2, "reports": 1}
    assert [line["name"] for line in reporter.get(f"/api/leaderboard/{GAME}")] == [
        "other",
        "victim",
    ]
    assert reporter.get("/api/users/cheat")["ratings"] == []
    assert reporter.get(f"/api/users/cheat/history/{GAME}") == []
    # The victim's history keeps only the game against "other", rated as it was.
    [point] = reporter.get(f"/api/users/victim/history/{GAME}")
    assert point == victim_before[0]
    # "other" keeps t1 as recorded; t3, won by the cheater, is gone.
    assert reporter.get(f"/api/users/other/history/{GAME}") == [other_after_t1]
    entry = mod.get("/api/mod/log")["entries"][0]
    assert (entry["action"], entry["target"], entry["moderator"]) == ("cheater", "cheat", "mod")
    assert mod.get("/api/mod/reports") == []
