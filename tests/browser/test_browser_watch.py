"""Watching a game shows no hand; a page whose socket is cut says so and catches up."""

from __future__ import annotations

import re

import pytest
from browser_harness import NewPage, shot
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def create_table(page: Page, game: str, second_seat: str) -> str:
    """Create a public 2-seat table of ``game`` from the form; the second seat as given."""
    page.goto("/")
    page.get_by_label(game.capitalize(), exact=True).check()
    page.get_by_label("Number of seats").fill("2")
    page.get_by_label("Seat 2").select_option(second_seat)
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/table/*")
    return page.url.rsplit("/", 1)[1]


def test_a_spectator_sees_the_table_but_no_hand(new_page: NewPage) -> None:
    player = new_page("en-GB")
    table_id = create_table(player, "summy", "bot:greedy")  # every seat taken: it starts
    expect(player.locator(".rack button")).to_have_count(8)

    spectator = new_page("en-GB")
    spectator.goto("/")
    spectator.get_by_role("button", name="Play as guest").click()
    spectator.goto(f"/table/{table_id}")
    expect(spectator.locator(".rack")).to_have_text("You are watching: hands are hidden.")
    expect(spectator.locator("#spectators")).to_have_text("1 watching")
    expect(player.locator("#spectators")).to_have_text("1 watching")  # the seat sees it too
    expect(spectator.locator(".rack button")).to_have_count(0)
    expect(spectator.get_by_role("button", name="Play this equation")).to_be_hidden()
    expect(spectator.get_by_role("img", name="equals, row 0, column 0")).to_be_visible()
    assert spectator.evaluate("window.meeple.view().hand") is None
    hand = player.evaluate("window.meeple.view().hand")
    assert len(hand) == 8
    # Nothing of the player's hand reached the spectator's page.
    rack_text = spectator.locator(".rack").inner_text()
    assert not any(tile in rack_text for tile in "0123456789")
    shot(spectator, "summy-spectator-desktop")


def test_a_cut_socket_says_offline_and_catches_up(new_page: NewPage) -> None:
    alice = new_page("en-GB")
    bob = new_page("en-GB")
    table_id = create_table(alice, "slide", "open")
    bob.goto(f"/table/{table_id}")
    bob.get_by_role("button", name="Take seat 2").click()
    alice.get_by_role("button", name="Start the game").click()
    expect(alice.locator(".slide-status")).to_contain_text("0 of 2 have picked")

    alice.context.set_offline(True)
    alice.evaluate("window.meeple.connection.drop()")
    expect(alice.locator("#offline")).to_be_visible()
    expect(alice.locator("#offline")).to_have_text("Connection lost: reconnecting…")
    bob.locator(".slide-mine button.pickable").first.click()
    expect(bob.locator(".slide-status")).to_contain_text("1 of 2 have picked")
    alice.wait_for_timeout(1500)
    # Still offline: the page has not seen Bob's pick.
    expect(alice.locator("#offline")).to_be_visible()
    expect(alice.locator(".slide-status")).to_contain_text("0 of 2 have picked")
    shot(alice, "slide-offline-desktop")

    alice.context.set_offline(False)
    expect(alice.locator("#offline")).to_be_hidden(timeout=20_000)
    expect(alice.locator(".slide-status")).to_contain_text("1 of 2 have picked")
    assert alice.evaluate("window.meeple.connection.version") == bob.evaluate(
        "window.meeple.connection.version"
    )
    # And the game goes on from there.
    alice.locator(".slide-mine button.pickable").first.click()
    expect(alice.locator(".pool button, .pool .slide-card").first).to_be_visible()
    expect(bob.locator(".slide-status")).not_to_contain_text("have picked")


def test_a_private_table_is_reached_only_through_its_invite_link(new_page: NewPage) -> None:
    alice = new_page("en-GB")
    alice.goto("/")
    alice.get_by_label("Slide", exact=True).check()
    alice.get_by_label("Seat 2").select_option("open")
    alice.get_by_label("Private: invite link only").check()
    alice.get_by_role("button", name="Create the table").click()
    alice.wait_for_url("**/table/*")
    table_id = alice.url.rsplit("/", 1)[1]
    link = alice.get_by_label("Send this link to a friend to play together:")
    expect(link).to_have_value(re.compile(r"/tables/.+\?invite="))
    expect(alice.locator("#game .slide-area")).to_be_hidden()  # no empty board while waiting
    alice.context.grant_permissions(["clipboard-read", "clipboard-write"])
    alice.get_by_role("button", name="Copy the link").click()
    expect(alice.get_by_role("button", name="Copied")).to_be_visible()
    assert alice.evaluate("navigator.clipboard.readText()") == link.input_value()

    bob = new_page("en-GB")
    bob.goto(f"/table/{table_id}")
    expect(bob.locator("#table-gone-text")).to_have_text(
        "There is no such table, or it is private: ask for its invite link."
    )
    bob.goto(link.input_value())
    bob.get_by_role("button", name="Take seat 2").click()
    expect(alice.locator("#waiting-seats")).to_contain_text("guest-")
    # The creator may remove a player before the start; the seat is free again.
    alice.get_by_role("button", name=re.compile(r"^Remove guest-.+ from the table$")).click()
    expect(bob.get_by_role("button", name="Take seat 2")).to_be_visible()
    expect(bob.locator("#log")).to_contain_text("was removed from the table")
    bob.get_by_role("button", name="Take seat 2").click()
    alice.get_by_role("button", name="Start the game").click()
    expect(bob.locator(".slide-status")).to_contain_text("Round 1 of 16")


def test_quick_play_seats_two_people_at_one_table(new_page: NewPage) -> None:
    alice = new_page("en-GB")
    bob = new_page("en-GB")
    alice.goto("/")
    alice.locator("#card-summy").get_by_role("button", name="Quick play").click()
    alice.wait_for_url("**/table/*")
    expect(alice.locator("#turn-line")).to_have_text("Waiting for players to sit down.")
    bob.goto("/")
    bob.locator("#card-summy").get_by_role("button", name="Quick play").click()
    bob.wait_for_url(alice.url)
    for page in (alice, bob):
        expect(page.locator(".rack button")).to_have_count(8)
        expect(page.locator("#players li")).to_have_count(2)
    for page in (alice, bob):
        expect(page.locator("#turn-line")).to_have_text(re.compile(r"^(Your turn|To play: )"))
    turns = sorted(page.locator("#turn-line").inner_text() for page in (alice, bob))
    assert turns[0].startswith("To play: guest-")
    assert turns[1] == "Your turn"
