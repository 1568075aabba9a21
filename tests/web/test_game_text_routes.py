"""A finished game's text over HTTP (GET /api/tables/{id}/text) and its import for the analysis
board (POST /api/games/{game}/import), docs/notation.md: the text reads back to the table's
record with the seats' names; a running game's is refused; the import replays the text through
the engine, gives each position as its mover saw it, and refuses a bad text with
``bad_notation``, the line and the engine's reason; a position shared from an imported game
analyses exactly as the game's own position."""

from __future__ import annotations

import time
from typing import Any

import pytest
from server_harness import Client, LiveServer
from test_bot_tokens import bearer, make_token

from meeple.games import get_game
from meeple.games.base import GameRecord, replay
from meeple.games.kit.notation import read_text
from meeple.games.summy.formats import position_from_json
from meeple.games.summy.movegen import legal_moves


def bot_game(client: Client, game: str, levels: tuple[str, ...]) -> str:
    """A finished game of built-in bots (one a seat) opened by ``client``, who does not sit."""
    bots = {str(seat): level for seat, level in enumerate(levels)}
    body = {"game": game, "seats": len(levels), "bots": bots, "sit": False}
    table_id: str = client.post("/api/tables", body, expect=201)["table"]["id"]
    client.post(f"/api/tables/{table_id}/start")
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{table_id}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return table_id


@pytest.fixture(scope="module")
def games(live: LiveServer) -> dict[str, str]:
    """A finished Summy game (a casual and a strong bot) and a Slide one (two casual bots and
    a strong one), both public, opened by a guest who watched."""
    host = live.client("host")
    host.guest()
    return {
        "summy": bot_game(host, "summy", ("greedy", "strong")),
        "slide": bot_game(host, "slide", ("greedy", "strong", "greedy")),
    }


def normal(game: str, record: GameRecord) -> GameRecord:
    """The record with each action as the game writes it (a table keeps them as sent)."""
    rules = get_game(game)
    actions = tuple((s, rules.action_json(rules.parse_action(a))) for s, a in record.actions)
    return GameRecord(record.game, record.options, record.seed, actions)


@pytest.mark.parametrize("game", ["summy", "slide"])
def test_a_finished_games_text_is_its_record_with_the_seats_names(
    live: LiveServer, games: dict[str, str], game: str
) -> None:
    stranger = live.client("stranger")  # signed in as nobody: a public game's text is public
    answer = stranger.http.get(f"/api/tables/{games[game]}/text")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    expected = f'attachment; filename="{game}-{games[game]}.txt"'
    assert answer.headers["content-disposition"] == expected
    imported = read_text(get_game(game), answer.text)
    record = GameRecord.from_json(stranger.get(f"/api/tables/{games[game]}/record"))
    assert imported.record == normal(game, record)
    names = {
        "summy": ("casual bot", "strong bot"),
        "slide": ("casual bot", "strong bot", "casual bot 2"),
    }[game]
    assert imported.names == names
    result = stranger.get(f"/api/tables/{games[game]}")["table"]["result"]
    assert f"scores: {' '.join(map(str, result['scores']))}" in answer.text.splitlines()


def test_a_running_games_text_is_refused_and_a_private_one_unseen(live: LiveServer) -> None:
    ada, other = live.client("ada"), live.client("other")
    ada.guest()
    other.guest()
    running = ada.create_table(game="summy", seats=2, bots={"1": "greedy"})["table"]["id"]
    ada.post(f"/api/tables/{running}/start")
    refused = ada.http.get(f"/api/tables/{running}/text")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_over")
    hidden = ada.create_table(game="summy", seats=2, bots={"1": "greedy"}, private=True)
    answer = other.http.get(f"/api/tables/{hidden['table']['id']}/text")
    assert (answer.status_code, answer.json()["code"]) == (404, "no_table")


def test_a_token_that_reads_games_reads_their_text(live: LiveServer, games: dict[str, str]) -> None:
    ada = live.client("ada-token")
    ada.register("AdaText")
    reader = bearer(live, make_token(ada, ["games:read"])["token"])
    player = bearer(live, make_token(ada, ["bot:play"])["token"])
    assert reader.get(f"/api/tables/{games['summy']}/text").status_code == 200
    refused = player.get(f"/api/tables/{games['summy']}/text")
    assert (refused.status_code, refused.json()["code"]) == (403, "token_scope")


