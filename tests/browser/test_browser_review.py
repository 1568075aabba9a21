"""The replay of a finished Summy game shows its review: the best move faded on the table."""

from __future__ import annotations

import re

import pytest
from browser_harness import NewPage, ServerProcess, reviewed_bot_game, shot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WRITTEN = str.maketrans({"x": "×", ":": "÷", "-": "−"})


def test_the_replay_shows_the_best_move_ghosted_and_what_was_missed(
    new_page: NewPage, live: ServerProcess
) -> None:
    table_id, review = reviewed_bot_game(live, "summy")
    # The first action with a best move that the random bot did not play.
    step = next(line["index"] for line in review["lines"] if line["best"] and line["missed"] > 0)
    line = review["lines"][step]
    page = new_page("en-GB")
    page.goto(f"/replay/{table_id}")
    expect(page.locator("#review-line")).to_contain_text("Next: ")
    for _ in range(step):
        page.locator("#replay-forward").click()
    expect(page.locator("#replay-step")).to_contain_text(f"Move {step} of ")
    ghosts = page.locator(".tile.ghost")
    expect(ghosts).to_have_count(len(line["best"]["tiles"]))
    panel = page.locator("#review-line")
    # Written as the board and the log write it: × ÷ − for x : -.
    expect(panel).to_contain_text(line["best"]["equation"].translate(WRITTEN))
    missed = line["missed"]
    expect(panel).to_contain_text(f"{missed} point{'' if missed == 1 else 's'} missed")
    expect(page.locator(".review-summary").first).to_contain_text(re.compile(r"points missed"))
    shot(page, "replay-review")
    # In French too.
    page_fr = new_page("fr-FR")
    page_fr.goto(f"/replay/{table_id}")
    expect(page_fr.locator("#review-line")).to_contain_text("Ensuite")


def test_the_slide_replay_marks_the_best_choice_and_its_cost(
    new_page: NewPage, live: ServerProcess
) -> None:
    table_id, review = reviewed_bot_game(live, "slide")
    step = next(line["index"] for line in review["lines"] if line["given_away"] > 0)
    line = review["lines"][step]
    page = new_page("en-GB")
    page.goto(f"/replay/{table_id}")
    expect(page.locator("#review-line")).to_contain_text("Next: ")
    for _ in range(step):
        page.locator("#replay-forward").click()
    expect(page.locator("#replay-step")).to_contain_text(f"Move {step} of ")
    panel = page.locator("#review-line")
    expect(panel).to_contain_text(f"{line['given_away']:.1f} expected points given away")
    expect(panel).to_contain_text("Best: ")
    expect(page.locator(".slide-card.best")).to_have_count(1)
    expect(page.locator(".review-summary").first).to_contain_text("given away")
    shot(page, "replay-review-slide")
