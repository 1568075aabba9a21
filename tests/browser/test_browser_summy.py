"""A person plays Summy against a bot in the browser: drag and drop, clicks, a refusal, a
take-back, a discard, the keyboard; then leaves, a bot finishes the game and the summary shows.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_harness import DESKTOP, PHONE, NewPage, shot
from playwright.sync_api import Page, expect

from meeple.games.summy.formats import position_from_json
from meeple.games.summy.movegen import legal_moves
from meeple.games.summy.tiles import Move

pytestmark = pytest.mark.browser

KEYS = {"x": "*", ":": "/"}


def shown(equation: str) -> str:
    """An equation as the page writes it: x as ×, : as ÷, - as the minus sign."""
    return equation.replace("x", "×").replace(":", "÷").replace("-", "−")


def view_of(page: Page) -> dict[str, Any]:
    """The view the page shows now."""
    view: dict[str, Any] = page.evaluate("window.meeple.view()")
    return view


def wait_my_turn(page: Page) -> dict[str, Any] | None:
    """The view once it is this page's turn; None if the game ended first."""
    turn_line = page.locator("#turn-line")
    expect(turn_line).to_have_text(re.compile(r"^(Your turn|The game is over\.)$"), timeout=30_000)
    if turn_line.inner_text() != "Your turn":
        return None
    expect(page.locator(".rack button")).to_have_count(len(view_of(page)["hand"]))
    return view_of(page)


def visible_cells(page: Page) -> set[tuple[int, int]]:
    """The cells drawn wholly inside the board's window (the board pans; the rest is hidden),
    above the zoom buttons and the across/down choice at its foot."""
    cells: list[str] = page.evaluate(
        """() => {
            const box = document.querySelector('.summy-viewport').getBoundingClientRect();
            return [...document.querySelectorAll('.summy-plane [data-cell]')].filter((node) => {
                const r = node.getBoundingClientRect();
                return r.left >= box.left + 4 && r.right <= box.right - 4
                    && r.top >= box.top + 4 && r.bottom <= box.bottom - 50
                    && !(r.right > box.right - 56 && r.bottom > box.bottom - 130);
            }).map((node) => node.dataset.cell);
        }"""
    )
    return {(int(r), int(c)) for r, c in (cell.split(",") for cell in cells)}


def a_move(page: Page, view: dict[str, Any]) -> Move | None:
    """A legal move on cells in sight (the engine's move generator plays the person's mind),
    the closest to the last move; None when the hand makes none there."""
    drawn = visible_cells(page)
    last = view["last_move"]
    centre = (0, 0)
    if last and last.get("tiles"):
        centre = (last["tiles"][0]["row"], last["tiles"][0]["col"])
    moves = [
        move for move in legal_moves(position_from_json(view)) if set(move.placement.cells) <= drawn
    ]

    def distance(move: Move) -> tuple[int, int]:
        far = max(abs(r - centre[0]) + abs(c - centre[1]) for r, c in move.placement.cells)
        return far, -len(move.placement.tiles)

    return min(moves, key=distance, default=None)


def cell(page: Page, row: int, col: int) -> Any:
    return page.locator(f'.summy-plane [data-cell="{row},{col}"]')


def choose_direction(page: Page, move: Move) -> None:
    if len(move.placement.tiles) == 1:
        page.get_by_role("button", name="down" if move.placement.dir == "V" else "across").click()


def expect_legal(page: Page, move: Move) -> None:
    expect(page.locator("#message")).to_have_text(
        f"{shown(move.equation_text)}: legal, {move.score} points."
    )


def version(page: Page) -> int:
    """The table version the page has seen."""
    seen: int = page.evaluate("window.meeple.connection.version")
    return seen


def wait_applied(page: Page, before: int) -> None:
    """Wait until the page has the event of the action it just sent."""
    page.wait_for_function("(before) => window.meeple.connection.version > before", arg=before)


def confirm(page: Page, move: Move) -> None:
    scores_before = view_of(page)["scores"][view_of(page)["seat"]]
    before = version(page)
    page.get_by_role("button", name="Play this equation").click()
    wait_applied(page, before)
    expect(page.locator("#log")).to_contain_text(
        f"made {shown(move.equation_text)} for {move.score}"
    )
    seat = view_of(page)["seat"]
    assert view_of(page)["scores"][seat] == scores_before + move.score


