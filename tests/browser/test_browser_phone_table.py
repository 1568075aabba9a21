"""A table on one screen: on a 390x844 phone and a 1280x800 desktop, the board (or the Slide grid
and pool), the rack, the main button and the move feedback are in sight together, without
scrolling; tiles are dragged with a finger, the felt pinch-zooms and pans, its grid follows.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from browser_harness import NewPage, shot
from playwright.sync_api import Page, expect
from test_browser_summy import a_move, play_a_bot, view_of, wait_my_turn

pytestmark = pytest.mark.browser

PHONE_SIZE = {"width": 390, "height": 844}
DESKTOP_SIZE = {"width": 1280, "height": 800}
LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "ja": "ja-JP", "it": "it-IT"}
PLAY = {
    "en": "Play this equation",
    "fr": "Jouer cette égalité",
    "ja": "この等式を出す",
    "it": "Gioca questa uguaglianza",
}


def box(page: Page, selector: str) -> dict[str, float]:
    """Where an element is on the screen. The board redraws its cells when a check comes back,
    so an element may be replaced while it is measured: measure again until it holds still."""
    for _ in range(50):
        found = page.locator(selector).first.bounding_box()
        if found is not None:
            return found
        page.wait_for_timeout(20)
    raise AssertionError(f"{selector} is not drawn")


def in_sight(page: Page, selectors: list[str]) -> list[str]:
    """The selectors whose element is NOT wholly inside the first screen (the page unscrolled)."""
    assert page.evaluate("window.scrollY") == 0
    size = page.viewport_size
    assert size is not None
    outside = []
    for selector in selectors:
        b = box(page, selector)
        if (
            b["x"] < 0
            or b["y"] < 0
            or b["x"] + b["width"] > size["width"] + 0.5
            or b["y"] + b["height"] > size["height"] + 0.5
        ):
            outside.append(f"{selector} at {b}")
    return outside


def stage_first_tile_somewhere(page: Page) -> None:
    """Put one rack tile on a cell next to the table's tiles (by clicks): the feedback shows."""
    page.locator(".rack button").first.click()
    page.locator(".summy-plane .cell.target").first.click()
    expect(page.locator("#message")).not_to_be_empty()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_summy_board_rack_button_and_feedback_share_the_first_screen(
    new_page: NewPage, lang: str, size: str
) -> None:
    viewport = PHONE_SIZE if size == "phone" else DESKTOP_SIZE
    page = new_page(LANGUAGES[lang], viewport, has_touch=size == "phone", is_mobile=size == "phone")
    page.goto(f"/lang?code={lang}&next=/")
    page.locator("#card-summy [data-bot]").click()
    page.wait_for_url("**/table/*")
    expect(page.locator(".rack button").first).to_be_visible()
    stage_first_tile_somewhere(page)
    play = page.get_by_role("button", name=PLAY[lang])
    expect(play).to_be_visible()
    assert (
        in_sight(page, [".summy-viewport", ".rack", "#message", ".summy-controls button.primary"])
        == []
    )
    board = box(page, ".summy-viewport")
    assert board["height"] >= (300 if size == "phone" else 380), board
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    header = box(page, "header.site")
    assert header["height"] <= 64, header
    shot(page, f"summy-first-screen-{size}-{lang}")


DISCARD = {
    "en": ("Discard…", "Cancel"),
    "fr": ("Défausser…", "Annuler"),
    "ja": ("捨てる…", "やめる"),
    "it": ("Scarta…", "Annulla"),
}


