"""Notifications in the site as a player meets them: the header's bell counts a challenge and
each "your turn" of a turn-based game live, as the opponent moves; opening the list shows them
with their links and marks them read; the list fits a phone."""

from __future__ import annotations

import json
import secrets
from typing import Any

import httpx
import pytest
from browser_harness import NewPage, ServerProcess, shot, untranslated
from playwright.sync_api import Page, expect
from test_browser_account import sign_up

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}


def token_client(live: ServerProcess, cookies: httpx.Cookies | None = None) -> httpx.Client:
    """A client with a ``bot:play`` and ``games:read`` token of the account of ``cookies``."""
    with httpx.Client(base_url=live.url, cookies=cookies, timeout=30) as http:
        made = http.post(
            "/api/account/tokens", json={"label": "t", "scopes": ["bot:play", "games:read"]}
        )
        assert made.status_code == 201, made.text
    bearer = {"Authorization": f"Bearer {made.json()['token']}"}
    return httpx.Client(base_url=live.url, headers=bearer, timeout=30)


def hello(player: httpx.Client, table_id: str) -> dict[str, Any]:
    """The first line of the player's game stream (with ``legal`` when it must act)."""
    with player.stream("GET", f"/api/stream/game/{table_id}") as response:
        assert response.status_code == 200
        for text in response.iter_lines():
            if text.strip():
                line: dict[str, Any] = json.loads(text)
                return line
    raise AssertionError("the game stream sent nothing")


def move_if_due(player: httpx.Client, table_id: str, label: str) -> bool:
    """Make one legal move if it is the player's turn; whether it moved."""
    line = hello(player, table_id)
    if "legal" not in line:
        return False
    body = {"id": f"{label}-{line['version']}", "action": line["legal"][0]}
    answer = player.post(f"/api/tables/{table_id}/actions", json=body)
    assert answer.status_code == 200, answer.text
    return True


def bell_count(page: Page) -> int:
    """The count the bell shows (0 when it shows none)."""
    count = page.locator("#notif-count")
    return int(count.text_content() or 0) if count.is_visible() else 0


def test_the_bell_counts_live_and_the_list_marks_read(
    new_page: NewPage, live: ServerProcess
) -> None:
    bob_name, alice_name = f"Bell{secrets.token_hex(3)}", f"Rival{secrets.token_hex(3)}"
    page = new_page()
    sign_up(page, bob_name)
    bell = page.locator("#notif-bell")
    expect(bell).to_be_visible()
    expect(page.locator("#notif-count")).to_be_hidden()

    with httpx.Client(base_url=live.url, timeout=30) as signup:
        body = {"name": alice_name, "password": "Tile-Slider-42"}
        assert signup.post("/api/auth/register", json=body).status_code == 201
        alice = token_client(live, signup.cookies)
    cookies = httpx.Cookies()
    for cookie in page.context.cookies():
        cookies.set(cookie["name"], cookie["value"])
    bob = token_client(live, cookies)
    try:
        ask = {"to": bob_name, "game": "summy", "pace": "turn"}
        challenge = alice.post("/api/challenges", json=ask)
        assert challenge.status_code == 201, challenge.text
        # The challenge reaches the open page at once: the bell counts it.
        expect(page.locator("#notif-count")).to_have_text("1")
        expect(bell).to_have_attribute("aria-label", "Notifications: 1 unread")
        bell.click()
        panel = page.locator("#notif-panel")
        expect(panel).to_be_visible()
        expect(panel.locator(".notif-item").first).to_contain_text(
            f"{alice_name} challenges you to Summy"
        )
        # Opening the list marked it read.
        expect(page.locator("#notif-count")).to_be_hidden()
        assert bob.get("/api/notifications").json()["unread"] == 0
        bell.click()
        expect(panel).to_be_hidden()

        accepted = bob.post(f"/api/challenges/{challenge.json()['id']}/accept")
        table_id = accepted.json()["table_id"]
        # The game's first turn, when it is Bob's, is told like any other: after the start was
        # answered. Wait for it, so the count read before each of Alice's moves is settled.
        bob_first = "legal" in hello(bob, table_id)
        if bob_first:
            expect(page.locator("#notif-count")).to_have_text("1")
        # Bob moves whenever it is his turn; each of Alice's moves gives him the turn back,
        # and the bell shows one more at once, without a reload.
        rises = 0
        for _ in range(6):
            if move_if_due(bob, table_id, "bob"):
                continue
            before = bell_count(page)
            assert move_if_due(alice, table_id, "alice")
            expect(page.locator("#notif-count")).to_have_text(str(before + 1))
            rises += 1
            if rises == 2:
                break
        assert rises == 2
        # The game's first turn, if it was Bob's, counts too: the label says what the badge shows.
        shown = bell_count(page)
        assert shown == (3 if bob_first else 2)
        expect(bell).to_have_attribute("aria-label", f"Notifications: {shown} unread")
        bell.click()
        turn = panel.locator('.notif-item[data-kind="your_turn"]').first
        expect(turn).to_contain_text(f"Your turn in Summy against {alice_name}")
        expect(turn.locator("a")).to_have_attribute("href", f"/table/{table_id}")
        expect(page.locator("#notif-count")).to_be_hidden()
        assert untranslated(page) == []
        shot(page, "notifications-desktop")

        # A phone: the bell stays in the header (outside the menu) and the list fits. The
        # desktop page goes first: with its list open it would mark the next one read at once.
        signed_in = page.context.storage_state()
        page.close()
        phone = new_page(viewport=PHONE_390, storage_state=signed_in)
        phone.goto("/")
        assert move_if_due(bob, table_id, "bob")
        assert move_if_due(alice, table_id, "alice")
        expect(phone.locator("#notif-count")).to_have_text("1")
        phone.locator("#notif-bell").click()
        phone_panel = phone.locator("#notif-panel")
        expect(phone_panel).to_be_visible()
        box = phone_panel.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        expect(phone.locator("#notif-count")).to_be_hidden()
        shot(phone, "notifications-phone")
    finally:
        alice.close()
        bob.close()
