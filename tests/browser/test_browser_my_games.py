"""My games as a player meets it: the header's "your turn" count changes live on the page
as the opponent of a turn-based game moves, without a reload; the My games page lists the
tables waiting for the player's move first; on a phone the count shows outside the menu
and the page fits the screen."""

from __future__ import annotations

import secrets

import httpx
import pytest
from browser_harness import NewPage, ServerProcess, shot, untranslated
from playwright.sync_api import expect
from test_browser_account import sign_up
from test_browser_notifications import move_if_due, token_client

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}


def turn_table(host: httpx.Client, guest: httpx.Client) -> str:
    """A started turn-based two-seat table: ``host`` (its creator) and ``guest``."""
    made = host.post("/api/tables", json={"game": "summy", "seats": 2, "pace": "turn"})
    assert made.status_code == 201, made.text
    table_id: str = made.json()["table"]["id"]
    joined = guest.post(f"/api/tables/{table_id}/join", json={})
    assert joined.status_code == 200, joined.text
    assert host.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def test_the_header_counts_my_turns_live_and_the_page_lists_them_first(
    new_page: NewPage, live: ServerProcess
) -> None:
    bob_name, alice_name = f"Turn{secrets.token_hex(3)}", f"Foe{secrets.token_hex(3)}"
    page = new_page()
    sign_up(page, bob_name)
    link = page.locator("#nav-my-games")
    expect(link).to_be_visible()
    expect(page.locator("#my-turns-count")).to_be_hidden()

    with httpx.Client(base_url=live.url, timeout=30) as signup:
        body = {"name": alice_name, "password": "Tile-Slider-42"}
        assert signup.post("/api/auth/register", json=body).status_code == 201
        alice = token_client(live, signup.cookies)
    cookies = httpx.Cookies()
    for cookie in page.context.cookies():
        cookies.set(cookie["name"], cookie["value"])
    bob = token_client(live, cookies)
    try:
        # Two games, each waiting for Alice (Bob makes the first move where the deal
        # gave it to him): nothing for Bob yet.
        first = turn_table(alice, bob)
        second = turn_table(alice, bob)
        for table_id in (first, second):
            move_if_due(bob, table_id, "bob-opening")
        expect(page.locator("#my-turns-count")).to_be_hidden()
        # Alice moves at the first: the page's header says it is Bob's turn, without a reload.
        assert move_if_due(alice, first, "alice")
        expect(page.locator("#my-turns-count")).to_have_text("1")
        expect(link).to_have_accessible_name("My games (1 game where it is your turn)")
        assert move_if_due(alice, second, "alice")
        expect(page.locator("#my-turns-count")).to_have_text("2")
        # Bob plays at the second: one left.
        assert move_if_due(bob, second, "bob")
        expect(page.locator("#my-turns-count")).to_have_text("1")

        link.click()
        page.wait_for_url("**/my-games")
        rows = page.locator("#my-games-list .my-game")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_have_attribute("data-table", first)
        expect(rows.nth(0)).to_contain_text("Your turn")
        expect(rows.nth(0)).to_contain_text(f"against {alice_name}")
        expect(rows.nth(0)).to_contain_text(f"{alice_name} moved")
        expect(rows.nth(1)).to_have_attribute("data-table", second)
        expect(rows.nth(1)).to_contain_text("Waiting for the others")
        # Alice moves again at the second: the open page reorders nothing but lists two turns.
        assert move_if_due(alice, second, "alice")
        expect(page.locator("#my-turns-count")).to_have_text("2")
        expect(page.locator('#my-games-list .my-game[data-my-turn="true"]')).to_have_count(2)
        assert untranslated(page) == []
        shot(page, "my-games-desktop")

        # A phone: the count shows outside the menu, the list fits the screen.
        phone = new_page(viewport=PHONE_390, storage_state=page.context.storage_state())
        phone.goto("/my-games")
        chip = phone.locator("#turns-chip")
        expect(chip).to_be_visible()
        expect(chip).to_have_attribute("aria-label", "2 games where it is your turn")
        expect(phone.locator("#my-games-list .my-game")).to_have_count(2)
        assert move_if_due(bob, first, "bob")
        expect(chip).to_have_attribute("aria-label", "1 game where it is your turn")
        expect(phone.locator('#my-games-list .my-game[data-my-turn="true"]')).to_have_count(1)
        expect(phone.locator("#my-games-list .my-game").nth(0)).to_have_attribute(
            "data-table", second
        )
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        for row in phone.locator("#my-games-list .my-game").all():
            box = row.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        shot(phone, "my-games-phone")
    finally:
        alice.close()
        bob.close()


def test_a_visitor_sees_my_games_in_french_with_a_way_to_sign_in(new_page: NewPage) -> None:
    page = new_page(lang="fr-FR")
    page.goto("/lang?code=fr&next=/my-games")
    page.wait_for_url("**/my-games")
    expect(page.locator("h1")).to_have_text("Mes parties")
    expect(page.locator("#my-games-signin")).to_contain_text("Connectez-vous")
    expect(page.locator("#nav-my-games")).to_be_hidden()
    assert untranslated(page) == []
