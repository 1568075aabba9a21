"""The tutorials, finished in a real browser: Summy in English on a laptop (1280x800, every step
from the home page's link, a wrong move at each refused in the engine's words) and in Japanese on
a phone (390x844, by taps, nothing wider than the screen), Slide once in French on a phone (both
phones in the dark theme);
axe-core finds nothing, no text is left untranslated. A table offers the tutorial at a player's
first game, until dismissed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_harness import NewPage, shot, untranslated
from playwright.sync_api import Page, Route, ViewportSize, expect
from test_browser_axe import violations

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
KEYS = {"x": "*", ":": "/"}
Tiles = tuple[tuple[int, int, str], ...]

FIRST: Tiles = ((0, -3, "2"), (0, -2, "+"), (0, -1, "3"), (0, 1, "5"))
FALSE: Tiles = ((0, -3, "2"), (0, -2, "+"), (0, -1, "3"), (0, 1, "4"))
OWN_EQUALS: Tiles = ((1, -1, "x"), (2, -1, "2"), (3, -1, "="), (4, -1, "6"))
THROUGH_OLD_EQUALS: Tiles = ((-3, 0, "8"), (-2, 0, "-"), (-1, 0, "2"), (1, 0, "6"))
BUILD: Tiles = ((4, 0, "+"), (4, 1, "9"), (4, 2, "="), (4, 3, "1"), (4, 4, "5"))
TOO_FEW: Tiles = ((1, 1, "+"), (2, 1, "4"), (3, 1, "="), (4, 1, "9"))
LENGTHEN: Tiles = ((0, 2, "1"),)


def no_key_shows(page: Page) -> None:
    """Nothing untranslated: no catalog key, the tutorial's own ones included."""
    assert untranslated(page) == []
    assert not re.search(r"\blearn\.[a-z_]+\.", page.locator("body").inner_text())


def no_wider_than_the_screen(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] if page.viewport_size else True, width


def cursor(page: Page) -> tuple[int, int]:
    at = page.locator(".summy-viewport .cell.cursor").get_attribute("data-cell") or "0,0"
    row, col = at.split(",")
    return int(row), int(col)


def type_tiles(page: Page, tiles: Tiles) -> None:
    """Stage each tile with the keyboard: the board's cursor walks to its cell (the felt
    follows it) and the tile is typed."""
    page.locator(".summy-viewport").focus()
    for row, col, tile in tiles:
        at_row, at_col = cursor(page)
        for _ in range(abs(row - at_row)):
            page.keyboard.press("ArrowDown" if row > at_row else "ArrowUp")
        for _ in range(abs(col - at_col)):
            page.keyboard.press("ArrowRight" if col > at_col else "ArrowLeft")
        page.keyboard.press(KEYS.get(tile, tile))
    if len(tiles) == 1:
        page.locator('.dir-choice button[data-dir="H"]').click()


def reachable(page: Page, row: int, col: int) -> bool:
    """Whether a finger can reach the cell: wholly on the board's window, under nothing else."""
    node = page.locator(f'.summy-plane [data-cell="{row},{col}"]')
    node.scroll_into_view_if_needed()
    hit: bool = node.evaluate(
        """(cell) => {
            const r = cell.getBoundingClientRect(), box = cell.closest('.summy-viewport')
              .getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const on = r.left >= box.left + 4 && r.right <= box.right - 4
              && r.top >= box.top + 4 && r.bottom <= box.bottom - 4;
            const top = document.elementFromPoint(x, y);
            return on && Boolean(top && cell.contains(top));
        }"""
    )
    return hit


def tap_tiles(page: Page, tiles: Tiles) -> None:
    """Stage each tile as a finger does: its tile in the rack, then its cell; a cell out of
    reach (behind the zoom buttons, past the edge) is brought in by zooming out, as a
    person on a small screen would."""
    for row, col, tile in tiles:
        page.locator(f'.rack button[data-tile="{tile}"]').first.tap()
        for _ in range(3):
            if reachable(page, row, col):
                break
            page.locator(".summy-viewport .zoom button").nth(1).tap()
        page.locator(f'.summy-plane [data-cell="{row},{col}"]').tap()


def staged_is_refused(page: Page, play: str, clear: str, text: str) -> None:
    """The line under the rack says the engine's refusal; the play button stays off; the
    staged tiles are taken back."""
    expect(page.locator("#message")).to_have_text(text)
    expect(page.get_by_role("button", name=play)).to_be_disabled()
    page.get_by_role("button", name=clear, exact=True).click()
    expect(page.locator(".summy-plane button.staged")).to_have_count(0)