def rows(page: Page, selector: str) -> int:
    """How many lines the visible children of an element take: children whose vertical middles
    are within a few pixels share a line (the rows centre their items)."""
    middles: list[float] = page.locator(selector).evaluate(
        """(node) => [...node.children].filter((child) => child.getClientRects().length)
            .map((child) => child.getBoundingClientRect())
            .map((r) => r.top + r.height / 2)"""
    )
    middles.sort()
    return 1 + sum(1 for a, b in itertools.pairwise(middles) if b - a > 6)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_phone_tools_stay_one_row_and_discard_mode_keeps_two(new_page: NewPage, lang: str) -> None:
    """On a phone the table's tools are one row (Quitter never alone); discard mode takes no
    more rows than the usual buttons, its toggle looks pressed, and Cancel leaves it."""
    page = new_page(LANGUAGES[lang], PHONE_SIZE, has_touch=True, is_mobile=True)
    page.goto(f"/lang?code={lang}&next=/")
    page.locator("#card-summy [data-bot]").click()
    page.wait_for_url("**/table/*")
    expect(page.locator(".rack button").first).to_be_visible()
    assert rows(page, ".table-tools") == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SIZE["width"]
    toggle_name, cancel_name = DISCARD[lang]
    toggle = page.get_by_role("button", name=toggle_name, exact=True)
    expect(toggle).to_be_enabled()
    usual_rows = rows(page, ".summy-controls")
    board_height = box(page, ".summy-viewport")["height"]
    idle_background = toggle.evaluate("(node) => getComputedStyle(node).backgroundColor")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    # Buttons fade their background (a 0.12 s transition): wait for it, not one frame's read.
    expect(toggle).not_to_have_css("background-color", idle_background)
    page.locator(".rack button").first.tap()
    expect(page.locator(".rack button.discard-pick")).to_have_count(1)
    shot(page, f"discard-mode-{lang}")
    assert rows(page, ".summy-controls") <= max(usual_rows, 2), lang
    assert box(page, ".summy-viewport")["height"] >= board_height - 1  # it takes no room
    assert in_sight(page, [".summy-controls button.primary:visible"]) == []
    page.get_by_role("button", name=cancel_name, exact=True).tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".rack button.discard-pick")).to_have_count(0)
    expect(page.get_by_role("button", name=cancel_name, exact=True)).to_be_hidden()
    shot(page, f"discard-cancelled-{lang}")


def test_slide_grid_pool_and_arrows_share_a_phone_screen(new_page: NewPage) -> None:
    page = new_page("en-GB", PHONE_SIZE, has_touch=True, is_mobile=True)
    page.goto("/")
    page.locator("#card-slide [data-bot]").click()
    page.wait_for_url("**/table/*")
    for _ in range(60):  # until this page takes a card: reveal when asked, wait for the draft
        pickable = page.locator(".slide-mine button.pickable")
        if pickable.count():
            pickable.first.tap()
        pool = page.locator(".pool button")
        if pool.count():
            pool.first.tap()
            break
        page.wait_for_timeout(250)
    else:
        raise AssertionError("never this page's turn to take a card")
    expect(page.locator(".slide-mine .entry").first).to_be_visible()
    arrows = [
        f'.slide-mine .entry[data-side="{side}"]'
        for side in page.locator(".slide-mine .entry").evaluate_all(
            "(nodes) => nodes.map((n) => n.dataset.side)"
        )
    ]
    assert in_sight(page, [".slide-mine", ".pool", ".slide-status", *arrows]) == []
    shot(page, "slide-first-screen-phone")


def touch(page: Page, kind: str, points: list[tuple[float, float]]) -> None:
    """One touch event with these fingers down (Chromium's DevTools protocol: real touch input)."""
    session: Any = getattr(page, "_touch_session", None)
    if session is None:
        session = page.context.new_cdp_session(page)
        page._touch_session = session  # type: ignore[attr-defined]
    session.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
        },
    )


def finger_drag(
    page: Page, start: tuple[float, float], end: tuple[float, float], steps: int = 8
) -> None:
    touch(page, "touchStart", [start])
    for i in range(1, steps + 1):
        touch(
            page,
            "touchMove",
            [
                (
                    start[0] + (end[0] - start[0]) * i / steps,
                    start[1] + (end[1] - start[1]) * i / steps,
                )
            ],
        )
    page.wait_for_timeout(150)  # a finger rests on its target before lifting: no fling
    touch(page, "touchMove", [end])
    page.wait_for_timeout(50)
    touch(page, "touchEnd", [])


def centre(page: Page, selector: str) -> tuple[float, float]:
    b = box(page, selector)
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def felt(page: Page) -> dict[str, float]:
    """The felt's grid: cell size and offset on screen, as drawn (CSS variables of the board)."""
    values: dict[str, float] = page.evaluate(
        """() => { const s = getComputedStyle(document.querySelector('.summy-viewport'));
            const get = (name) => parseFloat(s.getPropertyValue(name));
            return { cell: get('--cell'), gx: get('--gx'), gy: get('--gy') }; }"""
    )
    return values


