"""Bad input and abuse around tournaments, as docs/tournaments.md lists them: each a clear
refusal with its documented code and status, and nothing half-created."""

from __future__ import annotations

import time
from typing import Any

import httpx
from server_harness import Client, LiveServer, play_out
from test_bot_accounts import bot_account
from test_tournament_play import paired_round, wait_until


def account(server: LiveServer, label: str) -> Client:
    client = server.client(label)
    client.register(f"{label}{time.monotonic_ns() % 10**6}")
    return client


def swiss(server: LiveServer, **extra: Any) -> dict[str, Any]:
    """A Summy Swiss of 3 rounds starting in a minute, with ``extra`` settings."""
    return {"name": "Swiss", "game": "summy", "format": "swiss", "rounds": 3,
            "starts_at": server.clock.now() + 60, **extra}  # fmt: skip


def refused(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_bad_settings_are_refused_and_nothing_is_created(server: LiveServer) -> None:
    ada = account(server, "ada")
    now = server.clock.now()
    cases = [
        (swiss(server, rounds=0), 400, "bad_rounds"),
        (swiss(server, rounds=21), 400, "bad_rounds"),
        (swiss(server, starts_at=now - 1), 400, "bad_start"),
        (swiss(server, starts_at=now), 400, "bad_start"),
        (swiss(server, starts_at=now + 31 * 86400), 400, "bad_start"),
        (swiss(server, options={"colour": "red"}), 400, "bad_options"),
        (swiss(server, game="chess"), 400, "bad_game"),
        (swiss(server, table_size=3), 400, "bad_seats"),
        (swiss(server, game="slide", table_size=7), 400, "bad_seats"),
        (swiss(server, pace="turn", round_days=15), 400, "bad_round_days"),
        (swiss(server, move_seconds=2), 400, "bad_clock"),
        (swiss(server, format="arena", rounds=None), 400, "bad_duration"),
        (swiss(server, format="arena", minutes=4), 400, "bad_duration"),
        (swiss(server, format="arena", minutes=30, pace="turn"), 400, "bad_pace"),
        (swiss(server, max_players=1), 422, "invalid"),
        (swiss(server, format="knockout"), 422, "invalid"),
    ]
    for body, status, code in cases:
        refused(ada.http.post("/api/tournaments", json=body), status, code)
    assert ada.get("/api/tournaments") == []
    refused(server.client("nobody").http.post("/api/tournaments", json=swiss(server)), 401,
            "sign_in")  # fmt: skip


def test_a_creator_holds_at_most_three_open_and_cancels_only_before_the_start(
    server: LiveServer,
) -> None:
    ada, bob = account(server, "ada"), account(server, "bob")
    made = [ada.post("/api/tournaments", swiss(server, starts_at=server.clock.now() + 60 + i),
                     201)["id"] for i in range(3)]  # fmt: skip
    over = refused(ada.http.post("/api/tournaments", json=swiss(server)), 409,
                   "too_many_tournaments")  # fmt: skip
    assert over["params"] == {"limit": 3}
    assert [t["id"] for t in bob.get("/api/tournaments")] == made
    refused(bob.http.post(f"/api/tournaments/{made[0]}/cancel"), 403, "not_organizer")
    assert ada.post(f"/api/tournaments/{made[0]}/cancel")["status"] == "cancelled"
    refused(ada.http.post(f"/api/tournaments/{made[0]}/cancel"), 400, "tournament_over")
    refused(bob.http.post(f"/api/tournaments/{made[0]}/join"), 400, "tournament_over")
    ada.post("/api/tournaments", swiss(server), 201)  # a place came free
    refused(bob.http.post(f"/api/tournaments/{made[1]}/withdraw"), 400, "not_entered")
    refused(bob.http.get("/api/tournaments/no-such-one"), 404, "no_tournament")
    for client in (ada, bob):
        client.post(f"/api/tournaments/{made[1]}/join")
    server.advance(63)  # made[1] and made[2] start (made[2] with nobody: cancelled)
    wait_until(lambda: ada.get(f"/api/tournaments/{made[1]}")["status"] == "running")
    refused(ada.http.post(f"/api/tournaments/{made[1]}/cancel"), 400, "tournament_started")
    wait_until(lambda: ada.get(f"/api/tournaments/{made[2]}")["status"] == "cancelled")


def test_full_private_and_bot_free_tournaments_refuse_who_may_not_join(
    server: LiveServer,
) -> None:
    ada, bob, cy = account(server, "ada"), account(server, "bob"), account(server, "cy")
    private = ada.post("/api/tournaments", swiss(server, private=True, max_players=2), 201)
    tournament_id, secret = private["id"], private["secret"]
    assert secret and ada.get("/api/tournaments") == []  # unlisted
    refused(bob.http.get(f"/api/tournaments/{tournament_id}"), 404, "no_tournament")
    refused(bob.http.post(f"/api/tournaments/{tournament_id}/join"), 404, "no_tournament")
    wrong = {"secret": "not-it"}
    refused(bob.http.post(f"/api/tournaments/{tournament_id}/join", json=wrong), 404,
            "no_tournament")  # fmt: skip
    joined = bob.post(f"/api/tournaments/{tournament_id}/join", {"secret": secret})
    assert joined["players"] == 1 and joined["secret"] is None  # the secret is its creator's
    assert bob.get(f"/api/tournaments/{tournament_id}")["players"] == 1  # an entrant sees it
    ada.post(f"/api/tournaments/{tournament_id}/join")
    full = refused(cy.http.post(f"/api/tournaments/{tournament_id}/join",
                                json={"secret": secret}), 400, "tournament_full")  # fmt: skip
    assert full["params"] == {"limit": 2}
    bob.post(f"/api/tournaments/{tournament_id}/withdraw")
    cy.post(f"/api/tournaments/{tournament_id}/join", {"secret": secret})  # bob's place
    refused(bob.http.post(f"/api/tournaments/{tournament_id}/join"), 400, "tournament_full")

    _, program = bot_account(server, f"deep{time.monotonic_ns() % 10**6}")
    closed = ada.post("/api/tournaments", swiss(server), 201)["id"]
    refused(program.post(f"/api/tournaments/{closed}/join"), 403, "no_bots_here")
    open_to_bots = ada.post("/api/tournaments", swiss(server, bots_allowed=True), 201)["id"]
    assert program.post(f"/api/tournaments/{open_to_bots}/join").json()["players"] == 1


def test_a_finished_tournament_takes_nobody(server: LiveServer) -> None:
    ada, bob, cy = account(server, "ada"), account(server, "bob"), account(server, "cy")
    tournament_id = ada.post("/api/tournaments", swiss(server, rounds=1), 201)["id"]
    for client in (ada, bob):
        client.post(f"/api/tournaments/{tournament_id}/join")
    server.advance(60)
    game = paired_round(ada, tournament_id, 1)["games"][0]
    by_id = {ada.user["id"]: ada, bob.user["id"]: bob}  # type: ignore[index]
    sockets = {}
    for seat, player in enumerate(game["players"]):
        sockets[seat] = by_id[player["id"]].connect(game["table_id"])
        sockets[seat].recv_until(lambda m: m["type"] == "hello")
    play_out(sockets, "summy")
    wait_until(lambda: ada.get(f"/api/tournaments/{tournament_id}")["status"] == "finished")
    refused(cy.http.post(f"/api/tournaments/{tournament_id}/join"), 400, "tournament_over")
    refused(bob.http.post(f"/api/tournaments/{tournament_id}/withdraw"), 400, "tournament_over")
    assert [t["id"] for t in cy.get("/api/tournaments", status="finished")] == [tournament_id]


def test_the_openapi_names_every_tournament_route_and_its_bodies(server: LiveServer) -> None:
    schema = server.client("reader").get("/openapi.json")
    paths = {path: set(ops) for path, ops in schema["paths"].items() if "tournaments" in path}
    assert paths == {
        "/api/tournaments": {"get", "post"},
        "/api/tournaments/{tournament_id}": {"get"},
        "/api/tournaments/{tournament_id}/pairings": {"get"},
        "/api/tournaments/{tournament_id}/join": {"post"},
        "/api/tournaments/{tournament_id}/withdraw": {"post"},
        "/api/tournaments/{tournament_id}/pause": {"post"},
        "/api/tournaments/{tournament_id}/cancel": {"post"},
        "/api/tournaments/{tournament_id}/bots": {"post"},
    }
    models = set(schema["components"]["schemas"])
    assert {"TournamentIn", "TournamentOut", "TournamentDetailOut", "RoundOut", "TournamentGameOut",
            "StandingOut", "TournamentJoinIn", "PauseIn"} <= models  # fmt: skip
    create = schema["paths"]["/api/tournaments"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409", "422"} <= set(create)


def test_built_in_bots_fill_only_a_casual_tournament_and_only_by_its_creator(
    server: LiveServer,
) -> None:
    ada, bob = account(server, "ada"), account(server, "bob")
    arena = swiss(server, format="arena", minutes=30, max_players=4)
    casual = ada.post("/api/tournaments", arena, 201)["id"]
    rated = ada.post("/api/tournaments", {**arena, "rated": True}, 201)["id"]
    rated_swiss = bob.post("/api/tournaments", swiss(server, rated=True), 201)["id"]
    casual_swiss = bob.post("/api/tournaments", swiss(server), 201)["id"]
    refused(bob.http.post(f"/api/tournaments/{casual}/bots", json={"count": 2}), 403,
            "not_organizer")  # fmt: skip
    refused(ada.http.post(f"/api/tournaments/{rated}/bots", json={}), 400, "no_builtin_bots")
    refused(bob.http.post(f"/api/tournaments/{rated_swiss}/bots", json={}), 400,
            "no_builtin_bots")  # fmt: skip
    assert bob.post(f"/api/tournaments/{casual_swiss}/bots", {"count": 2})["players"] == 2
    refused(ada.http.post(f"/api/tournaments/{casual}/bots", json={"level": "godlike"}), 422,
            "invalid")  # fmt: skip
    filled = ada.post(f"/api/tournaments/{casual}/bots", {"count": 3})
    assert filled["players"] == 3
    shown = sorted((row["player"] for row in filled["standings"]), key=lambda p: -p["id"])
    assert shown == [{"id": -n, "name": f"bot (greedy) #{n}", "bot": True} for n in (1, 2, 3)]
    full = refused(ada.http.post(f"/api/tournaments/{casual}/bots", json={"count": 2}), 400,
                   "tournament_full")  # fmt: skip
    assert full["params"] == {"limit": 4}
    bob.post(f"/api/tournaments/{casual}/join")
    refused(ada.http.post(f"/api/tournaments/{casual}/join"), 400, "tournament_full")