def step_done(page: Page, title: str, points: str) -> None:
    expect(page.locator("#learn-done")).to_be_visible()
    expect(page.locator("#learn-step-title")).to_have_text(title)
    expect(page.locator("#learn-points")).to_have_text(points)


def test_the_summy_tutorial_finished_in_english_on_a_laptop(new_page: NewPage) -> None:
    page = new_page("en-GB", LAPTOP)
    page.goto("/")
    page.locator("#card-summy").get_by_role("link", name="Learn to play").click()
    page.wait_for_url("**/learn/summy")
    expect(page.locator("#learn-progress")).to_have_text("Step 1 of 5")
    expect(page.locator("#learn-step-title")).to_have_text("Make an equation")
    expect(page.locator(".rack button")).to_have_count(8)
    assert violations(page, "learn summy, step 1") == []
    no_key_shows(page)
    play = page.get_by_role("button", name="Play this equation")
    # Everything of a step in sight at once on a laptop: its words, the board, the buttons.
    for shown in (page.locator("#learn-step-text"), page.locator(".rack"), play):
        expect(shown).to_be_in_viewport()
    shot(page, "tutorial-summy-1-desktop")

    # 1. A false equation is refused as it is staged, in the engine's words; then 2+3=5.
    type_tiles(page, FALSE)
    staged_is_refused(page, "Play this equation", "Clear", "2+3 is 5, not 4.")
    type_tiles(page, FIRST)
    expect(page.locator("#message")).to_have_text("2+3=5: legal, 10 points.")
    play.click()
    step_done(page, "Make an equation", "Your points: 10")
    expect(page.locator("#learn-done-text")).to_contain_text("Well done! That is a move")
    expect(page.locator("#learn-next")).to_be_focused()
    expect(page.locator(".felt-note")).to_have_text("You made 2+3=5 for 10 points.")
    shot(page, "tutorial-summy-1-done-desktop")
    page.locator("#learn-next").click()

    # 2. Legal, but through the = already there: the step asks for one's own.
    expect(page.locator("#learn-progress")).to_have_text("Step 2 of 5")
    type_tiles(page, THROUGH_OLD_EQUALS)
    expect(page.locator("#message")).to_have_text("8−2=6: legal, 16 points.")
    play.click()
    expect(page.locator("#message")).to_have_text("This step asks you to place an = of your own.")
    page.get_by_role("button", name="Clear", exact=True).click()
    type_tiles(page, OWN_EQUALS)
    expect(page.locator("#message")).to_have_text("3×2=6: legal, 11 points.")
    play.click()
    step_done(page, "The = rule", "Your points: 21")
    page.locator("#learn-next").click()

    # 3. Lengthening 2+3=5 is refused (sealed); 18 points are too few; 6+9=15 makes 21.
    expect(page.locator("#learn-step-text")).to_contain_text("at least 20 points")
    type_tiles(page, LENGTHEN)
    staged_is_refused(
        page,
        "Play this equation",
        "Clear",
        "The cell (0,2) is sealed: it is just after the equation 2+3=5.",
    )
    type_tiles(page, TOO_FEW)
    play.click()
    expect(page.locator("#message")).to_have_text(
        "That equation scores 18; this step asks for at least 20."
    )
    page.get_by_role("button", name="Clear", exact=True).click()
    type_tiles(page, BUILD)
    expect(page.locator("#message")).to_have_text("6+9=15: legal, 21 points.")
    shot(page, "tutorial-summy-3-staged-desktop")
    play.click()
    step_done(page, "Build on the table", "Your points: 42")
    page.locator("#learn-next").click()

    # 4. No equation: the page says so, Pass says why it is off; four tiles go out.
    expect(page.locator("#message")).to_have_text(
        "None of your tiles make an equation here. Discard some to draw new ones: you may"
        " pass only once the stock is empty."
    )
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_disabled()
    page.get_by_role("button", name="Discard…").click()
    for tile in ("x", "x", ":", ":"):
        page.locator(f'.rack button[data-tile="{tile}"]:not(.discard-pick)').first.click()
    page.get_by_role("button", name="Discard the chosen tiles").click()
    step_done(page, "Discard", "Your points: 42")
    expect(page.locator(".felt-note")).to_have_text("You discarded 4 tiles.")
    page.locator("#learn-next").click()

    # 5. The stock is empty: pass, and the game is over.
    expect(page.locator(".felt-head .stock")).to_have_text("Stock: 0")
    page.get_by_role("button", name="Pass", exact=True).click()
    step_done(page, "Pass, and the end", "Your points: 42")
    finished = page.locator("#learn-finished")
    expect(finished).to_be_visible()
    expect(finished).to_contain_text("You have made every kind of move of Summy.")
    expect(page.get_by_role("link", name="Play a game")).to_be_focused()
    expect(page.locator("#learn-steps li.done")).to_have_count(5)
    assert page.evaluate("localStorage.getItem('meeple.learn.summy')") == "done"
    assert violations(page, "learn summy, finished") == []
    no_key_shows(page)
    shot(page, "tutorial-summy-finished-desktop")


