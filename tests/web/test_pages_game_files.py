"""A game's own page files, through the registry: Nim (tests/toy), loaded as a plugin, brings its
stylesheet, its texts in four languages, its rules page and its picture from its own folder."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from meeple import games, i18n
from meeple.i18n import LANG_COOKIE, LANGUAGES, catalog
from meeple.plugins import load_games
from meeple.web.pages import mount_static, router
from meeple.web.routes import games as games_routes

TOY = Path(__file__).resolve().parents[1] / "toy"
NIM_KEYS = re.compile(r"\b(?:game|nav|home|rules|engine|js)\.[a-z_]*nim[a-z_.]*\b")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The pages of a server that loaded Nim; Nim is unregistered afterwards."""
    sys.path.insert(0, str(TOY))
    load_games(["meeple_nim"])
    app = FastAPI()
    app.include_router(router)
    app.include_router(games_routes.router)
    mount_static(app)
    try:
        yield TestClient(app)
    finally:
        games.GAME_NAMES.remove("nim")
        del games._MODULES["nim"], games.BROWSER_DIRS["nim"]
        sys.path.remove(str(TOY))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nims_rules_page_shows_its_own_words(client: TestClient, lang: str) -> None:
    page = client.get("/rules/nim", cookies={LANG_COOKIE: lang})
    assert page.status_code == 200
    words = catalog(lang)
    assert words.gettext("rules.nim.title") != "rules.nim.title"
    assert f"<h1>{words.gettext('rules.nim.title')}</h1>" in page.text
    assert words.gettext("rules.nim.turn") in page.text
    assert not NIM_KEYS.findall(page.text.replace("/rules/nim", ""))


def test_nims_stylesheet_and_picture_are_linked_and_served(client: TestClient) -> None:
    home = client.get("/").text
    assert '<link rel="stylesheet" href="/static/js/games/nim/game.css">' in home
    assert '<link rel="stylesheet" href="/static/js/games/summy/game.css">' in home
    assert '<img src="/static/js/games/nim/picture.svg"' in home
    assert ">Nim</h2>" in home and "game.nim" not in home and "home.pitch_nim" not in home
    sheet = client.get("/static/js/games/nim/game.css")
    assert sheet.status_code == 200 and ".nim-piles" in sheet.text
    assert client.get("/static/js/games/nim/picture.svg").text.startswith("<svg")
    # A built-in game's are served from meeple's static folder the same way.
    assert ".summy-viewport" in client.get("/static/js/games/summy/game.css").text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_script_catalog_of_each_language_holds_nims_texts(
    client: TestClient, lang: str
) -> None:
    messages = json.loads(client.get(f"/i18n/{lang}.json").content)["messages"]
    own = catalog(lang)
    for key in ("game.nim", "engine.nim_take", "engine.reason_nim", "js.nim.take", "js.nim.best"):
        assert messages[key] == own.gettext(key) != key
    assert messages["game.nim"] == ("ニム" if lang == "ja" else "Nim")
    assert "rules.nim.title" not in messages  # a page's text, not a script's


def test_meeples_own_texts_win_a_clash_with_a_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    folder = tmp_path / "messages"
    folder.mkdir()
    (folder / "en.po").write_text(
        'msgid "nav.play"\nmsgstr "Grab counters"\n\n'
        'msgid "js.nim.extra"\nmsgstr "Only Nim says this"\n'
    )
    monkeypatch.setitem(games.BROWSER_DIRS, "nim", tmp_path)
    i18n._catalog.cache_clear()  # read once per set of games: Nim's folder changed under it
    try:
        words = catalog("fr")  # a language the game lacks takes its English file
        assert words.gettext("nav.play") == "Jouer"
        assert words.gettext("js.nim.extra") == "Only Nim says this"
    finally:
        i18n._catalog.cache_clear()


def test_a_game_without_a_rules_page_or_analysis_page_answers_404(client: TestClient) -> None:
    assert client.get("/analysis/nim").status_code == 404
    assert client.get("/rules/nope").status_code == 404
    assert client.get("/rules/summy").status_code == 200


def test_nims_catalog_has_every_key_it_uses_in_every_language(client: TestClient) -> None:
    folder = games.browser_folder("nim")
    english = i18n.game_catalog("nim", "en")
    assert english is not None
    for lang in LANGUAGES:
        own = i18n.game_catalog("nim", lang)
        assert own is not None and own.lang == lang  # its own file, not the English fallback
        assert own.messages.keys() == english.messages.keys()
        for key, text in english.messages.items():
            assert set(re.findall(r"\{(\w*)\}", own.messages[key])) == set(
                re.findall(r"\{(\w*)\}", text)
            ), (lang, key)
    used = set(re.findall(r"""_\(["']([a-z_.]+[a-z_])["']""", (folder / "rules.html").read_text()))
    used |= set(re.findall(r"""\bt\("([a-z_.]+[a-z_])"[,)]""", (folder / "ui.js").read_text()))
    assert len(used) > 10
    assert sorted(used - english.messages.keys() - catalog("en").messages.keys()) == []