def refuse_then_take_back(page: Page, view: dict[str, Any]) -> None:
    """Stage a tile touching nothing: the page says which rule that breaks, sends nothing;
    a second click on the staged tile takes it back, and the line says again what it said."""
    tiles = {(t["row"], t["col"]) for t in view["tiles"]}
    lonely = next(
        (r, c)
        for r, c in sorted(visible_cells(page), key=lambda rc: (abs(rc[0]) + abs(rc[1]), rc))
        if not any((r + dr, c + dc) in tiles for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    )
    seen = version(page)
    page.locator(".rack button").first.click()
    cell(page, *lonely).click()
    expect(page.locator("#message")).to_have_text(
        "The equation must use at least one tile already on the table."
    )
    expect(page.get_by_role("button", name="Play this equation")).to_be_disabled()
    expect(page.locator(".rack button")).to_have_count(len(view["hand"]) - 1)
    staged = page.locator(".summy-plane button.staged")
    staged.click()
    staged.click()
    expect(page.locator(".rack button")).to_have_count(len(view["hand"]))
    expect(page.locator(".summy-plane button.staged")).to_have_count(0)
    # The line is as before the tile: empty, or, when this rack makes no equation, saying so.
    expect(page.locator("#message")).to_have_text(
        re.compile(r"^(|None of your tiles make an equation here\. .*)$")
    )
    assert version(page) == seen


def place(page: Page, move: Move, how: str) -> None:
    """Stage ``move`` by drag and drop, by clicks or by the keyboard, check it, play it."""
    if how == "keyboard":
        page.get_by_role("application", name="The table").focus()
    for (row, col), tile in move.placement.tiles:
        rack_tile = page.locator(f'.rack button[data-tile="{tile}"]').first
        if how == "drag":
            rack_tile.drag_to(cell(page, row, col))
        elif how == "click":
            rack_tile.click()
            cell(page, row, col).click()
            if (row, col) == move.placement.tiles[0][0]:
                # "Clear" takes every staged tile back; then stage the first one again.
                page.get_by_role("button", name="Clear").click()
                expect(page.locator(".summy-plane button.staged")).to_have_count(0)
                page.locator(f'.rack button[data-tile="{tile}"]').first.click()
                cell(page, row, col).click()
        else:
            at = page.locator(".summy-plane .cell.cursor").get_attribute("data-cell") or "0,0"
            cursor_row, cursor_col = (int(n) for n in at.split(","))
            for _ in range(abs(row - cursor_row)):
                page.keyboard.press("ArrowDown" if row > cursor_row else "ArrowUp")
            for _ in range(abs(col - cursor_col)):
                page.keyboard.press("ArrowRight" if col > cursor_col else "ArrowLeft")
            page.keyboard.press(KEYS.get(tile, tile))
    choose_direction(page, move)
    try:
        expect_legal(page, move)
    except AssertionError as exc:
        shot(page, f"summy-failed-{how}")
        raise AssertionError(f"staging {move.placement} by {how}: {exc}") from exc
    shot(page, f"summy-staged-{how}")
    confirm(page, move)


def discard(page: Page, count: int) -> None:
    page.get_by_role("button", name="Discard…").click()
    for index in range(count):
        page.locator(".rack button").nth(index).click()
    name = page.locator("#players li.me .name").inner_text()
    tiles = "tile" if count == 1 else "tiles"
    lines = page.locator("#log li", has_text=f"{name} discarded {count} {tiles}.")
    lines_before = lines.count()
    before = version(page)
    page.get_by_role("button", name="Discard the chosen tiles").click()
    wait_applied(page, before)
    expect(lines).to_have_count(lines_before + 1)


def play_a_bot(page: Page) -> None:
    page.goto("/")
    page.locator("#card-summy").get_by_role("button", name="Play a bot").click()
    page.wait_for_url("**/table/*")


def test_a_person_plays_summy_against_a_bot(new_page: NewPage) -> None:
    page = new_page("en-GB")
    page.on("dialog", lambda dialog: dialog.accept())
    placements = ["drag", "click", "keyboard"]
    refused = discarded = False
    # A hand may make few equations and a game may end early: then play another one.
    for _game in range(3):
        play_a_bot(page)
        for _turn in range(25):
            if not placements and discarded:
                break
            view = wait_my_turn(page)
            if view is None:
                break
            if not refused:
                refuse_then_take_back(page, view)
                refused = True
            if not discarded and view["stock"] > 0:
                discard(page, 2)
                discarded = True
                continue
            move = a_move(page, view)
            if move is not None and placements:
                place(page, move, placements.pop(0))
            elif view["stock"] > 0:
                discard(page, 1)
            else:
                before = version(page)
                page.get_by_role("button", name="Pass").click()
                wait_applied(page, before)
        if not placements and discarded:
            break
    assert not placements and discarded, f"still to do after 3 games: {placements}"
    shot(page, "summy-table-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "summy-table-phone")
    page.set_viewport_size(DESKTOP)

    # The person leaves: a bot plays their seat to the end; the summary shows.
    page.get_by_role("button", name="Leave").click()
    expect(page.locator("#players")).to_contain_text("played by a bot")
    summary = page.locator("#summary")
    expect(summary).to_be_visible(timeout=180_000)
    expect(summary).to_contain_text("End of the game")
    expect(summary.locator("tbody tr")).to_have_count(2)
    # Left before their first moves of this game (it may have begun a turn ago), the game is
    # aborted and the line says so too.
    expect(page.locator("#turn-line")).to_have_text(
        re.compile(r"^The game is over\.( It was aborted, a player having left .*)?$")
    )
    shot(page, "summy-summary-desktop")


def test_the_verdict_on_staged_tiles_is_next_to_the_rack_on_a_laptop_screen(
    new_page: NewPage,
) -> None:
    page = new_page("en-GB", {"width": 1280, "height": 800})
    for _game in range(3):  # the bot may move first and end nothing: a few tries
        play_a_bot(page)
        view = wait_my_turn(page)
        if view is not None:
            break
    assert view is not None
    tiles = {(t["row"], t["col"]) for t in view["tiles"]}
    lonely = next(
        (r, c)
        for r, c in sorted(visible_cells(page), key=lambda rc: (abs(rc[0]) + abs(rc[1]), rc))
        if not any((r + dr, c + dc) in tiles for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    )
    page.locator(".rack button").first.click()
    cell(page, *lonely).click()
    message = page.locator("#message")
    expect(message).to_have_text("The equation must use at least one tile already on the table.")
    box, rack = message.bounding_box(), page.locator(".rack").bounding_box()
    assert box is not None and rack is not None
    assert box["y"] + box["height"] <= 800, box  # on the first screen
    assert 0 <= box["y"] - (rack["y"] + rack["height"]) < 120, (box, rack)  # under the rack


SPOKEN = {"+": "plus", "-": "minus", "x": "times", ":": "divided by", "=": "equals"}


def focused(page: Page) -> str:
    """The accessible name (or text) of the element with the keyboard."""
    name: str = page.evaluate(
        "(() => { const n = document.activeElement;"
        " return n.getAttribute('aria-label') || n.textContent.trim(); })()"
    )
    return name


def test_the_keyboard_hears_each_tile_placed_and_plays_in_a_few_keys(new_page: NewPage) -> None:
    """A keyboard player: typing a tile says that tile and its cell; the rack is one Tab stop
    (the arrows go along it); Play is a few Tabs from the board, and Ctrl+Enter plays from it."""
    page = new_page("en-GB")
    move = None
    for _game in range(6):  # a hand may have no move in sight: another game
        play_a_bot(page)
        view = wait_my_turn(page)
        move = a_move(page, view) if view is not None else None
        if move is not None:
            break
    assert move is not None and view is not None
    # The rack: one Tab stop; the arrows move along it; choosing a tile keeps the keyboard on it.
    rack = page.locator(".rack button")
    assert rack.evaluate_all("(nodes) => nodes.filter((n) => n.tabIndex === 0).length") == 1
    rack.first.focus()
    page.keyboard.press("ArrowRight")
    assert focused(page) == rack.nth(1).get_attribute("aria-label")
    page.keyboard.press("Enter")
    expect(rack.nth(1)).to_have_attribute("aria-pressed", "true")
    assert focused(page) == rack.nth(1).get_attribute("aria-label")
    page.keyboard.press("Enter")  # chosen again: not chosen any more
    expect(rack.nth(1)).to_have_attribute("aria-pressed", "false")

    board = page.get_by_role("application", name="The table")
    board.focus()
    news = page.locator(".sr[aria-live]")
    for (row, col), tile in move.placement.tiles:
        at = page.locator(".summy-plane .cell.cursor").get_attribute("data-cell") or "0,0"
        cursor_row, cursor_col = (int(n) for n in at.split(","))
        for _ in range(abs(row - cursor_row)):
            page.keyboard.press("ArrowDown" if row > cursor_row else "ArrowUp")
        for _ in range(abs(col - cursor_col)):
            page.keyboard.press("ArrowRight" if col > cursor_col else "ArrowLeft")
        page.keyboard.press(KEYS.get(tile, tile))
        expect(news).to_have_text(f"{SPOKEN.get(tile, tile)} placed at row {row}, column {col}")
    choose_direction(page, move)
    expect_legal(page, move)

    # From the board to "Play this equation" by Tab: the zoom buttons, the help, the rack (one
    # stop), and for a single tile its across/down choice.
    board.focus()
    tabs = 0
    while focused(page) != "Play this equation":
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs <= 8, f"{tabs} Tabs and still at {focused(page)!r}"
    assert tabs <= (8 if len(move.placement.tiles) == 1 else 6), tabs

    # Ctrl+Enter on the board plays the staged equation.
    board.focus()
    before = version(page)
    page.keyboard.press("Control+Enter")
    wait_applied(page, before)
    expect(page.locator("#log")).to_contain_text(f"made {shown(move.equation_text)}")
