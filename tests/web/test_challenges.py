"""Challenges (docs/bot-api.md): sent, accepted, declined, cancelled and lapsed as their two
accounts see them through the REST routes and their event streams, on one server and two."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from event_streams import EventStream
from server_harness import Client, LiveServer, make_settings, start_server


@contextmanager
def streams(*pairs: tuple[LiveServer, Client]) -> Iterator[list[EventStream]]:
    """The event streams of some clients (by their cookies), closed at the end."""
    opened = [EventStream(server.url, {"Cookie": c.cookie_header()}) for server, c in pairs]
    try:
        yield opened
    finally:
        for stream in opened:
            stream.close()


def challenge(client: Client, to: str, expect: int = 201, **fields: Any) -> Any:
    """Send a Summy challenge (two players, casual, 60 s a move unless said)."""
    body = {"to": to, "game": "summy", **fields}
    return client.post("/api/challenges", body, expect)


def code(response: Any) -> str:
    """An error answer's code."""
    return str(response["code"])


def test_accept_opens_and_starts_a_table_with_both_seated(server: LiveServer) -> None:
    ada, bob = server.client("ada"), server.client("bob")
    ada.register("ada")
    bob.register("bob")
    with streams((server, ada), (server, bob)) as (ada_events, bob_events):
        sent = challenge(bob, "ADA", move_seconds=30)
        assert sent["status"] == "open" and sent["from"]["name"] == "bob"
        assert sent["to"] == {"id": ada.user["id"], "name": "ada", "bot": False}
        assert sent["options"]["players"] == 2 and sent["move_seconds"] == 30
        for events in (ada_events, bob_events):
            assert events.next("challenge")["challenge"]["id"] == sent["id"]
        assert [c["id"] for c in ada.get("/api/challenges")] == [sent["id"]]
        assert [c["id"] for c in bob.get("/api/challenges")] == [sent["id"]]
        # Only the challenged account accepts.
        assert code(bob.post(f"/api/challenges/{sent['id']}/accept", expect=404)) == "no_challenge"
        table_id = ada.post(f"/api/challenges/{sent['id']}/accept")["table_id"]
        starts = []
        for events in (ada_events, bob_events):
            accepted = events.next("challenge_accepted")["challenge"]
            assert accepted["status"] == "accepted" and accepted["table_id"] == table_id
            start = events.next("game_start")
            assert start["table_id"] == table_id and start["game"] == "summy"
            starts.append(start["seat"])
        assert sorted(starts) == [0, 1]
        # game_start comes once per account.
        for events in (ada_events, bob_events):
            with pytest.raises(queue.Empty):
                events.next("game_start", timeout=0.5)
    table = ada.get(f"/api/tables/{table_id}")["table"]
    assert table["status"] == "playing" and table["private"] is True
    assert sorted(s["name"] for s in table["seats"]) == ["ada", "bob"]
    assert table["move_seconds"] == 30
    # Answered: it is no longer open, and a second accept is refused.
    assert ada.get("/api/challenges") == []
    again = ada.post(f"/api/challenges/{sent['id']}/accept", expect=409)
    assert code(again) == "challenge_closed"
    assert ada.get(f"/api/challenges/{sent['id']}")["table_id"] == table_id


def test_decline_with_a_reason_and_cancel(server: LiveServer) -> None:
    ada, bob = server.client("ada"), server.client("bob")
    ada.register("ada")
    bob.register("bob")
    with streams((server, ada), (server, bob)) as (ada_events, bob_events):
        first = challenge(bob, "ada")
        declined = ada.post(f"/api/challenges/{first['id']}/decline", {"reason": "too_fast"})
        assert (declined["status"], declined["reason"]) == ("declined", "too_fast")
        for events in (ada_events, bob_events):
            line = events.next("challenge_declined")
            assert line["challenge"]["reason"] == "too_fast"
        bad = ada.post(f"/api/challenges/{first['id']}/decline", {"reason": "smelly"}, 422)
        assert bad["detail"]
        second = challenge(bob, "ada")
        # Only the challenger cancels; the challenged one declines.
        assert code(ada.post(f"/api/challenges/{second['id']}/cancel", expect=404)) == (
            "no_challenge"
        )
        cancelled = bob.post(f"/api/challenges/{second['id']}/cancel")
        assert cancelled["status"] == "cancelled"
        for events in (ada_events, bob_events):
            assert events.next("challenge_cancelled")["challenge"]["id"] == second["id"]
        closed = ada.post(f"/api/challenges/{second['id']}/accept", expect=409)
        assert code(closed) == "challenge_closed"
    # A third account sees neither.
    eve = server.client("eve")
    eve.register("eve")
    assert code(eve.get(f"/api/challenges/{first['id']}", expect=404)) == "no_challenge"


