"""A third game with no change to meeple's generic code: the test-only toy Nim (tests/toy).

The server loads it as an operator would load any game, ``MEEPLE_EXTRA_GAMES``;
a person then plays a whole game of it against a bot in the browser, through
the same lobby API, table page, WebSocket and replay as Summy and Slide.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import ServerProcess, own_server, wait_finished
from conftest import NewPage
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TOY = Path(__file__).resolve().parents[1] / "toy"


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
        assert client.get("/rules/nim").status_code == 404  # no rules page: a plain refusal


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
