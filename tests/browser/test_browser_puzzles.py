"""Summy puzzles in the browser: answered anonymously (no answer shown, an invitation to sign in),
then as a guest one solved, one failed (its answer shown); the daily one."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import PHONE, NewPage, ServerProcess, own_server, shot
from playwright.sync_api import Page, expect

from meeple.games.summy.analysis.puzzles import Puzzle, puzzle_from_position
from meeple.games.summy.movegen import legal_moves
from meeple.store import queries
from meeple.store.database import Database
from meeple.tables.core.ratings import MODEL

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "summy"))
from summy_positions import fresh_hand_position

pytestmark = pytest.mark.browser

PUZZLE_SEEDS = (205, 225)
"""Fresh-hand positions that make puzzles (see tests/analysis/test_puzzles_api.py)."""


@pytest.fixture(scope="module")
def puzzles_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own whose store holds two puzzles."""
    folder = Path(tmp_path_factory.mktemp("meeple-puzzles"))
    with own_server(folder, {}) as server:
        yield server


@pytest.fixture(scope="module")
def puzzles(puzzles_server: ServerProcess) -> dict[str, Puzzle]:
    """The two puzzles, stored in the server's SQLite file."""
    found = [puzzle_from_position(fresh_hand_position(seed)) for seed in PUZZLE_SEEDS]
    kept = {p.id: p for p in found if p is not None}
    db = Database(f"sqlite:///{puzzles_server.data_dir / 'meeple.db'}")
    first = MODEL.rating()
    data = [p.to_json() for p in kept.values()]
    db.call(queries.save_puzzles, "summy", data, None, 0.0, (first.mu, first.sigma))
    db.engine.dispose()
    return kept


def stage(page: Page, dir_: str, tiles: tuple[tuple[tuple[int, int], str], ...]) -> None:
    """Stage each tile with the keyboard: walk the board's cursor to its cell and type the tile
    (the felt follows the cursor, wherever the cell is)."""
    page.locator(".summy-viewport").focus()
    for (row, col), tile in tiles:
        at_row, at_col = current_cursor(page)
        for _ in range(abs(row - at_row)):
            page.keyboard.press("ArrowDown" if row > at_row else "ArrowUp")
        for _ in range(abs(col - at_col)):
            page.keyboard.press("ArrowRight" if col > at_col else "ArrowLeft")
        page.keyboard.type(tile)
    if len(tiles) == 1:
        page.locator(f'.dir-choice button[data-dir="{dir_}"]').click()


def current_cursor(page: Page) -> tuple[int, int]:
    """Where the board's keyboard cursor is."""
    cell = page.locator(".summy-viewport .cell.cursor").get_attribute("data-cell") or "0,0"
    row, col = cell.split(",")
    return int(row), int(col)


def test_a_puzzle_tried_anonymously_then_solved_and_one_failed_as_a_guest(
    new_page: NewPage, puzzles_server: ServerProcess, puzzles: dict[str, Puzzle]
) -> None:
    page = new_page("en-GB", base_url=puzzles_server.url)
    page.goto("/puzzles/summy")
    task = page.locator("#puzzle-task")
    expect(task).to_contain_text("Find the move worth")
    puzzle = puzzles[page.url.rsplit("/", 1)[1]]
    expect(task).to_contain_text(f"{puzzle.answer.score} points")
    # Without an account: told it is wrong, not shown the answer, invited to sign in.
    wrong = next(m for m in legal_moves(puzzle.position) if m.placement != puzzle.answer.placement)
    stage(page, wrong.placement.dir, wrong.placement.tiles)
    page.get_by_role("button", name="Play this equation").click()
    expect(page.locator("#puzzle-verdict")).to_have_text("Not this one.")
    invite = page.locator("#puzzle-invite")
    expect(invite).to_be_visible()
    expect(invite.get_by_role("link", name="Sign in")).to_have_attribute("href", "/signin")
    expect(page.locator("#game .tile.ghost")).to_have_count(0)
    expect(page.locator("#puzzle-rating")).to_have_text("")
    shot(page, "puzzle-anonymous")
    # As a guest, the same puzzle again: solved, and rated.
    invite.get_by_role("button", name="Play as guest").click()
    expect(page.locator("#account-name")).to_be_visible()
    expect(page).to_have_url(f"{puzzles_server.url}/puzzles/summy/{puzzle.id}")
    expect(invite).to_be_hidden()
    stage(page, puzzle.answer.placement.dir, puzzle.answer.placement.tiles)
    expect(page.locator("#message")).to_contain_text(f"{puzzle.answer.score}")
    page.get_by_role("button", name="Play this equation").click()
    expect(page.locator("#puzzle-verdict")).to_contain_text("Right!")
    expect(page.locator("#puzzle-rating")).to_contain_text("Your puzzle rating: 1500 →")
    expect(invite).to_be_hidden()
    shot(page, "puzzle-solved")
    # The next one, answered with another legal move: wrong, and the answer is shown faded.
    page.locator("#puzzle-next").click()
    expect(page).not_to_have_url(f"{puzzles_server.url}/puzzles/summy/{puzzle.id}")
    other = puzzles[page.url.rsplit("/", 1)[1]]
    wrong = next(m for m in legal_moves(other.position) if m.placement != other.answer.placement)
    stage(page, wrong.placement.dir, wrong.placement.tiles)
    page.get_by_role("button", name="Play this equation").click()
    expect(page.locator("#puzzle-verdict")).to_contain_text("Not this one")
    expect(page.locator("#puzzle-verdict")).to_contain_text("The best move is")
    expect(page.locator("#game .tile.ghost")).to_have_count(len(other.answer.placement.tiles))
    shot(page, "puzzle-failed")


