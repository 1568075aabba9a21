"""The tutorial routes and page: the steps in the page's language, a move judged by the engine
(its code and message, translated) or by the step, 404 for a game without one or a step past
the end; the home page links each game's tutorial and the table page carries the offer."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from meeple.errors import TableError
from meeple.games import games_with
from meeple.games.kit.tutorial import tutorial_of
from meeple.i18n import LANGUAGES
from meeple.web.errors import table_error_answer
from meeple.web.pages import mount_static, router
from meeple.web.routes import tutorials

SUMMY_FIRST = {
    "type": "place",
    "dir": "H",
    "tiles": [
        {"row": 0, "col": -3, "tile": "2"},
        {"row": 0, "col": -2, "tile": "+"},
        {"row": 0, "col": -1, "tile": "3"},
        {"row": 0, "col": 1, "tile": "4"},
    ],
}
"""2+3=4 through the start =: false."""


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.add_exception_handler(TableError, table_error_answer)  # type: ignore[arg-type]
    app.include_router(router)
    app.include_router(tutorials.router)
    mount_static(app)
    return TestClient(app)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", games_with("tutorial"))
def test_the_steps_come_in_the_pages_language_with_their_positions(
    client: TestClient, game: str, lang: str
) -> None:
    answer = client.get(f"/api/tutorials/{game}", headers={"Accept-Language": lang})
    assert answer.status_code == 200
    body = answer.json()
    tutorial = tutorial_of(game)
    assert tutorial is not None and body["game"] == game
    assert [step["key"] for step in body["steps"]] == [s.key for s in tutorial.steps]
    for index, (shown, step) in enumerate(zip(body["steps"], tutorial.steps, strict=True)):
        assert shown["index"] == index and shown["seat"] == step.seat
        assert shown["view"] == tutorial.game.view(step.state, step.seat)
        for part in ("title", "text", "done"):
            assert shown[part] and not re.search(r"learn\.|\{\w*\}", shown[part]), shown[part]


@pytest.mark.parametrize("game", games_with("tutorial"))
def test_every_steps_example_is_done_with_the_view_after_it(client: TestClient, game: str) -> None:
    tutorial = tutorial_of(game)
    assert tutorial is not None
    for index, step in enumerate(tutorial.steps):
        answer = client.post(f"/api/tutorials/{game}/{index}", json={"action": step.example})
        assert answer.status_code == 200, answer.text
        verdict = answer.json()
        after, effects = tutorial.attempt(index, step.example)
        assert verdict == {
            "ok": True,
            "view": tutorial.game.view(after, step.seat),
            "events": effects,
        }


def test_a_wrong_move_gets_the_engines_code_and_its_message_in_french(client: TestClient) -> None:
    answer = client.post(
        "/api/tutorials/summy/0", json={"action": SUMMY_FIRST}, headers={"Accept-Language": "fr"}
    )
    assert answer.status_code == 200
    verdict = answer.json()
    assert (verdict["ok"], verdict["reason"]) == (False, "eq_false")
    assert verdict["params"] == {"left": "2+3", "value": "5", "claimed": 4}
    assert (verdict["message_en"], verdict["message"]) == ("2+3 is 5, not 4", "2+3 vaut 5, pas 4.")
    assert "view" not in verdict
    malformed = client.post("/api/tutorials/summy/0", json={"action": {"type": "dance"}})
    assert (malformed.json()["ok"], malformed.json()["reason"]) == (False, "illegal")
    assert "unknown action type" in malformed.json()["message_en"]


def test_a_legal_move_off_the_lesson_gets_the_steps_code(client: TestClient) -> None:
    discard = {"type": "discard", "tiles": ["8"]}
    verdict = client.post("/api/tutorials/summy/0", json={"action": discard}).json()
    assert verdict == {
        "ok": False,
        "events": [],
        "reason": "learn_place",
        "message": "This step asks you to make an equation.",
        "message_en": "this step asks you to make an equation",
        "params": {},
    }
    take = {"type": "take", "value": 7, "side": "right"}
    verdict = client.post(
        "/api/tutorials/slide/2", json={"action": take}, headers={"Accept-Language": "ja"}
    ).json()
    assert (verdict["reason"], verdict["params"]) == ("learn_cancel", {"value": 7})
    assert verdict["message"] == "7 の隣に別の 7 がないので、消えません。"


def test_no_tutorial_no_step_and_a_bad_body_are_refused(client: TestClient) -> None:
    for path in ("/api/tutorials/chess", "/api/tutorials/chess/0"):
        method = client.get if path.count("/") == 3 else client.post
        answer = method(path, **({} if method == client.get else {"json": {"action": {}}}))
        assert (answer.status_code, answer.json()["code"]) == (404, "no_feature"), path
    for step in (-1, 5, 99):
        answer = client.post(f"/api/tutorials/summy/{step}", json={"action": SUMMY_FIRST})
        assert (answer.status_code, answer.json()["code"]) == (404, "no_path"), step
    extra = client.post("/api/tutorials/summy/0", json={"action": SUMMY_FIRST, "seat": 1})
    assert extra.status_code == 422


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_and_the_home_pages_links(client: TestClient, lang: str) -> None:
    for game in games_with("tutorial"):
        page = client.get(f"/learn/{game}", headers={"Accept-Language": lang})
        assert page.status_code == 200 and f'data-game="{game}"' in page.text
        assert "/static/js/learn.js" in page.text
    assert client.get("/learn/chess").status_code == 404
    home = client.get("/", headers={"Accept-Language": lang}).text
    assert all(f'href="/learn/{game}"' in home for game in games_with("tutorial"))
    table = client.get("/table/abc", headers={"Accept-Language": lang}).text
    offer = re.search(r'id="learn-offer"[^>]*data-games="([^"]*)"[^>]*hidden', table)
    assert offer is not None and set(offer.group(1).split()) == set(games_with("tutorial"))
