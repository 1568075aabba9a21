"""A third game with no change to meeple's generic code: the test-only toy Nim (tests/toy).

The server loads it as an operator would load any game, ``MEEPLE_EXTRA_GAMES``;
a person then plays a whole game of it against a bot in the browser, through
the same lobby API, table page, WebSocket and replay as Summy and Slide. Its
optional features come through the registry too: its reviewer (declared in its
``FEATURES``) reviews a finished game and the replay marks the best take; the
features it lacks (puzzles, an analysis board) are refused with ``no_feature``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_harness import (
    NewPage,
    ServerProcess,
    guest,
    own_server,
    shot,
    untranslated,
    wait_finished,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TOY = Path(__file__).resolve().parents[1] / "toy"
sys.path.insert(0, str(TOY))
from meeple_nim import winning_take  # noqa: E402 (the toy is not a package)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that loads the toy game besides the built-in ones."""
    path = os.pathsep.join(filter(None, [str(TOY), os.environ.get("PYTHONPATH", "")]))
    env = {"MEEPLE_EXTRA_GAMES": "meeple_nim", "PYTHONPATH": path}
    with own_server(Path(tmp_path_factory.mktemp("meeple-toy")), env) as server:
        yield server


def test_the_registry_offers_the_toy_game_with_its_bots(live: ServerProcess) -> None:
    with live.client() as client:
        games = {game["name"]: game for game in client.get("/api/games").json()}
        assert games["nim"]["bot_levels"] == ["random", "greedy"]
        assert (games["nim"]["min_players"], games["nim"]["max_players"]) == (2, 2)
        assert "nim" in client.get("/js/games.js").text
        assert client.get("/static/js/games/nim/ui.js").status_code == 200
        assert "Nim: the rules" in client.get("/rules/nim").text  # its folder's rules.html
        assert client.get("/static/js/games/nim/game.css").status_code == 200
        assert client.get("/analysis/nim").status_code == 404  # no board: a plain refusal


def test_a_person_plays_the_toy_game_to_the_end_in_the_browser(
    new_page: NewPage, live: ServerProcess
) -> None:
    page = new_page("en-GB")
    page.goto("/")
    page.get_by_role("button", name="Play as guest").click()
    expect(page.locator("#account-name")).not_to_be_empty()
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    with live.client() as client:
        client.cookies.update(cookies)
        body = {"game": "nim", "seats": 2, "bots": {"1": "greedy"}, "move_seconds": 3600}
        table_id = client.post("/api/tables", json=body).json()["table"]["id"]
        client.post(f"/api/tables/{table_id}/start").raise_for_status()
        page.goto(f"/table/{table_id}")
        moves = 0
        for _ in range(600):  # 12 counters: a dozen moves at most; 60 s of patience
            table = client.get(f"/api/tables/{table_id}").json()["table"]
            if table["status"] == "finished":
                break
            buttons = page.locator("#game button:enabled")
            if 0 in table["to_act"] and buttons.count():
                buttons.first.click()  # "Take 1 from pile N": the smallest take there is
                moves += 1
                for _wait in range(200):  # until the server has the move
                    now = client.get(f"/api/tables/{table_id}").json()["table"]["version"]
                    if now != table["version"]:
                        break
                    page.wait_for_timeout(50)
            else:
                page.wait_for_timeout(100)
        assert moves >= 1
        table = wait_finished(client, table_id)
        assert table["status"] == "finished"
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert record["game"] == "nim" and record["actions"]
    page.goto(f"/replay/{table_id}")
    expect(page.locator("#game")).to_contain_text("Pile 1")
    # Nim's texts and look come from its own folder: its name, never a catalog key, and
    # the felt of its game.css under the piles.
    expect(page.locator("main")).to_contain_text("Nim")
    assert untranslated(page) == []
    piles = page.locator(".nim-piles")
    assert piles.evaluate("e => getComputedStyle(e).borderTopLeftRadius") == "10px"
    assert piles.evaluate("e => getComputedStyle(e).color") == "rgb(255, 255, 255)"
    french = new_page("fr")
    french.goto(f"/replay/{table_id}")
    expect(french.locator("#game")).to_contain_text("Tas 1")
    assert untranslated(french) == []
    french.goto("/rules/nim")
    expect(french.locator("h1")).to_have_text("Le Nim : les règles")


def finished_nim_game(live: ServerProcess) -> str:
    """A finished Nim game of two greedy bots, opened by a guest; its table's id."""
    with live.client() as client:
        guest(client)
        body = {"game": "nim", "seats": 2, "bots": {"0": "greedy", "1": "greedy"}, "sit": False}
        table_id: str = client.post("/api/tables", json=body).json()["table"]["id"]
        client.post(f"/api/tables/{table_id}/start").raise_for_status()
        wait_finished(client, table_id)
    return table_id