def test_a_challenge_lapses_after_its_time(server: LiveServer) -> None:
    ada, bob = server.client("ada"), server.client("bob")
    ada.register("ada")
    bob.register("bob")
    with streams((server, ada), (server, bob)) as (ada_events, bob_events):
        sent = challenge(bob, "ada")
        ttl = server.services.settings.challenge_ttl_s
        assert sent["expires_at"] - sent["created_at"] == ttl
        server.advance(ttl - 1)
        assert [c["id"] for c in ada.get("/api/challenges")] == [sent["id"]]
        server.advance(1)
        # Both are told, as a cancel would be (so a client drops it the same way).
        for events in (ada_events, bob_events):
            lapsed = events.next("challenge_cancelled")["challenge"]
            assert (lapsed["id"], lapsed["status"]) == (sent["id"], "lapsed")
    assert ada.get("/api/challenges") == []
    assert ada.get(f"/api/challenges/{sent['id']}")["status"] == "lapsed"
    assert code(ada.post(f"/api/challenges/{sent['id']}/accept", expect=409)) == (
        "challenge_closed"
    )
    assert code(bob.post(f"/api/challenges/{sent['id']}/cancel", expect=409)) == (
        "challenge_closed"
    )


def test_what_a_challenge_may_ask(server: LiveServer) -> None:
    ada, bob = server.client("ada"), server.client("bob")
    ada.register("ada")
    bob.register("bob")
    assert code(challenge(bob, "nobody-here", 404)) == "no_player"
    assert code(challenge(bob, "bob", 400)) == "challenge_self"
    assert code(challenge(bob, "ada", 400, game="chess")) == "bad_game"
    assert code(challenge(bob, "ada", 400, options={"players": 1})) == "bad_seats"
    assert code(challenge(bob, "ada", 400, options={"players": "two"})) == "bad_seats"
    assert code(challenge(bob, "ada", 400, options={"rack": "huge"})) == "bad_options"
    assert code(challenge(bob, "ada", 400, move_seconds=1)) == "bad_clock"
    assert challenge(bob, "ada", 422, fill="genius")["detail"]
    # Nothing refused was stored.
    assert ada.get("/api/challenges") == []


def test_more_seats_are_filled_by_built_in_bots(server: LiveServer) -> None:
    ada, bob = server.client("ada"), server.client("bob")
    ada.register("ada")
    bob.register("bob")
    sent = challenge(bob, "ada", game="slide", options={"players": 4}, fill="random")
    assert sent["options"]["players"] == 4
    table_id = ada.post(f"/api/challenges/{sent['id']}/accept")["table_id"]
    table = ada.get(f"/api/tables/{table_id}")["table"]
    assert table["status"] == "playing"
    assert sorted(s["name"] for s in table["seats"][:2]) == ["ada", "bob"]
    assert [s["bot"] for s in table["seats"][2:]] == ["random", "random"]


def test_challenges_are_rate_limited(tmp_path: Any) -> None:
    live = start_server(make_settings(tmp_path, limit_challenges="3/minute"))
    try:
        ada, bob = live.client("ada"), live.client("bob")
        ada.register("ada")
        bob.register("bob")
        for _ in range(3):
            challenge(bob, "ada")
        refused = bob.post("/api/challenges", {"to": "ada", "game": "summy"}, 429)
        assert code(refused) == "rate_limited" and refused["retry_after"] >= 1
    finally:
        live.stop()


