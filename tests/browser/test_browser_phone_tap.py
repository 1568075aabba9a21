"""On a phone, tiles dragged with a finger and then ONE tap on "Play this equation" play the
move, every time: a finger lifted while still sliding made Chromium start a fling, and the next
tap only stopped it, without a click, so the player thought the move was ignored. The move is
then said on the felt's edge, where it hides none of the board."""

from __future__ import annotations

import pytest
from browser_harness import NewPage
from playwright.sync_api import Error, Page, expect
from test_browser_phone_table import PHONE_SIZE, box, centre, touch
from test_browser_summy import a_move, play_a_bot, version, wait_my_turn

pytestmark = pytest.mark.browser

MOVES = 6


def quick_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger slides a tile to a cell and lifts at once, still moving, as people do."""
    touch(page, "touchStart", [start])
    for i in range(1, 7):
        x = start[0] + (end[0] - start[0]) * i / 6
        y = start[1] + (end[1] - start[1]) * i / 6
        touch(page, "touchMove", [(x, y)])
    touch(page, "touchEnd", [])


def tap(page: Page, selector: str) -> None:
    """One finger tap on the middle of an element (real touch input, no mouse)."""
    page.touchscreen.tap(*centre(page, selector))


def played(page: Page, before: int, timeout: float) -> bool:
    """Whether the table moved past version ``before`` within ``timeout`` ms."""
    try:
        page.wait_for_function(
            "(before) => window.meeple.connection.version > before", arg=before, timeout=timeout
        )
    except Error:
        return False
    return True


def test_one_tap_plays_a_move_staged_by_finger_drags(new_page: NewPage) -> None:
    page = new_page("en-GB", PHONE_SIZE, has_touch=True, is_mobile=True)
    moves = lost = 0
    for _game in range(8):
        play_a_bot(page)
        while moves < MOVES:
            view = wait_my_turn(page)
            move = a_move(page, view) if view is not None else None
            if move is None:
                break
            for (row, col), tile in move.placement.tiles:
                cell = f'.summy-plane [data-cell="{row},{col}"]'
                quick_drag(
                    page, centre(page, f'.rack button[data-tile="{tile}"]'), centre(page, cell)
                )
                expect(page.locator(f"{cell} .staged")).to_have_count(1)
            if len(move.placement.tiles) == 1:
                tap(page, f'.dir-choice button[data-dir="{move.placement.dir}"]')
            expect(page.locator("#message")).to_contain_text(f"legal, {move.score} points")
            expect(page.get_by_role("button", name="Play this equation")).to_be_enabled()
            before = version(page)
            tap(page, ".summy-controls button.primary")  # once
            # A lost tap never plays; a slow machine may take seconds to answer one that landed.
            if not played(page, before, 10_000):
                lost += 1
                tap(page, ".summy-controls button.primary")  # the player tries again
                assert played(page, before, 20_000), "a second tap did not play either"
            moves += 1
            # The last move is said on the felt's edge, over none of its cells.
            note = page.locator(".felt-note")
            expect(note).not_to_be_empty()  # this move, or the bot's reply already
            note_box, board = box(page, ".felt-note"), box(page, ".summy-viewport")
            assert note_box["y"] + note_box["height"] <= board["y"] + 0.5, (note_box, board)
        if moves >= MOVES:
            break
    assert moves >= MOVES, f"only {moves} moves in sight over the games"
    assert lost == 0, f"{lost} of {moves} first taps on Play were lost"
