"""The end of a game on a phone (390 px wide), as its player sees it: the end-of-game dialog's
column headers keep their words whole and inside the dialog in every language, and the final
grids of a 4-player Slide game all show (none clipped in a sideways strip)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_harness import NewPage, shot
from playwright.sync_api import Page, ViewportSize, expect

pytestmark = pytest.mark.browser

PHONE_390: ViewportSize = {"width": 390, "height": 844}
LANGS = ("en-GB", "fr-FR", "it-IT", "ja-JP")


def played_out(page: Page, game: str, seats: int) -> str:
    """A game this page's guest began against bots and left at once (a bot plays their seat to
    the end): the finished table's id, the page then on it."""
    assert page.request.post("/api/auth/guest").status == 201
    bots = {str(seat): "random" for seat in range(1, seats)}
    made = page.request.post("/api/tables", data={"game": game, "seats": seats, "bots": bots})
    assert made.status == 201, made.text()
    table_id: str = made.json()["table"]["id"]
    assert page.request.post(f"/api/tables/{table_id}/start").status == 200
    assert page.request.post(f"/api/tables/{table_id}/leave").status == 200
    deadline = time.monotonic() + 180
    while page.request.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
        assert time.monotonic() < deadline, f"{game} table {table_id} never finished"
        time.sleep(0.3)
    page.goto(f"/table/{table_id}")
    return table_id


def words_broken(page: Page, selector: str) -> list[str]:
    """The words of the elements' texts that are laid out on more than one line."""
    broken: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].flatMap((cell) => {
            const text = cell.firstChild;
            if (!text || text.nodeType !== Node.TEXT_NODE) return [];
            const found = [];
            for (const match of text.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(text, match.index);
                range.setEnd(text, match.index + match[0].length);
                if (range.getClientRects().length > 1) found.push(match[0]);
            }
            return found;
        })""",
        selector,
    )
    return broken


def outside(page: Page, selector: str, frame: str) -> list[dict[str, Any]]:
    """The elements that reach beyond ``frame``'s visible box (or past the screen's edge), or
    that a scrolling ancestor hides in part."""
    found: list[dict[str, Any]] = page.evaluate(
        """([selector, frame]) => {
            const box = document.querySelector(frame).getBoundingClientRect();
            return [...document.querySelectorAll(selector)].map((node) => {
                const r = node.getBoundingClientRect();
                let clipped = false;
                for (let up = node.parentElement; up; up = up.parentElement) {
                    const style = getComputedStyle(up);
                    if (style.overflowX === "visible") continue;
                    const u = up.getBoundingClientRect();
                    if (r.left < u.left - 0.5 || r.right > u.right + 0.5) clipped = true;
                }
                const out = r.left < box.left - 0.5 || r.right > box.right + 0.5
                    || r.right > window.innerWidth + 0.5;
                return { text: node.textContent, left: r.left, right: r.right, out, clipped };
            }).filter((seen) => seen.out || seen.clipped);
        }""",
        [selector, frame],
    )
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_the_end_of_game_dialogs_headers_stay_whole_on_a_phone(
    new_page: NewPage, lang: str
) -> None:
    page = new_page(lang, PHONE_390)
    played_out(page, "summy", 2)
    dialog = page.locator("#summary")
    expect(dialog).to_be_visible()
    expect(page.locator("#summary-rows tr")).to_have_count(2)
    shot(page, f"phone-summary-{lang}")
    assert words_broken(page, "#summary th") == []
    assert outside(page, "#summary th", "#summary") == []
    assert outside(page, "#summary td", "#summary") == []


def test_the_final_grids_of_a_four_player_slide_game_all_show_on_a_phone(
    new_page: NewPage,
) -> None:
    page = new_page("en-GB", PHONE_390)
    played_out(page, "slide", 4)
    page.locator("#summary-close").click()
    grids = page.locator(".slide-final .other")
    expect(grids).to_have_count(4)
    grids.nth(3).scroll_into_view_if_needed()
    shot(page, "phone-slide-final-grids")
    assert outside(page, ".slide-final .other", ".slide-final") == []
