"""Every page in each of the four languages, with no untranslated key; the Japanese switch."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_harness import (
    DESKTOP,
    PHONE,
    NewPage,
    ServerProcess,
    begin_slide,
    guest,
    shot,
    untranslated,
    wait_finished,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "ja": "ja-JP", "it": "it-IT"}
QUICK_PLAY = {"en": "Quick play", "ja": "クイックプレイ"}


def open_table(client: Any, game: str) -> str:
    """A started table of ``game``: the client in seat 0, a casual bot in seat 1."""
    body = {
        "game": game,
        "seats": 2,
        "bots": {"1": "greedy"},
        "rated": False,
        "private": False,
        "pace": "realtime",
        "move_seconds": 3600,
        "seat": 0,
    }
    table_id: str = client.post("/api/tables", json=body).json()["table"]["id"]
    client.post(f"/api/tables/{table_id}/start").raise_for_status()
    return table_id


def rated_slide_game(alice: Any, bob: Any) -> str:
    """A rated 2-player Slide game between two people who make their first moves, then both
    leave: bots finish it and it is rated (leavers ranked last)."""
    body = {"game": "slide", "seats": 2, "rated": True, "pace": "realtime", "move_seconds": 3600}
    table_id: str = alice.post("/api/tables", json=body).json()["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", json={}).raise_for_status()
    alice.post(f"/api/tables/{table_id}/start").raise_for_status()
    begin_slide([alice, bob], table_id)
    for client in (bob, alice):
        client.post(f"/api/tables/{table_id}/leave").raise_for_status()
    wait_finished(alice, table_id)
    return table_id


@pytest.fixture(scope="module")
def tables(live: ServerProcess) -> dict[str, str]:
    """A running Summy table and two finished, rated Slide games (for a two-point chart)."""
    with live.client() as alice, live.client() as bob:
        user = guest(alice)
        guest(bob)
        running = open_table(alice, "summy")
        rated_slide_game(alice, bob)
        finished = rated_slide_game(alice, bob)
    return {"name": user["name"], "running": running, "finished": finished}


def pages(tables: dict[str, str]) -> dict[str, str]:
    """Every page, by a short name for its screenshot."""
    return {
        "home": "/",
        "signin": "/signin",
        "signup": "/signup",
        "rules-summy": "/rules/summy",
        "rules-slide": "/rules/slide",
        "leaderboard-summy": "/leaderboard/summy",
        "leaderboard-slide": "/leaderboard/slide",
        "profile": f"/profile/{tables['name']}",
        "table-summy": f"/table/{tables['running']}",
        "replay-slide": f"/replay/{tables['finished']}",
    }


READY = {
    "home": "#seat-rows select",
    "leaderboard-summy": "#leaderboard-rows tr, #leaderboard-empty:not([hidden])",
    "leaderboard-slide": "#leaderboard-rows tr, #leaderboard-empty:not([hidden])",
    "profile": "#profile-chart > *, #profile-error:not([hidden])",
    "table-summy": ".rack > *",
    "replay-slide": ".slide-mine > *",
}
"""What shows once a page's script has filled it in."""

PHONE_LANGUAGES = ("en", "ja")
"""Phone-width screenshots are taken in these (the layout does not change with the language)."""


def visit(page: Page, path: str, name: str) -> None:
    page.goto(path)
    if name in READY:
        page.locator(READY[name]).first.wait_for()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_every_language_has_no_untranslated_key(
    new_page: NewPage, tables: dict[str, str], lang: str
) -> None:
    sizes = [("desktop", DESKTOP)]
    if lang in PHONE_LANGUAGES:
        sizes.append(("phone", PHONE))
    for viewport_name, viewport in sizes:
        page = new_page(LANGUAGES[lang], viewport)
        for name, path in pages(tables).items():
            visit(page, path, name)
            assert page.locator("html").get_attribute("lang") == lang, path
            assert untranslated(page) == [], path
            if name == "profile":
                expect(page.locator("#profile-chart svg path.line")).to_have_count(1)
                # Where the player started, then the two rated games.
                expect(page.locator("#profile-chart svg circle")).to_have_count(3)
            shot(page, f"{name}-{lang}-{viewport_name}")


