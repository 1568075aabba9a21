"""POST /api/tables/{id}/hint (docs/server.md): the analysis engine's best move for the asking
player's seat, only in an unrated game against built-in bots, on their turn; refused with a
code anywhere else. Asking changes nothing at the table and tells nobody else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, LiveServer, make_settings, start_server

from meeple.games.summy.analysis.hint import hint
from meeple.jsontext import dumps
from meeple.tables.lobby import matchmaking

SLOW_BOT_S = 10.0
"""The built-in bot's visible moment: the manual clock holds its move until a test moves on."""


@pytest.fixture
def slow_bots(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose built-in bots wait ``SLOW_BOT_S`` on its manual clock before moving."""
    live = start_server(make_settings(tmp_path, bot_min_think_s=SLOW_BOT_S))
    try:
        yield live
    finally:
        live.stop()


def refused(answer: Any, status: int, code: str) -> None:
    """The answer is a refusal of that status and code."""
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text


def bot_table(client: Client, **spec: Any) -> str:
    """A started Summy table: the client at seat 0, the casual built-in bot at seat 1."""
    table = client.create_table(game="summy", seats=2, bots={"1": "greedy"}, **spec)
    table_id: str = table["table"]["id"]
    client.post(f"/api/tables/{table_id}/start")
    return table_id


def my_turn(server: LiveServer, sock: Any) -> dict[str, Any]:
    """The socket's view once it is the seat's turn (the bot's moment let pass if needed)."""
    for _ in range(3):
        if sock.seat in sock.to_act:
            view: dict[str, Any] = sock.view
            return view
        server.advance(SLOW_BOT_S + 1)
        sock.wait_version(sock.version + 1)
    raise AssertionError("the seat's turn never came")


def test_a_hint_is_the_best_move_of_my_view_and_changes_nothing(slow_bots: LiveServer) -> None:
    ada, watcher = slow_bots.client("ada"), slow_bots.client("watcher")
    ada.guest()
    watcher.guest()
    table_id = bot_table(ada)
    sock = ada.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    view = my_turn(slow_bots, sock)
    watching = watcher.connect(table_id)
    watching.recv_until(lambda m: m["type"] == "hello")
    version = sock.version
    answer = ada.http.post(f"/api/tables/{table_id}/hint")
    assert answer.status_code == 200, answer.text
    assert answer.json() == hint(view)
    assert set(answer.json()) == {"action", "text", "details"}
    # Nothing changed, and nobody was told: not the spectator, not the player's own socket.
    assert ada.get(f"/api/tables/{table_id}")["table"]["version"] == version
    for socket in (watching, sock):
        assert [m for m in socket.drain(wait=0.3) if m["type"] != "watchers"] == []
    # The hint is a legal move: played as it is, the table takes it.
    played = ada.post(f"/api/tables/{table_id}/actions", {"action": answer.json()["action"]})
    assert played["version"] == version + 1
    # The bot's turn now: no hint until it has moved.
    refused(ada.http.post(f"/api/tables/{table_id}/hint"), 400, "not_your_turn")


def watched_game(server: LiveServer, with_hints: bool, turns: int) -> list[str]:
    """A spectator's lines (each event: version, kind, data and view, as JSON text) while a
    guest plays ``turns`` turns of the hint's move against the casual bot, asking for it
    three times a turn or, ``with_hints`` false, finding it without asking."""
    ada, watcher = server.client("ada"), server.client("watcher")
    ada.guest()
    watcher.guest()
    table_id = bot_table(ada)
    sock = ada.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    watching = watcher.connect(table_id)
    watching.recv_until(lambda m: m["type"] == "hello")
    for _turn in range(turns):
        view = my_turn(server, sock)
        action = hint(view)["action"]
        if with_hints:
            for _ in range(3):
                answer = ada.http.post(f"/api/tables/{table_id}/hint")
                assert answer.json()["action"] == action
        played = ada.post(f"/api/tables/{table_id}/actions", {"action": action})
        sock.wait_version(played["version"])
    watching.wait_version(sock.version)
    lines = [m for m in watching.messages if m["type"] == "event"]
    assert lines and all(m["view"]["hand"] is None for m in lines)
    return [dumps([m["version"], m["kind"], m["data"], m["view"]]) for m in lines]


def test_a_spectator_sees_the_same_game_byte_for_byte_with_and_without_hints(
    slow_bots: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables dealt from one seed, the same moves played against the same bot: the
    spectator's lines are byte-identical whether the player asked for hints or not (and so is
    what the bot was shown, since its moves are the same)."""
    monkeypatch.setattr(matchmaking.secrets, "randbits", lambda _bits: 4_242_424)
    assert watched_game(slow_bots, True, 3) == watched_game(slow_bots, False, 3)


def test_hints_are_refused_where_they_are_not_given(server: LiveServer) -> None:
    ada, bob, carol = server.client("ada"), server.client("bob"), server.client("carol")
    ada.register("ada_hints")
    bob.register("bob_hints")
    carol.guest()
    # Anonymous: sign in first.
    solo_id = ada.create_table(game="summy", seats=1)["table"]["id"]
    refused(server.client("nobody").http.post(f"/api/tables/{solo_id}/hint"), 401, "sign_in")
    # Before the start, then a solo game (no other seat: nobody's game is spoiled).
    refused(ada.http.post(f"/api/tables/{solo_id}/hint"), 400, "not_playing")
    ada.post(f"/api/tables/{solo_id}/start")
    assert ada.http.post(f"/api/tables/{solo_id}/hint").status_code == 200
    # Someone not seated at the table.
    refused(carol.http.post(f"/api/tables/{solo_id}/hint"), 403, "not_seated")
    # Between people, casual.
    casual = ada.create_table(game="summy", seats=2)["table"]["id"]
    bob.post(f"/api/tables/{casual}/join", {})
    ada.post(f"/api/tables/{casual}/start")
    for client in (ada, bob):
        refused(client.http.post(f"/api/tables/{casual}/hint"), 400, "hint_people")
    # Rated, between people; and asked rated against a bot (which then rates nobody).
    rated = ada.create_table(game="summy", seats=2, rated=True)["table"]["id"]
    bob.post(f"/api/tables/{rated}/join", {})
    ada.post(f"/api/tables/{rated}/start")
    refused(ada.http.post(f"/api/tables/{rated}/hint"), 400, "hint_rated")
    rated_bot = bot_table(ada, rated=True)
    assert ada.get(f"/api/tables/{rated_bot}")["table"]["unrated_by_bots"] is True
    refused(ada.http.post(f"/api/tables/{rated_bot}/hint"), 400, "hint_rated")
    # A game without a hint.
    slide = ada.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    ada.post(f"/api/tables/{slide}/start")
    refused(ada.http.post(f"/api/tables/{slide}/hint"), 404, "no_feature")
    # Unknown tables stay unknown.
    refused(ada.http.post("/api/tables/nosuchtable/hint"), 404, "no_table")