def test_the_daily_puzzle_from_the_home_page_on_a_phone(
    new_page: NewPage, puzzles_server: ServerProcess, puzzles: dict[str, Puzzle]
) -> None:
    page = new_page("ja-JP", PHONE, base_url=puzzles_server.url)
    page.goto("/")
    page.locator(".daily-puzzle a.button").click()
    expect(page.locator("#puzzle-task")).to_contain_text("点の手を見つけてください")
    assert page.url.rsplit("/", 1)[1] in puzzles
    expect(page.locator(".rack button")).to_have_count(8)
    shot(page, "puzzle-daily-phone-ja")


def test_the_puzzle_stats_change_with_an_answer_that_counts(
    new_page: NewPage, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Where every account's answer counts (MEEPLE_PUZZLE_RATER_GAMES=0), a guest's answer shows
    in the puzzle's stats at once, without a reload; an anonymous one moves nothing."""
    folder = Path(tmp_path_factory.mktemp("meeple-puzzle-stats"))
    with own_server(folder, {"MEEPLE_PUZZLE_RATER_GAMES": "0"}) as server:
        found = (puzzle_from_position(fresh_hand_position(seed)) for seed in PUZZLE_SEEDS)
        puzzle = next(p for p in found if p is not None)
        db = Database(f"sqlite:///{folder / 'meeple.db'}")
        first = MODEL.rating()
        db.call(
            queries.save_puzzles, "summy", [puzzle.to_json()], None, 0.0, (first.mu, first.sigma)
        )
        db.engine.dispose()
        page = new_page("it-IT", base_url=server.url)
        page.goto(f"/puzzles/summy/{puzzle.id}")
        stats = page.locator("#puzzle-stats")
        expect(stats).to_contain_text("risolto 0 volte su 0 tentativi")
        stage(page, puzzle.answer.placement.dir, puzzle.answer.placement.tiles)
        page.get_by_role("button", name="Gioca questa uguaglianza").click()
        expect(page.locator("#puzzle-verdict")).to_be_visible()
        expect(stats).to_contain_text("risolto 0 volte su 0 tentativi")
        page.locator("#puzzle-guest").click()
        expect(page.locator("#account-name")).to_be_visible()
        rating_before = stats.text_content()
        stage(page, puzzle.answer.placement.dir, puzzle.answer.placement.tiles)
        page.get_by_role("button", name="Gioca questa uguaglianza").click()
        expect(stats).to_contain_text("risolto 1 volte su 1 tentativi")
        assert stats.text_content() != rating_before


def test_the_puzzle_board_is_centred_on_a_desktop_and_close_to_its_buttons_on_a_phone(
    new_page: NewPage, puzzles_server: ServerProcess, puzzles: dict[str, Puzzle]
) -> None:
    page = new_page("en-GB", {"width": 1280, "height": 800}, base_url=puzzles_server.url)
    page.goto(f"/puzzles/summy/{next(iter(puzzles))}")
    expect(page.locator(".rack button")).to_have_count(8)
    board = page.locator(".summy-viewport").bounding_box()
    content = page.locator("main").bounding_box()
    assert board is not None and content is not None
    off_centre = (board["x"] + board["width"] / 2) - (content["x"] + content["width"] / 2)
    shot(page, "puzzle-desktop")
    assert abs(off_centre) <= 8, f"the board is {off_centre:.0f} px off the content's centre"
    # The side panel is still beside the board, in the first screen.
    side = page.locator("#puzzle .side").bounding_box()
    assert side is not None and side["y"] < 800

    phone = new_page("en-GB", {"width": 390, "height": 844}, base_url=puzzles_server.url)
    phone.goto(f"/puzzles/summy/{next(iter(puzzles))}")
    expect(phone.locator(".rack button")).to_have_count(8)
    rack = phone.locator(".rack").bounding_box()
    buttons = phone.locator(".summy-controls").bounding_box()
    assert rack is not None and buttons is not None
    gap = buttons["y"] - (rack["y"] + rack["height"])
    shot(phone, "puzzle-phone")
    assert gap <= 36, f"{gap:.0f} px between the rack and the buttons"
