"""Two people in two browsers play a whole 2-player Slide game through the pages alone."""

from __future__ import annotations

import re
import time

import pytest
from browser_harness import ARTIFACTS, PHONE, NewPage, shot
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def create_slide_table(page: Page) -> str:
    """Fill in the create-table form for 2-player Slide with the second seat open."""
    page.goto("/")
    form = page.locator("#create-form")
    form.get_by_label("Slide").check()
    form.get_by_label("Number of seats").fill("2")
    form.get_by_label("Seat 2").select_option("open")
    form.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/table/*")
    expect(page.get_by_role("heading", name="Waiting for players")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def play_one_step(page: Page) -> bool:
    """Act if it is this page's turn: reveal a card, or take a pool card and slide it in."""
    pickable = page.locator(".slide-mine button.pickable")
    if pickable.count():
        pickable.first.click()
        return True
    pool = page.locator(".pool button")
    if pool.count():
        pool.first.click()
        arrows = page.locator(".slide-mine button.entry")
        expect(arrows.first).to_be_visible()
        # Arrows are shown only where the rules allow: 2 to 4 of them.
        assert 2 <= arrows.count() <= 4
        if not (ARTIFACTS / "slide-entry-arrows.png").exists():
            shot(page, "slide-entry-arrows")
        arrows.last.click()
        return True
    return False


def test_two_browsers_play_a_whole_slide_game(new_page: NewPage) -> None:
    alice = new_page("en-GB")
    bob = new_page("en-GB", PHONE)
    table_id = create_slide_table(alice)
    bob.goto(f"/table/{table_id}")
    bob.get_by_role("button", name="Take seat 2").click()
    expect(alice.locator("#waiting-seats")).to_contain_text("guest-")
    alice.get_by_role("button", name="Start the game").click()
    expect(alice.locator(".slide-status")).to_contain_text("Round 1 of 16")
    expect(bob.locator(".slide-status")).to_contain_text("Round 1 of 16")

    # Round 1 by hand, checking what each side sees.
    # Your turn, seen from another tab: the title and a green dot on the favicon.
    expect(alice).to_have_title(re.compile(r"^● Your turn"))
    expect(alice.locator("#favicon")).to_have_attribute("href", "/static/img/meeple-turn.svg")
    # The sound is on by default, with a mute in sight; notifications wait to be asked for.
    expect(alice.get_by_role("button", name="Mute")).to_be_visible()
    expect(alice.get_by_role("button", name="Mute")).to_have_attribute("aria-pressed", "false")
    expect(alice.get_by_role("checkbox", name="Notifications")).not_to_be_checked()
    alice.get_by_placeholder("Write a message").fill("good luck <b>Bob</b>")
    alice.get_by_role("button", name="Send").click()
    expect(bob.locator("#chat")).to_contain_text("good luck <b>Bob</b>")
    alice.locator(".slide-mine button.pickable").first.click()
    expect(alice).not_to_have_title(re.compile("Your turn"))
    expect(alice.locator("#favicon")).to_have_attribute("href", "/static/img/meeple.svg")
    expect(bob.locator(".slide-status")).to_contain_text("1 of 2 have picked")
    expect(alice.locator(".slide-status")).to_contain_text("Waiting for the others to pick")
    shot(alice, "slide-reveal-desktop")
    deadline = time.monotonic() + 240
    steps = 0
    while not (alice.locator("#summary[open]").count() and bob.locator("#summary[open]").count()):
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in (alice, bob):
            if play_one_step(page):
                acted = True
                steps += 1
        if not acted:
            alice.wait_for_timeout(100)
    assert steps >= 63  # 16 rounds x 2 players x (reveal + take), less the first reveal
    for page in (alice, bob):
        summary = page.locator("#summary")
        expect(summary).to_contain_text("End of the game")
        expect(summary.locator("tbody tr")).to_have_count(2)
        # A rated game between two people: each row shows its rating change.
        for row in range(2):
            expect(summary.locator("tbody tr").nth(row).locator("td").nth(3)).to_have_text(
                re.compile(r"^[+-]\d+$")  # on the shown scale: whole points
            )
        expect(page.locator(".slide-final")).to_contain_text("Final grids: cancelled cards")
        expect(page.locator(".slide-mine .slide-card.back")).to_have_count(0)
    shot(alice, "slide-summary-desktop")
    shot(bob, "slide-summary-phone")

    # A rematch: one click each, and both are taken to the new table.
    alice.get_by_role("button", name="Rematch").click()
    expect(alice.locator("#message")).to_have_text("Rematch asked: waiting for the others.")
    bob.get_by_role("button", name="Rematch").click()
    for page in (alice, bob):
        page.wait_for_url(lambda url: table_id not in url)
        expect(page.locator(".slide-status")).to_contain_text("Round 1 of 16")
    assert alice.url == bob.url


def test_a_player_who_leaves_the_page_shows_as_away(new_page: NewPage) -> None:
    alice = new_page("en-GB")
    bob = new_page("fr-FR")
    table_id = create_slide_table(alice)
    bob.goto(f"/table/{table_id}")
    bob.locator("#waiting-seats button").first.click()
    alice.get_by_role("button", name="Start the game").click()
    bobs_seat = alice.locator('.players li[data-seat="1"]')
    expect(bobs_seat).not_to_have_class(re.compile("away"))
    bob.goto("/")  # bob's table socket closes
    expect(bobs_seat).to_have_class(re.compile("away"))
    expect(bobs_seat).to_contain_text("away")
    bob.goto(f"/table/{table_id}")
    expect(bobs_seat).not_to_have_class(re.compile("away"))
    # Bob sees alice present, in French, and never himself as away.
    expect(bob.locator(".players li.away")).to_have_count(0)
    bob.close()
    expect(bobs_seat).to_have_class(re.compile("away"))