def test_the_summy_tutorial_finished_in_japanese_on_a_phone(new_page: NewPage) -> None:
    page = new_page("ja-JP", PHONE, has_touch=True, is_mobile=True, color_scheme="dark")
    page.goto("/learn/summy")
    expect(page.locator("#learn-progress")).to_have_text("ステップ 1/5")
    expect(page.locator(".rack button")).to_have_count(8)
    assert violations(page, "learn summy phone, step 1") == []
    no_key_shows(page)
    no_wider_than_the_screen(page)
    play = page.get_by_role("button", name="この等式を出す")
    for shown in (page.locator(".rack"), play):
        expect(shown).to_be_in_viewport()
    shot(page, "tutorial-summy-1-phone-ja")
    tap_tiles(page, FALSE)
    staged_is_refused(page, "この等式を出す", "すべて戻す", "2+3 は 5 で、4 ではありません。")
    for tiles, title, points in (
        (FIRST, "等式を作る", "あなたの得点：10"),
        (OWN_EQUALS, "= のルール", "あなたの得点：21"),
        (BUILD, "テーブルの上に広げる", "あなたの得点：42"),
    ):
        tap_tiles(page, tiles)
        expect(play).to_be_enabled()
        play.tap()
        step_done(page, title, points)
        expect(page.locator("#learn-next")).to_be_in_viewport()
        no_wider_than_the_screen(page)
        if tiles is BUILD:
            shot(page, "tutorial-summy-3-done-phone-ja")
        page.locator("#learn-next").tap()
        expect(page.locator("#learn-step-title")).to_be_in_viewport()
    page.get_by_role("button", name="捨てる…").tap()
    page.locator(".rack button").first.tap()
    page.get_by_role("button", name="選んだタイルを捨てる").tap()
    step_done(page, "捨てる", "あなたの得点：42")
    page.locator("#learn-next").tap()
    page.get_by_role("button", name="パス", exact=True).tap()
    expect(page.locator("#learn-finished")).to_be_visible()
    expect(page.locator("#learn-steps li.done")).to_have_count(5)
    assert violations(page, "learn summy phone, finished") == []
    no_key_shows(page)
    no_wider_than_the_screen(page)
    shot(page, "tutorial-summy-finished-phone-ja")


def test_the_slide_tutorial_finished_in_french_on_a_phone(new_page: NewPage) -> None:
    page = new_page("fr-FR", PHONE, has_touch=True, is_mobile=True, color_scheme="dark")
    page.goto("/")
    page.locator("#card-slide").get_by_role("link", name="Apprendre à jouer").tap()
    page.wait_for_url("**/learn/slide")
    expect(page.locator("#learn-progress")).to_have_text("Étape 1 sur 3")
    assert violations(page, "learn slide phone, step 1") == []
    no_key_shows(page)
    no_wider_than_the_screen(page)
    shot(page, "tutorial-slide-1-phone-fr")
    # 1. The reveal: the middle card of the second row (the others would do too).
    page.locator('.slide-mine button[data-row="1"][data-col="1"]').tap()
    step_done(page, "Révéler une carte", "")
    expect(page.locator(".pool")).to_contain_text("3")
    page.locator("#learn-next").tap()
    # 2. Take the 3 and slide it in from the left.
    page.get_by_role("button", name="Prendre le 3").tap()
    page.get_by_role("button", name="Faire entrer le 3 par la gauche").tap()
    step_done(page, "Prendre une carte et la faire glisser", "")
    page.locator("#learn-next").tap()
    # 3. The last card: from the top it cancels nothing, refused; from the left, beside its twin.
    page.get_by_role("button", name="Prendre le 7").tap()
    page.get_by_role("button", name="Faire entrer le 7 par le haut").tap()
    expect(page.locator("#message")).to_have_text(
        "Le 7 arrive sans autre 7 à côté : il ne s’annulerait pas."
    )
    page.get_by_role("button", name="Prendre le 7").tap()
    page.get_by_role("button", name="Faire entrer le 7 par la gauche").tap()
    step_done(page, "Les voisines égales s’annulent", "Vos points : 45")
    expect(page.locator(".slide-final .cancelled").first).to_be_visible()
    expect(page.locator("#learn-finished")).to_be_visible()
    assert violations(page, "learn slide phone, finished") == []
    no_key_shows(page)
    no_wider_than_the_screen(page)
    shot(page, "tutorial-slide-finished-phone-fr")


