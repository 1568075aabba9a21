"""Friends as a player meets them: follow a player from their profile, find them online on the
friends page (linked from the header's menu), challenge them from there on the clock chosen,
and play once they accept; a small challenge button beside names in the lobby and at the table.
On a desktop in English and on a phone in French: axe-core finds nothing, no text is left
untranslated, and the phone's page fits its width."""

from __future__ import annotations

import re
import secrets
import time

import httpx
import pytest
from browser_harness import KEY_SHAPE, NewPage, ServerProcess, shot, untranslated
from playwright.sync_api import Page, expect
from test_browser_account import PASSWORD, sign_up
from test_browser_axe import violations

pytestmark = pytest.mark.browser

DESKTOP_1280 = {"width": 1280, "height": 800}
PHONE_390 = {"width": 390, "height": 844}
FRIENDS_KEY = re.compile(r"\bfriends\.[a-z_]+\b")


def untranslated_here(page: Page) -> list[str]:
    """The catalog keys showing on the page, the friends page's own among them."""
    text = page.evaluate("document.body.innerText")
    return untranslated(page) + FRIENDS_KEY.findall(text)


def fits(page: Page, width: int) -> None:
    """Nothing on the page reaches past its width (no sideways scrolling)."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, scroll
    for box in page.locator(".friend, .profile-actions, .challenge-dialog").all():
        if not box.is_visible():
            continue
        edges = box.bounding_box()
        assert edges is not None and edges["x"] >= 0 and edges["x"] + edges["width"] <= width


def account(live: ServerProcess, prefix: str) -> tuple[str, httpx.Client]:
    """A new account signed in over HTTP (so seen on the site now): its name, its client."""
    name = f"{prefix}{secrets.token_hex(3)}"
    client = httpx.Client(base_url=live.url, timeout=30)
    made = client.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    assert client.get("/api/auth/me").status_code == 200
    return name, client


def test_follow_from_a_profile_see_the_friend_online_and_challenge_them_on_a_desktop(
    new_page: NewPage, live: ServerProcess
) -> None:
    page = new_page(viewport=DESKTOP_1280)
    me = f"Ada{secrets.token_hex(3)}"
    sign_up(page, me)
    friend = new_page(viewport=DESKTOP_1280)
    friend_name = f"Bob{secrets.token_hex(3)}"
    sign_up(friend, friend_name)  # on the home page: online, and shown the challenges sent

    page.goto(f"/profile/{friend_name}")
    follow = page.locator("#profile-follow")
    expect(follow).to_have_text("Follow")
    assert violations(page, "profile") == []
    follow.click()
    expect(page.locator(".follow-note")).to_have_text(f"You follow {friend_name}.")
    expect(follow).to_have_text("Unfollow")
    expect(page.locator("#profile-challenge")).to_have_text("Challenge")
    assert untranslated_here(page) == []

    page.locator("#nav-friends").click()
    page.wait_for_url("**/friends")
    row = page.locator(f'.friend[data-name="{friend_name}"]')
    expect(row.locator(".presence")).to_have_text("Online")
    expect(page.locator("#friends-count")).to_have_text("You follow 1 player (at most 500).")
    expect(page.locator("#notice-online")).to_be_checked()
    assert violations(page, "friends") == []
    assert untranslated_here(page) == []
    shot(page, "friends-desktop")

    row.get_by_role("button", name=f"Challenge {friend_name}").click()
    dialog = page.locator(".challenge-dialog")
    expect(dialog.get_by_role("heading")).to_have_text(f"Challenge {friend_name}")
    dialog.get_by_label("Game").select_option("summy")
    dialog.get_by_label("Clock").select_option("realtime:600")
    assert violations(page, "challenge dialog") == []
    dialog.get_by_role("button", name="Send the challenge").click()
    expect(dialog.locator(".challenge-wait")).to_have_text(f"Waiting for {friend_name} to accept…")
    shot(page, "friends-challenge-waiting")

    incoming = friend.locator("#challenges-in-list li")
    expect(incoming).to_contain_text(f"{me} challenges you: Summy, 10 minutes per move")
    incoming.get_by_role("button", name="Accept").click()
    friend.wait_for_url("**/table/*")
    page.wait_for_url("**/table/*")
    assert page.url.split("/table/")[1] == friend.url.split("/table/")[1]
    # At the table, a challenge button beside the other player's name, none beside one's own.
    expect(
        page.locator(f'#players button.challenge-name[data-name="{friend_name}"]')
    ).to_be_visible()
    own = page.locator(f'#players button.challenge-name[data-name="{me}"]')
    expect(own).to_have_count(1)
    expect(own).to_be_hidden()


def test_a_name_in_the_lobby_carries_a_challenge_button(
    new_page: NewPage, live: ServerProcess
) -> None:
    host_name, host = account(live, "Host")
    try:
        made = host.post("/api/tables", json={"game": "slide", "seats": 2})
        assert made.status_code == 201, made.text
        table_id = made.json()["table"]["id"]
        page = new_page(viewport=DESKTOP_1280)
        page.goto("/")
        button = page.locator(f'tr[data-table="{table_id}"] button.challenge-name')
        expect(button).to_have_attribute("aria-label", f"Challenge {host_name}")
        button.click()
        dialog = page.locator(".challenge-dialog")
        expect(dialog.get_by_role("heading")).to_have_text(f"Challenge {host_name}")
        dialog.get_by_role("button", name="Close").click()
        expect(dialog).to_be_hidden()
        host.post(f"/api/tables/{table_id}/close")
    finally:
        host.close()


def test_on_a_phone_in_french_the_friends_list_fits_and_says_it_all_in_french(
    new_page: NewPage, live: ServerProcess
) -> None:
    friend_name, friend = account(live, "Zoe")
    try:
        page = new_page(lang="fr-FR", viewport=PHONE_390)
        page.goto("/")
        me = f"Lou{secrets.token_hex(3)}"
        made = page.evaluate(
            """async ([name, password]) => (await fetch('/api/auth/register', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({name, password})})).status""",
            [me, PASSWORD],
        )
        assert made == 201
        page.goto(f"/profile/{friend_name}")
        page.get_by_role("button", name="Suivre").click()
        expect(page.locator(".follow-note")).to_have_text(f"Vous suivez {friend_name}.")
        fits(page, 390)
        assert violations(page, "profile on a phone") == []

        friend.get("/api/auth/me")  # the friend is on the site now
        page.goto("/friends")
        expect(page.locator("h1")).to_have_text("Amis")
        row = page.locator(f'.friend[data-name="{friend_name}"]')
        expect(row.locator(".presence")).to_have_text("En ligne")
        expect(row.get_by_role("button", name=f"Défier {friend_name}")).to_be_visible()
        expect(page.locator("#friends-count")).to_have_text("Vous suivez 1 joueur (au plus 500).")
        fits(page, 390)
        assert violations(page, "friends on a phone") == []
        assert untranslated_here(page) == []
        shot(page, "friends-phone")

        row.get_by_role("button", name=f"Défier {friend_name}").click()
        dialog = page.locator(".challenge-dialog")
        expect(dialog.get_by_role("heading")).to_have_text(f"Défier {friend_name}")
        expect(dialog.get_by_label("Pendule")).to_have_value("realtime:180")
        fits(page, 390)
        assert violations(page, "challenge dialog on a phone") == []
        assert untranslated_here(page) == []
        shot(page, "friends-phone-challenge")
        dialog.get_by_role("button", name="Envoyer le défi").click()
        expect(dialog.locator(".challenge-wait")).to_contain_text(friend_name)
        dialog.get_by_role("button", name="Annuler le défi").click()
        expect(dialog).to_be_hidden()
        # Closed while waiting: the challenge is taken back.
        deadline = time.monotonic() + 10
        while any(c["status"] == "open" for c in friend.get("/api/challenges").json()):
            assert time.monotonic() < deadline, "the challenge was not taken back"
            time.sleep(0.1)
        assert KEY_SHAPE.findall(page.evaluate("document.title")) == []
    finally:
        friend.close()