def bot_account(server: LiveServer, name: str) -> tuple[Client, str]:
    """A bot account and a ``bot:play`` token of it."""
    client = server.client(name)
    client.register(name)
    assert client.post("/api/account/bot")["bot"] is True
    token = client.post("/api/account/tokens", {"label": "t", "scopes": ["bot:play"]}, 201)
    return client, str(token["token"])


def test_a_bot_online_is_listed_and_answers_with_its_token(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("ada")
    _, token = bot_account(server, "deep-bot")
    bearer = {"Authorization": f"Bearer {token}"}
    assert ada.get("/api/bots/online") == []
    bot_events = EventStream(server.url, bearer, "?accept=summy")
    try:
        # The stream's head may reach the client a moment before the server lists the bot.
        for _ in range(100):
            if ada.get("/api/bots/online"):
                break
            threading.Event().wait(0.05)
        [online] = ada.get("/api/bots/online")
        assert (online["name"], online["accept"]) == ("deep-bot", ["summy"])
        sent = challenge(ada, "deep-bot")
        assert sent["to"]["bot"] is True
        line = bot_events.next("challenge")
        assert line["challenge"]["from"]["name"] == "ada"
        with httpx.Client(base_url=server.url, headers=bearer) as bot:
            answer = bot.post(f"/api/challenges/{sent['id']}/accept")
            assert answer.status_code == 200, answer.text
        start = bot_events.next("game_start")
        assert start["table_id"] == answer.json()["table_id"]
    finally:
        bot_events.close()
    # The stream closed: the bot leaves the list.
    for _ in range(100):
        if ada.get("/api/bots/online") == []:
            break
        threading.Event().wait(0.05)
    assert ada.get("/api/bots/online") == []


def test_rated_games_against_bots_follow_the_setting(tmp_path: Any) -> None:
    live = start_server(make_settings(tmp_path, bots_rated_vs_people=False))
    try:
        ada = live.client("ada")
        ada.register("ada")
        bot_account(live, "deep-bot")
        assert code(challenge(ada, "deep-bot", 400, rated=True)) == "bot_unrated"
        assert challenge(ada, "deep-bot", rated=False)["rated"] is False
    finally:
        live.stop()


@pytest.mark.postgres
def test_sent_on_one_server_accepted_on_the_other(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    east, west = two_servers
    ada, bob = east.client("ada"), west.client("bob")
    ada.register("ada")
    bob.register("bob")
    with streams((east, ada), (west, bob)) as (ada_events, bob_events):
        sent = challenge(ada, "bob")
        assert bob_events.next("challenge")["challenge"]["id"] == sent["id"]
        assert [c["id"] for c in bob.get("/api/challenges")] == [sent["id"]]
        table_id = bob.post(f"/api/challenges/{sent['id']}/accept")["table_id"]
        for events in (ada_events, bob_events):
            assert events.next("challenge_accepted")["challenge"]["table_id"] == table_id
            assert events.next("game_start")["table_id"] == table_id
    for client in (ada, bob):
        table = client.get(f"/api/tables/{table_id}")["table"]
        assert table["status"] == "playing"
        assert sorted(s["name"] for s in table["seats"]) == ["ada", "bob"]


def test_a_challenge_outlives_a_restart(tmp_path: Any) -> None:
    settings = make_settings(tmp_path)
    first = start_server(settings)
    try:
        ada, bob = first.client("ada"), first.client("bob")
        ada.register("ada")
        bob.register("bob")
        sent = challenge(bob, "ada")
        cookie = ada.cookie_header()
    finally:
        first.stop()
    again = start_server(settings)
    try:
        ada = again.client("ada")
        ada.http.headers["Cookie"] = cookie
        assert [c["id"] for c in ada.get("/api/challenges")] == [sent["id"]]
        table_id = ada.post(f"/api/challenges/{sent['id']}/accept")["table_id"]
        assert ada.get(f"/api/tables/{table_id}")["table"]["status"] == "playing"
    finally:
        again.stop()
