"""The pages router: every page in every language, the language switch, the staged-tiles check."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from meeple.errors import TableError
from meeple.games import GAME_NAMES
from meeple.i18n import LANG_COOKIE, LANGUAGES, catalog
from meeple.web.errors import table_error_answer
from meeple.web.pages import mount_static, router
from meeple.web.routes import games

PAGES = (
    "/",
    "/signin",
    "/signup",
    "/rules/summy",
    "/rules/slide",
    "/leaderboard/summy",
    "/leaderboard/slide",
    "/profile/ada",
    "/table/t1",
    "/replay/t1",
    "/learn/summy",
    "/learn/slide",
    "/friends",
)

KEY_SHAPE = re.compile(
    r"\b(?:nav|home|lobby|create|account|profile|leaderboard|rules|table|replay|"
    r"site|game|bot|pace|js|engine|learn|friends)\.[a-z_]+(?:\.[a-z_]+)*\b"
)


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.add_exception_handler(TableError, table_error_answer)  # type: ignore[arg-type]
    app.include_router(router)
    app.include_router(games.router)
    mount_static(app)
    return TestClient(app)


def visible_html(html: str) -> str:
    """The page without the embedded script catalog and the notification kinds' keys (both meant
    for the scripts) and links."""
    html = re.sub(r'<script type="application/json" id="i18n">.*?</script>', "", html, flags=re.S)
    html = re.sub(r"data-kinds='[^']*'", "", html)
    return re.sub(r'(?:src|href)="[^"]*"', "", html)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_in_every_language_without_raw_keys(
    client: TestClient, path: str, lang: str
) -> None:
    response = client.get(path, headers={"Accept-Language": lang})
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.text
    assert response.headers["content-language"] == lang
    assert KEY_SHAPE.findall(visible_html(response.text)) == []


@pytest.mark.parametrize(
    ("accept", "cookie", "shown"),
    [
        ("ja,en;q=0.5", None, "ja"),
        ("de-DE,de;q=0.9,it;q=0.8", None, "it"),
        ("fr-CA", None, "fr"),
        ("de", None, "en"),
        (None, None, "en"),
        ("ja", "it", "it"),
        ("ja", "xx", "ja"),
    ],
)
def test_language_follows_cookie_then_browser(
    client: TestClient, accept: str | None, cookie: str | None, shown: str
) -> None:
    headers = {"Accept-Language": accept} if accept else {}
    cookies = {LANG_COOKIE: cookie} if cookie else {}
    client.cookies.clear()
    for name, value in cookies.items():
        client.cookies.set(name, value)
    response = client.get("/", headers=headers)
    client.cookies.clear()
    assert f'<html lang="{shown}">' in response.text


@pytest.mark.parametrize(
    ("next_page", "location"),
    [("/rules/slide", "/rules/slide"), ("//evil.example/", "/"), ("https://evil.example/", "/")],
)
def test_switching_language_sets_the_cookie_and_goes_back(
    client: TestClient, next_page: str, location: str
) -> None:
    response = client.get("/lang", params={"code": "ja", "next": next_page}, follow_redirects=False)
    client.cookies.clear()
    assert response.status_code == 303
    assert response.headers["location"] == location
    assert f"{LANG_COOKIE}=ja" in response.headers["set-cookie"]


def test_unknown_language_and_game_are_refused(client: TestClient) -> None:
    assert client.get("/lang", params={"code": "xx"}).status_code == 400
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/i18n/xx.json").status_code == 404


def test_script_catalog_holds_script_keys_and_refusals_by_code(client: TestClient) -> None:
    data = client.get("/i18n/fr.json").json()
    assert data["lang"] == "fr"
    assert data["messages"]["js.table.your_turn"] == "À vous de jouer"
    assert all(
        key.split(".")[0] in {"js", "game", "bot", "pace", "engine"} for key in data["messages"]
    )
    assert "patterns" not in data
    assert data["messages"]["engine.not_one_row"].startswith("Les tuiles posées")
    assert set(data["messages"]["engine.password_short"]) == {"one", "many", "other"}


START = [{"row": 0, "col": 0, "tile": "="}]
HAND = ["1", "+", "1", "2", "3", "4", "x", "="]


def staged(*tiles: tuple[int, int, str], direction: str = "H") -> dict[str, object]:
    return {"dir": direction, "tiles": [{"row": r, "col": c, "tile": t} for r, c, t in tiles]}


@pytest.mark.parametrize(
    ("placement", "lang", "expected"),
    [
        (
            staged((0, -3, "1"), (0, -2, "+"), (0, -1, "1"), (0, 1, "2")),
            "en",
            {"legal": True, "score": 4, "text": "1+1=2"},
        ),
        (
            staged((0, -3, "1"), (0, -2, "+"), (0, -1, "1"), (0, 1, "3")),
            "fr",
            {
                "legal": False,
                "message": "1+1 vaut 2, pas 3.",
                "message_en": "1+1 is 2, not 3",
                "reason": "eq_false",
                "params": {"left": "1+1", "value": "2", "claimed": 3},
            },
        ),
        (
            staged((0, -3, "1"), (1, -2, "+")),
            "it",
            {
                "legal": False,
                "message": "Le tessere posate non sono tutte nella stessa riga.",
                "message_en": "the placed tiles are not all in one row",
                "reason": "not_one_row",
                "params": {},
            },
        ),
        (
            staged((0, -3, "1"), (0, -2, "+"), (0, -1, "9"), (0, 1, "2")),
            "ja",
            {
                "legal": False,
                "message": "タイル 9 は手にありません。",
                "message_en": "tile 9 is not in your hand",
                "reason": "not_in_hand",
                "params": {"tile": "9"},
            },
        ),
    ],
)
def test_staged_tiles_are_checked_by_the_engine_in_the_page_language(
    client: TestClient, placement: dict[str, object], lang: str, expected: dict[str, object]
) -> None:
    position = {"tiles": START, "equations": [], "hand": HAND}
    body = {"position": position, "action": {"type": "place", **placement}}
    response = client.post("/api/games/summy/preview", json=body, headers={"Accept-Language": lang})
    assert response.status_code == 200
    assert response.json() == expected


def test_a_malformed_preview_is_refused_and_a_game_without_previews_has_none(
    client: TestClient,
) -> None:
    place = {"type": "place", "dir": "H", "tiles": []}
    bad_position = {"position": {"tiles": 5, "equations": [], "hand": []}, "action": place}
    assert client.post("/api/games/summy/preview", json=bad_position).status_code == 422
    position = {"tiles": START, "equations": [], "hand": HAND}
    odd_action = {"position": position, "action": {"type": "place", "dir": "Z", "tiles": []}}
    answer = client.post("/api/games/summy/preview", json=odd_action).json()
    assert answer["legal"] is False and "'dir'" in answer["message_en"]
    reveal = {"position": {}, "action": {"type": "reveal", "cell": [0, 0]}}
    assert client.post("/api/games/slide/preview", json=reveal).status_code == 404
    assert client.post("/api/games/chess/preview", json=reveal).status_code == 404


def test_catalog_texts_escape_html(client: TestClient) -> None:
    response = client.get("/profile/%3Cb%3Ex")
    assert "<b>x" not in response.text
    assert "&lt;b&gt;x" in response.text
    assert catalog("en").gettext("profile.title", name="x") == "x"


def test_the_game_modules_come_from_the_registry(client: TestClient) -> None:
    response = client.get("/js/games.js")
    assert response.headers["content-type"].startswith("text/javascript")
    for name in GAME_NAMES:
        assert f'"/static/js/games/{name}/ui.js"' in response.text
        assert client.get(f"/static/js/games/{name}/ui.js").status_code == 200
    assert "export const GAMES = {" in response.text


def test_a_preview_with_an_absurd_equation_length_is_refused_at_once(client: TestClient) -> None:
    # Walking the cells of a 10**12-cell equation once hung a server thread.
    equation = {"row": 0, "col": 0, "dir": "H", "length": 10**12}
    position = {"tiles": START, "equations": [equation], "hand": HAND}
    body = {"position": position, "action": {"type": "place", "dir": "H", "tiles": []}}
    response = client.post("/api/games/summy/preview", json=body)
    assert response.status_code == 422 and "does not match the tiles" in response.text


def test_the_script_catalog_is_a_versioned_file_the_browser_may_keep(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "it"}).text
    url = re.search(r'<meta name="meeple-catalog" content="([^"]+)">', page)
    assert url is not None and url.group(1).startswith("/i18n/it.json?v=")
    assert "js.table.your_turn" not in page  # no longer embedded in every page
    kept = client.get(url.group(1))
    assert kept.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert kept.json()["lang"] == "it"
    assert client.get("/i18n/it.json?v=old").headers["cache-control"] == "no-cache"