def test_a_finger_drags_tiles_pinches_and_pans_the_board(new_page: NewPage) -> None:
    page = new_page("en-GB", PHONE_SIZE, has_touch=True, is_mobile=True)
    move = None
    # A phone shows only part of the board: a hand may have no move in sight there, so a
    # run tries a few games (three in a row once had none, in fresh-clone CI).
    for _game in range(6):
        play_a_bot(page)
        view = wait_my_turn(page)
        if view is not None:
            move = a_move(page, view)
        if move is not None:
            break
    assert move is not None, "no hand with a move in sight in 6 games"
    assert view is not None
    # Drag every tile of the move from the rack to its cell with a finger.
    for (row, col), tile in move.placement.tiles:
        rack_tile = f'.rack button[data-tile="{tile}"]'
        finger_drag(
            page, centre(page, rack_tile), centre(page, f'.summy-plane [data-cell="{row},{col}"]')
        )
        expect(page.locator(f'.summy-plane [data-cell="{row},{col}"] .staged')).to_have_count(1)
    if len(move.placement.tiles) == 1:
        page.get_by_role("button", name="down" if move.placement.dir == "V" else "across").tap()
    expect(page.locator("#message")).to_contain_text(f"legal, {move.score} points")
    # A staged tile dragged back to the rack goes home.
    (row, col), _tile = move.placement.tiles[0]
    finger_drag(
        page, centre(page, f'.summy-plane [data-cell="{row},{col}"] .staged'), centre(page, ".rack")
    )
    expect(page.locator(".summy-plane .staged")).to_have_count(len(move.placement.tiles) - 1)
    expect(page.locator(".rack button")).to_have_count(
        len(view["hand"]) - len(move.placement.tiles) + 1
    )

    # Two fingers apart (on the felt and the table's tiles): the board zooms in, its grid follows.
    page.get_by_role("button", name="Clear").tap()
    expect(page.locator(".summy-plane .staged")).to_have_count(0)
    before = felt(page)
    x, y = centre(page, ".summy-viewport")
    touch(page, "touchStart", [(x - 30, y), (x + 30, y)])
    for step in range(1, 9):
        touch(page, "touchMove", [(x - 30 - 8 * step, y), (x + 30 + 8 * step, y)])
    touch(page, "touchEnd", [])
    page.wait_for_timeout(100)
    after = felt(page)
    assert after["cell"] > before["cell"] * 1.5, (before, after)
    # One finger on the felt pans it.
    finger_drag(page, (x, y + 60), (x - 90, y + 20))
    page.wait_for_timeout(100)
    panned = felt(page)
    assert panned["gx"] == pytest.approx(after["gx"] - 90, abs=6), (after, panned)
    assert panned["gy"] == pytest.approx(after["gy"] - 40, abs=6), (after, panned)
    assert grid_matches_cells(page)
    assert page.evaluate("window.scrollY") == 0  # the page itself did not move


def grid_matches_cells(page: Page) -> bool:
    """The felt's grid lines fall on the edges of the drawn cells (the plane and the felt agree)."""
    result: bool = page.evaluate(
        """() => {
            const board = document.querySelector('.summy-viewport');
            const s = getComputedStyle(board);
            const size = parseFloat(s.getPropertyValue('--cell'));
            const gx = parseFloat(s.getPropertyValue('--gx'));
            const gy = parseFloat(s.getPropertyValue('--gy'));
            const b = board.getBoundingClientRect();
            const cell = document.querySelector('.summy-plane [data-cell]').getBoundingClientRect();
            const off = (v) => ((v % size) + size) % size;
            const near = (a, c) => Math.min(Math.abs(a - c), size - Math.abs(a - c)) < 1.5;
            return Math.abs(cell.width - size) < 1 && near(off(cell.left - b.left), off(gx))
                && near(off(cell.top - b.top), off(gy));
        }"""
    )
    return result


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_grid_fills_the_felt_at_every_zoom(new_page: NewPage, size: str) -> None:
    page = new_page("en-GB", PHONE_SIZE if size == "phone" else DESKTOP_SIZE)
    play_a_bot(page)
    expect(page.locator(".summy-plane .tile").first).to_be_visible()
    style = page.evaluate(
        "getComputedStyle(document.querySelector('.summy-viewport')).backgroundImage"
    )
    assert style.count("linear-gradient") == 2  # lines both ways, over the whole felt
    for button, times in (("Zoom out", 6), ("Zoom in", 9), ("Zoom out", 2)):
        for _ in range(times):
            page.get_by_role("button", name=button).click()
            page.wait_for_timeout(30)
            assert grid_matches_cells(page), (button, felt(page))
    cells = felt(page)["cell"]
    assert 40 * 0.35 - 0.5 <= cells <= 40 * 2.5 + 0.5
    view_of(page)  # the page still answers