def test_switching_to_japanese_shows_japanese_on_the_lobby_and_a_table(
    new_page: NewPage, tables: dict[str, str]
) -> None:
    page = new_page("en-GB")
    page.goto("/")
    expect(page.get_by_role("button", name=QUICK_PLAY["en"]).first).to_be_visible()
    page.get_by_label("Language").select_option("ja")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("button", name=QUICK_PLAY["ja"]).first).to_be_visible()
    expect(page.get_by_role("heading", name="参加できるテーブル")).to_be_visible()
    # The choice is remembered: the next page is Japanese too, though the browser says English.
    page.goto(f"/table/{tables['running']}")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("heading", name="棋譜")).to_be_visible()
    expect(page.locator("#table-heading")).to_have_text("Summy")
    expect(page.locator(".rack")).to_contain_text("観戦中")
    assert untranslated(page) == []


def test_replay_steps_forward_and_back(new_page: NewPage, tables: dict[str, str]) -> None:
    page = new_page("fr-FR")
    page.goto(f"/replay/{tables['finished']}")
    step = page.locator("#replay-step")
    expect(step).to_contain_text("Coup 0 sur ")
    page.get_by_role("button", name="Coup suivant").click()
    expect(step).to_contain_text("Coup 1 sur ")
    expect(page.locator("#log li")).to_have_count(1)
    page.get_by_role("button", name="Dernier coup").click()
    expect(page.locator("#message")).to_have_text("La partie est terminée.")
    expect(page.locator(".slide-final")).to_contain_text("Grilles finales")
    page.get_by_role("button", name="Premier coup").click()
    expect(step).to_contain_text("Coup 0 sur ")
    expect(page.locator("#log li")).to_have_count(0)
    # Seen by the second player: their grid is the large one.
    second = page.locator("#replay-seat option").nth(2).inner_text()
    expect(page.locator(".slide-area h2").first).not_to_have_text(second)
    page.get_by_label("Vu par").select_option(index=2)
    expect(page.locator(".slide-area h2").first).to_have_text(second)
    expect(page.locator(".slide-mine .slide-card")).to_have_count(16)


def test_sign_up_shows_the_server_refusal_translated_then_signs_in(new_page: NewPage) -> None:
    page = new_page("fr-FR")
    page.goto("/signup")
    page.get_by_label("Nom").fill("ada_lovelace")
    page.get_by_label("Mot de passe").fill("short")
    page.get_by_role("button", name="Créer mon compte").click()
    expect(page.locator("#account-error")).to_have_text(
        "Le mot de passe est trop court : au moins 8 caractères."
    )
    page.get_by_label("Mot de passe").fill("a far better passphrase")
    page.get_by_role("button", name="Créer mon compte").click()
    page.wait_for_url("**/")
    expect(page.locator("#account-name")).to_have_text("ada_lovelace")
    expect(page.get_by_role("button", name="Jouer en invité")).to_be_hidden()
    page.get_by_role("button", name="Se déconnecter").click()
    expect(page.get_by_role("button", name="Jouer en invité")).to_be_visible()
    page.goto("/signin")
    page.get_by_label("Nom").fill("ada_lovelace")
    page.get_by_label("Mot de passe").fill("wrong password")
    page.get_by_role("button", name="Se connecter").last.click()
    expect(page.locator("#account-error")).to_have_text("Nom ou mot de passe incorrect.")