@pytest.mark.parametrize(("lang", "name"), [("en-GB", "Nim"), ("fr", "Nim"), ("ja", "ニム")])
def test_every_page_that_names_a_game_names_the_toy_game_in_its_own_words(
    new_page: NewPage, live: ServerProcess, lang: str, name: str
) -> None:
    # Issue 28 left Nim's replay showing catalog keys (game.nim, nav.rules_nim): a page
    # naming a game must find the name, like the game's look and rules page, through the
    # registry, for a game of MEEPLE_EXTRA_GAMES as for a built-in one.
    table_id = finished_nim_game(live)
    page = new_page(lang)
    for path, named in (
        ("/", page.locator("main h2", has_text=name)),
        (f"/table/{table_id}", page.locator("#table-heading")),
        (f"/replay/{table_id}", page.locator("#replay h1")),
        ("/leaderboard/nim", page.locator("main h1")),
        ("/rules/nim", page.locator("main h1")),
    ):
        page.goto(path)
        expect(named.first).to_contain_text(name)
        assert untranslated(page) == [], path


def reviewed_nim_game(live: ServerProcess) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A finished Nim game of a random bot against a greedy one, its record and its review."""
    with live.client() as client:
        guest(client)
        body = {"game": "nim", "seats": 2, "bots": {"0": "random", "1": "greedy"}, "sit": False}
        table_id = client.post("/api/tables", json=body).json()["table"]["id"]
        client.post(f"/api/tables/{table_id}/start").raise_for_status()
        wait_finished(client, table_id)
        record = client.get(f"/api/tables/{table_id}/record").json()
        for _ in range(300):
            answer = client.get(f"/api/tables/{table_id}/review")
            if answer.status_code == 200:
                return table_id, record, answer.json()
            assert answer.json()["code"] == "not_reviewed"
            time.sleep(0.2)
    raise AssertionError("the server never reviewed the Nim game")


def test_the_toy_game_is_reviewed_and_its_replay_marks_the_best_take(
    new_page: NewPage, live: ServerProcess
) -> None:
    table_id, record, review = reviewed_nim_game(live)
    assert review["game"] == "nim"
    piles = [3, 4, 5]
    for index, (line, (seat, action)) in enumerate(
        zip(review["lines"], record["actions"], strict=True)
    ):
        best = winning_take(piles)
        assert (line["index"], line["seat"], line["played"]) == (index, seat, action)
        assert line["best"] == (None if best is None else best._asdict() | {"type": "take"})
        piles[action["pile"]] -= action["count"]
        assert line["found"] == (best is None or winning_take(piles) is None)
    assert sum(s["turns"] for s in review["summary"]) == len(record["actions"])
    # The first position (3, 4, 5) has one winning take: 2 from the first pile.
    assert review["lines"][0]["best"] == {"type": "take", "pile": 0, "count": 2}
    page = new_page("en-GB")
    page.goto(f"/replay/{table_id}")
    marked = page.locator("#game button.nim-best")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("aria-label", "Take 2 from pile 1 (best)")
    expect(page.locator("#review-line")).to_contain_text("Best: take 2 from pile 1")
    expect(page.locator(".review-summary").first).to_contain_text("kept the win")
    # A step in a lost position marks nothing.
    lost = next((line["index"] for line in review["lines"] if line["best"] is None), None)
    if lost is not None:
        for _ in range(lost):
            page.locator("#replay-forward").click()
        expect(page.locator("#replay-step")).to_contain_text(f"Move {lost} of ")
        expect(marked).to_have_count(0)
        expect(page.locator("#review-line")).to_contain_text("No winning take")
    shot(page, "replay-review-nim")


def test_features_the_toy_game_lacks_are_refused_with_a_code(live: ServerProcess) -> None:
    with live.client() as client:
        for method, path in (
            ("GET", "/api/puzzles/nim/daily"),
            ("GET", "/api/puzzles/nim/next"),
            ("POST", "/api/puzzles/nim/abc/answer"),
            ("POST", "/api/analysis/nim"),
        ):
            answer = client.request(method, path, json={})
            assert answer.status_code == 404, (path, answer.text)
            assert answer.json()["code"] == "no_feature", path
        assert client.get("/puzzles/nim").status_code == 404
        assert client.get("/analysis/nim").status_code == 404
        home = client.get("/").text
        assert "/puzzles/summy/daily" in home and "/puzzles/nim" not in home
