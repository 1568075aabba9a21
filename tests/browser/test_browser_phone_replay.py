"""A replay on a phone: stepping never scrolls the page, and every seat card fits the screen."""

from __future__ import annotations

import pytest
from browser_harness import NewPage, ServerProcess, reviewed_bot_game, shot
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

OVERFLOWING = """() => {
  // What a person can see of each element: its box cut by every ancestor that clips
  // (a zoomable board's plane is wider than its window, and that is fine).
  const width = window.innerWidth;
  const seen = (node) => {
    let { left, right } = node.getBoundingClientRect();
    for (let up = node.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX === "visible") continue;
      const box = up.getBoundingClientRect();
      left = Math.max(left, box.left);
      right = Math.min(right, box.right);
    }
    return { left, right };
  };
  return [...document.body.querySelectorAll("*")]
    .filter((node) => node.getClientRects().length)
    .map((node) => [node, seen(node)])
    // Cut by an edge (a box wholly off the screen, like the skip link, is hidden on purpose;
    // one past the right edge would widen the page, which scrollWidth catches).
    .filter(([, box]) => box.right > box.left
      && ((box.left < -1 && box.right > 0) || (box.right > width + 1 && box.left < width)))
    .map(([node, box]) => `${node.tagName}.${node.className} ${box.left}..${box.right}`);
}"""


def overflowing(page: Page) -> list[str]:
    """The elements that reach past the screen's left or right edge."""
    found: list[str] = page.evaluate(OVERFLOWING)
    return found


def test_stepping_a_phone_replay_keeps_the_page_still_and_the_seats_in_sight(
    new_page: NewPage, live: ServerProcess
) -> None:
    # The review's long French summaries make the widest seat cards there are.
    table_id, _ = reviewed_bot_game(live, "summy")
    page = new_page("fr-FR", PHONE, has_touch=True, is_mobile=True)
    page.goto(f"/replay/{table_id}")
    expect(page.locator(".review-summary")).to_have_count(2)
    forward = page.locator("#replay-forward")
    for step in range(1, 7):
        forward.tap()
        expect(page.locator("#replay-step")).to_contain_text(f"Coup {step} sur ")
        expect(page.locator("#log li.current")).to_have_count(1)
        assert page.evaluate("window.scrollY") == 0, f"the page scrolled at step {step}"
        box = forward.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    # The log kept its last line in view by scrolling itself, not the page.
    log_end = "(log) => log.scrollHeight - log.scrollTop - log.clientHeight"
    assert page.locator("#log").evaluate(log_end) <= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert overflowing(page) == []
    cards = page.locator("#players li")
    for n in range(2):
        card = cards.nth(n).bounding_box()
        assert card is not None and card["x"] >= 0 and card["x"] + card["width"] <= PHONE["width"]
        expect(cards.nth(n).locator(".name")).to_be_in_viewport()
        expect(cards.nth(n)).to_contain_text("pts")
    shot(page, "replay-phone-fr")


def test_a_slide_replay_fits_a_phone_in_japanese_and_italian(
    new_page: NewPage, live: ServerProcess
) -> None:
    table_id, _ = reviewed_bot_game(live, "slide", ("random", "greedy", "random"))
    for lang in ("ja-JP", "it-IT"):
        page = new_page(lang, PHONE, has_touch=True, is_mobile=True)
        page.goto(f"/replay/{table_id}")
        expect(page.locator(".review-summary")).to_have_count(3)
        for _ in range(3):
            page.locator("#replay-forward").tap()
        expect(page.locator("#log li.current")).to_have_count(1)
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert overflowing(page) == []