@pytest.mark.parametrize("game", ["summy", "slide"])
def test_an_imported_text_gives_each_position_as_its_mover_saw_it(
    live: LiveServer, games: dict[str, str], game: str
) -> None:
    client = live.client("importer")
    text = client.http.get(f"/api/tables/{games[game]}/text").text
    body: dict[str, Any] = client.post(f"/api/games/{game}/import", {"text": text})
    record = GameRecord.from_json(client.get(f"/api/tables/{games[game]}/record"))
    assert GameRecord.from_json(body["record"]) == normal(game, record)
    rules = get_game(game)
    states = replay(rules, record)
    moves = [(move["seat"], move["action"]) for move in body["moves"]]
    assert moves == list(normal(game, record).actions)
    assert len(body["views"]) == len(states)
    for view, state, move in zip(body["views"], states, body["moves"], strict=False):
        assert view == rules.view(state, move["seat"])
    assert body["views"][-1] == rules.view(states[-1], None)  # over: a spectator's view
    assert body["result"] == client.get(f"/api/tables/{games[game]}")["table"]["result"]
    assert [m["text"] for m in body["moves"]] == [
        line.split(": ", 1)[1].split("  #")[0] for line in text.splitlines() if line[:1].isdigit()
    ]


def test_a_position_shared_from_an_imported_game_analyses_as_the_game_did(
    live: LiveServer, games: dict[str, str]
) -> None:
    client = live.client("sharer")
    text = client.http.get(f"/api/tables/{games['summy']}/text").text
    body = client.post("/api/games/summy/import", {"text": text})
    states = replay(get_game("summy"), read_text(get_game("summy"), text).record)
    for step in (0, len(states) // 2, len(states) - 2):
        view = body["views"][step]
        # What the board's link carries: the view's tiles, equations and the mover's hand.
        shared = {"game": "summy", **{k: view[k] for k in ("tiles", "equations", "hand")}}
        analysed = client.post("/api/analysis/summy?limit=0", shared)
        assert analysed["count"] == legal_moves(states[step].position()).count()
        assert position_from_json(shared) == states[step].position()


@pytest.mark.parametrize(
    ("change", "reason", "line"),
    [
        (lambda text: text.replace("game: summy", "game: slide"), "notation_game", 2),
        (lambda text: text.replace("1. seat", "2. seat", 1), "notation_number", None),
        (lambda text: text.replace("seed:", "seed: x"), "notation_seed", 4),
        (lambda text: text + "\nsomething else\n", "notation_line", None),
    ],
)
def test_a_bad_text_is_refused_with_the_line_and_its_reason(
    live: LiveServer, games: dict[str, str], change: Any, reason: str, line: int | None
) -> None:
    client = live.client("bad-text")
    text = client.http.get(f"/api/tables/{games['summy']}/text").text
    answer = client.http.post("/api/games/summy/import", json={"text": change(text)})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert (body["code"], body["family"], body["reason"]) == ("bad_notation", "invalid", reason)
    where = body["params"]["line"]
    assert line is None or where == line
    assert body["detail"] == f"line {where}: {body['params']['why']}"


def test_an_illegal_move_is_refused_in_the_engines_words(
    live: LiveServer,
) -> None:
    client = live.client("illegal-text")
    text = 'game: summy\noptions: {"players": 2}\nseed: 11\n\n1. seat 2: V -3,0 1+6[=]8\n'
    answer = client.http.post("/api/games/summy/import", json={"text": text})
    body = answer.json()
    assert (answer.status_code, body["reason"], body["params"]["line"]) == (422, "eq_false", 5)
    assert body["params"]["why"] == "1+6 is 7, not 8"
    assert body["detail"] == "line 5: 1+6 is 7, not 8"


def test_a_game_without_a_text_and_an_oversized_text_are_refused(live: LiveServer) -> None:
    client = live.client("no-text")
    answer = client.http.post("/api/games/chess/import", json={"text": "game: chess"})
    assert (answer.status_code, answer.json()["code"]) == (404, "no_feature")
    answer = client.http.post("/api/games/summy/import", json={"text": "#" * 16_001})
    assert (answer.status_code, answer.json()["code"]) == (422, "invalid")
    answer = client.http.post("/api/games/summy/import", json={"text": "#" * 20_000})
    assert (answer.status_code, answer.json()["code"]) == (413, "too_big")