def test_a_first_game_offers_the_tutorial_until_dismissed(new_page: NewPage) -> None:
    page = new_page("en-GB", LAPTOP)
    page.goto("/")
    page.locator("#card-summy").get_by_role("button", name="Play a bot").click()
    page.wait_for_url("**/table/*")
    offer = page.locator("#learn-offer")
    expect(offer).to_be_visible()
    # Beside the board, in sight, and above the log; the board keeps its place.
    expect(offer).to_be_in_viewport()
    assert page.locator("aside.side > *").first.get_attribute("id") == "learn-offer"
    link = offer.get_by_role("link", name="Learn to play")
    expect(link).to_have_attribute("href", "/learn/summy")
    expect(link).to_have_attribute("target", "_blank")
    assert violations(page, "table with the tutorial offer") == []
    shot(page, "tutorial-offer-desktop")
    offer.get_by_role("button", name="No thanks").click()
    expect(offer).to_be_hidden()
    page.reload()
    expect(page.locator(".rack button").first).to_be_visible()
    page.wait_for_timeout(500)
    expect(offer).to_be_hidden()


def test_a_player_with_a_finished_game_is_not_offered_it(new_page: NewPage) -> None:
    page = new_page("en-GB", LAPTOP)

    def one_finished(route: Route) -> None:
        """The profile as it would be after one finished Summy game."""
        profile: dict[str, Any] = route.fetch().json()
        profile["finished"] = {"summy": 1}
        route.fulfill(json=profile)

    page.route(re.compile(r".*/api/users/[^/?]+$"), one_finished)
    page.goto("/")
    with page.expect_response(lambda response: "/api/users/" in response.url):
        page.locator("#card-summy").get_by_role("button", name="Play a bot").click()
        page.wait_for_url("**/table/*")
    expect(page.locator(".rack button").first).to_be_visible()
    page.wait_for_timeout(300)
    expect(page.locator("#learn-offer")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('meeple.learn.summy')") is None


def test_the_hint_in_the_summy_tutorial_places_the_lessons_move(new_page: NewPage) -> None:
    """Step 2 asks for an = of one's own; the Hint stages a move that does it (the engine's
    best where that is the lesson, else the step's own), and playing it completes the step."""
    page = new_page("en-GB", LAPTOP)
    page.goto("/learn/summy")
    expect(page.locator("#learn-progress")).to_have_text("Step 1 of 5")
    page.locator("#learn-steps li").nth(1).get_by_role("button").click()
    expect(page.locator("#learn-progress")).to_have_text("Step 2 of 5")
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#message")).to_contain_text("Hint: ")
    expect(page.locator("#message")).to_contain_text("The tiles are placed")
    page.get_by_role("button", name="Play this equation").click()
    expect(page.locator("#learn-done")).to_be_visible()  # the step is done
    expect(page.locator("#learn-step-title")).to_have_text("The = rule")
    assert violations(page, "learn summy, hint") == []


def test_a_tap_lands_on_its_cell_after_the_browser_scrolled_the_felt(new_page: NewPage) -> None:
    """The felt hides its overflow, yet the browser scrolls it to bring a thing into view (a
    focused tile, scrollIntoView). Such a scroll moves the board as a pan: the tapped cell is
    the one under the finger, not one a row off (a 6 meant for (4,-1) once went nowhere)."""
    page = new_page("en-GB", PHONE, has_touch=True, is_mobile=True)
    page.goto("/learn/summy")
    expect(page.locator(".rack button")).to_have_count(8)
    viewport = page.locator(".summy-viewport")
    plane = page.locator(".summy-plane")
    before = plane.bounding_box()
    page.locator('.summy-plane [data-cell="4,4"]').evaluate("(cell) => cell.scrollIntoView()")
    # The scroll event comes with the next frame, not at once: wait for the page to have
    # turned the scroll into a pan (a loaded machine once read the scroll before that).
    page.wait_for_function(
        "() => { const v = document.querySelector('.summy-viewport');"
        " return v.scrollLeft === 0 && v.scrollTop === 0; }",
        timeout=5000,
    )
    assert viewport.evaluate("(v) => [v.scrollLeft, v.scrollTop]") == [0, 0]
    after = plane.bounding_box()
    assert (
        before is not None
        and after is not None
        and (after["x"], after["y"])
        != (
            before["x"],
            before["y"],
        )
    )  # the board moved, as a pan
    page.locator('.rack button[data-tile="2"]').first.tap()
    page.locator('.summy-plane [data-cell="3,3"]').tap()
    expect(page.locator('.summy-plane [data-cell="3,3"] button.staged')).to_have_text("2")