def test_the_create_form_offers_each_games_seats_bots_and_options(
    new_page: NewPage, live: ServerProcess
) -> None:
    page = new_page("en-GB")
    page.goto("/")
    form = page.locator("#create-form")
    match_to_100 = form.get_by_label("Match to 100 points (deal again until someone reaches 100)")
    form.get_by_label("Summy").check()
    expect(page.locator("#create-seats")).to_have_attribute("max", "2")
    expect(match_to_100).to_be_hidden()
    form.get_by_label("Slide").check()
    expect(page.locator("#create-seats")).to_have_attribute("max", "6")
    page.locator("#create-seats").fill("3")
    page.locator("#create-seats").dispatch_event("input")
    for seat in (1, 2):
        page.locator(f'select[name="seat-{seat}"]').select_option("bot:random")
    match_to_100.check()
    form.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/table/**")
    table_id = page.url.rsplit("/", 1)[-1]
    with live.client() as client:
        table = client.get(f"/api/tables/{table_id}").json()["table"]
    assert table["game"] == "slide" and table["seat_count"] == 3
    assert table["options"]["match_to_100"] is True
    assert table["options"]["lowest_reveal_starts"] is False
    assert [seat["bot"] for seat in table["seats"]] == [None, "random", "random"]


def test_the_lobby_shows_a_new_open_table_live(new_page: NewPage, live: ServerProcess) -> None:
    page = new_page("it-IT")
    page.goto("/")
    expect(page.locator("#lobby-live")).to_have_text("in diretta")
    with live.client() as client:
        guest(client)
        body = {"game": "slide", "seats": 3, "pace": "turn", "move_seconds": 86400}
        table_id = client.post("/api/tables", json=body).json()["table"]["id"]
        row = page.locator(f'#open-tables tr[data-table="{table_id}"]')
        expect(row).to_contain_text("Slide")
        expect(row).to_contain_text("24 ore a mossa")
        expect(row.get_by_role("link", name="Entra in questo tavolo di Slide")).to_be_visible()
        client.post(f"/api/tables/{table_id}/close").raise_for_status()
        expect(row).to_have_count(0)


def test_the_pages_translate_refusals_by_code_with_plural_forms(new_page: NewPage) -> None:
    page = new_page("fr-FR")
    page.goto("/")
    texts = page.evaluate(
        """async () => {
        const { translateRefusal } = await import("/static/js/i18n.js");
        return [
          translateRefusal("eq_false", { left: "2+3x4", value: "14", claimed: 20 }, "en"),
          translateRefusal("password_short", { count: 1 }, "en"),
          translateRefusal("password_short", { count: 8 }, "en"),
          translateRefusal("no_such_rule", {}, "the English"),
          translateRefusal("eq_false", {}, "the English when a field is missing"),
        ];
      }"""
    )
    assert texts == [
        "2+3x4 vaut 14, pas 20.",
        "Le mot de passe est trop court : au moins 1 caractère.",
        "Le mot de passe est trop court : au moins 8 caractères.",
        "the English",
        "the English when a field is missing",
    ]


def test_jumping_to_the_end_of_a_replay_takes_one_request(
    new_page: NewPage, tables: dict[str, str]
) -> None:
    page = new_page("en-GB")
    page.goto(f"/replay/{tables['finished']}")
    step = page.locator("#replay-step")
    expect(step).to_contain_text("Move 0 of ")
    total = int(step.inner_text().rsplit(" ", 1)[-1])
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.get_by_role("button", name="Last move").click()
    expect(step).to_contain_text(f"Move {total} of {total}")
    expect(page.locator("#log li")).to_have_count(total)
    expect(page.locator("#log li.current")).to_have_count(1)
    assert len([url for url in asked if "/replay?" in url]) == 1


def test_anonymous_page_loads_log_no_console_error(new_page: NewPage) -> None:
    page = new_page("en-GB")
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    for path in ("/", "/rules/summy", "/rules/slide", "/leaderboard/slide", "/signin"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    assert errors == []


def test_the_game_log_says_the_end_once_and_has_room_for_three_digit_numbers(
    new_page: NewPage, tables: dict[str, str]
) -> None:
    page = new_page("en-GB")
    page.goto(f"/table/{tables['finished']}")
    log = page.locator("#log li")
    expect(log.last).to_have_text("The game is over.")
    assert log.filter(has_text="The game is over.").count() == 1
    room = page.evaluate(
        """() => {
        const log = document.getElementById("log");
        const style = getComputedStyle(log);
        const canvas = document.createElement("canvas").getContext("2d");
        canvas.font = `${style.fontSize} ${style.fontFamily}`;
        return [parseFloat(style.paddingLeft), canvas.measureText("888. ").width];
      }"""
    )
    assert room[0] >= room[1], room


def test_a_guests_header_offers_an_account_and_nothing_contradictory(new_page: NewPage) -> None:
    page = new_page("en-GB")
    page.goto("/")
    header = page.locator("#account")
    expect(header.get_by_role("link", name="Sign in")).to_be_visible()
    page.get_by_role("button", name="Play as guest").click()
    expect(page.locator("#account-name")).to_have_text(re.compile(r"^guest-"))
    expect(header.get_by_role("link", name="Create an account")).to_be_visible()
    # A guest who has an account elsewhere signs in to it (issue 29).
    expect(header.get_by_role("link", name="Sign in")).to_be_visible()
    for hidden in (
        header.get_by_role("link", name="Account", exact=True),
        header.get_by_role("button", name="Sign out"),
        header.get_by_role("button", name="Play as guest"),
    ):
        expect(hidden).to_be_hidden()


def test_play_a_bot_takes_the_chosen_level_number_and_clock_and_remembers_them(
    new_page: NewPage, live: ServerProcess
) -> None:
    page = new_page("en-GB")
    page.goto("/")
    card = page.locator("#card-slide")
    expect(card.get_by_label("Clock")).to_have_value("realtime:600")  # ten minutes a move
    card.get_by_label("Bot level").select_option("strong")
    card.get_by_label("Bots").select_option("3")
    card.get_by_label("Clock").select_option("turn:86400")
    card.get_by_role("button", name="Play a bot").click()
    page.wait_for_url("**/table/**")
    with live.client() as client:  # the table is private: ask as its player
        client.cookies.update({c["name"]: c["value"] for c in page.context.cookies()})
        table = client.get(f"/api/tables/{page.url.rsplit('/', 1)[-1]}").json()["table"]
    assert table["seat_count"] == 4 and table["status"] == "playing"
    assert [seat["bot"] for seat in table["seats"]] == [None, "strong", "strong", "strong"]
    assert (table["pace"], table["move_seconds"]) == ("turn", 86400)
    page.goto("/")
    expect(page.locator("#card-slide").get_by_label("Clock")).to_have_value("turn:86400")
    expect(page.locator("#card-slide").get_by_label("Bot level")).to_have_value("strong")
    expect(page.locator("#card-slide").get_by_label("Bots")).to_have_value("3")
    expect(page.locator("#card-summy").get_by_label("Bots")).to_have_count(0)  # two seats only


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_is_wider_than_a_phone_in_any_language(
    new_page: NewPage, tables: dict[str, str], lang: str
) -> None:
    page = new_page(LANGUAGES[lang], {"width": 390, "height": 844})
    wide = []
    for name, path in pages(tables).items():
        visit(page, path, name)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide.append((name, width))
    assert wide == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_page_is_wider_than_a_desktop_window(
    new_page: NewPage, tables: dict[str, str], lang: str
) -> None:
    page = new_page(LANGUAGES[lang], {"width": 1280, "height": 800})
    wide = []
    for name, path in pages(tables).items():
        visit(page, path, name)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 1280:
            wide.append((name, width))
    assert wide == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_desktop_header_is_one_line_in_every_language(new_page: NewPage, lang: str) -> None:
    page = new_page(LANGUAGES[lang], {"width": 1280, "height": 800})
    page.goto("/")
    brand = page.locator("header.site .brand").bounding_box()
    switch = page.locator("header.site .lang").bounding_box()
    assert brand is not None and switch is not None
    assert abs((switch["y"] + switch["height"] / 2) - (brand["y"] + brand["height"] / 2)) < 12


def test_summy_refusals_show_the_tiles_as_the_board_does(new_page: NewPage) -> None:
    page = new_page("fr-FR")
    page.goto("/")
    text = page.evaluate(
        """async () => {
        const { translateRefusal } = await import("/static/js/i18n.js");
        const { showParams } = await import("/static/js/games/summy/ui.js");
        const params = showParams({ left: "2x3:1-1", value: "5", claimed: 7 });
        return translateRefusal("eq_false", params, "2x3:1-1 is 5, not 7");
      }"""
    )
    assert text == "2×3÷1−1 vaut 5, pas 7."


def test_a_summy_replay_shows_the_game_not_the_table_tools(
    new_page: NewPage, live: ServerProcess
) -> None:
    with live.client() as client:
        guest(client)
        body = {"game": "summy", "seats": 2, "bots": {"0": "greedy", "1": "greedy"}, "sit": False}
        table_id = client.post("/api/tables", json=body).json()["table"]["id"]
        client.post(f"/api/tables/{table_id}/start").raise_for_status()
        wait_finished(client, table_id)
    page = new_page("en-GB")
    page.goto(f"/replay/{table_id}")
    expect(page.locator("#replay-step")).to_contain_text("Move 0 of ")
    expect(page.locator(".summy-viewport")).to_be_visible()
    expect(page.get_by_text("How to place tiles")).to_have_count(0)
    expect(page.get_by_text("You are watching: hands are hidden.")).to_have_count(0)
    expect(page.get_by_role("button", name="Play this equation")).to_have_count(0)


def test_a_profile_asked_for_in_another_spelling_shows_the_players_own(
    new_page: NewPage, live: ServerProcess
) -> None:
    name = f"Dora{live.port % 10_000}"
    with live.client() as client:
        body = {"name": name, "password": "a long enough secret"}
        client.post("/api/auth/register", json=body).raise_for_status()
    page = new_page()
    page.goto(f"/profile/{name.lower()}")
    expect(page.get_by_role("heading", level=1, name=name, exact=True)).to_be_visible()
    expect(page).to_have_url(re.compile(f"/profile/{name}$"))
    assert name in page.title()
