"""A tournament's page as a player in it sees it, on a desktop and on a phone, in English and
Japanese: its name and settings, where it stands (round 1 of 3), the standings, the round's
games with links to watch, the player's own game; the home page lists it. axe-core finds no
violation, no text is left untranslated and nothing runs past a phone's screen."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_harness import DESKTOP, PHONE, NewPage, ServerProcess, guest, shot, untranslated
from playwright.sync_api import Page, expect
from test_browser_axe import violations

pytestmark = pytest.mark.browser


def running_swiss(live: ServerProcess, page: Page) -> str:
    """A Summy Swiss of 3 rounds, its first round under way, with the page's player and three
    others in it (every one of them at a board)."""
    clients = [live.client() for _ in range(3)]
    for client in clients:
        guest(client)
    made = clients[0].post("/api/tournaments", json={
        "name": "Friday Summy Swiss", "game": "summy", "format": "swiss", "rounds": 3,
        "starts_at": time.time() + 4})  # fmt: skip
    assert made.status_code == 201, made.text
    tournament_id: str = made.json()["id"]
    assert page.request.post("/api/auth/guest").status == 201
    for join in [c.post(f"/api/tournaments/{tournament_id}/join") for c in clients] + [
        page.request.post(f"/api/tournaments/{tournament_id}/join")
    ]:
        assert getattr(join, "status_code", None) or join.status == 200  # type: ignore[union-attr]
    for _ in range(300):
        rounds: list[dict[str, Any]] = (
            clients[0].get(f"/api/tournaments/{tournament_id}/pairings").json()
        )
        if rounds and all(game["status"] == "playing" for game in rounds[0]["games"]):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the first round was never paired")
    for client in clients:
        client.close()
    return tournament_id


def check_page(page: Page, tournament_id: str, round_text: str, where: str) -> None:
    page.goto(f"/tournaments/{tournament_id}")
    expect(page.locator("#tournament-name")).to_have_text("Friday Summy Swiss")
    expect(page.locator("#tournament-clock")).to_have_text(round_text)
    expect(page.locator("#standings-rows tr")).to_have_count(4)
    expect(page.locator("#pairings-list li")).to_have_count(2)
    expect(page.locator("#tournament-next")).to_be_visible()
    expect(page.locator("#tournament-withdraw")).to_be_visible()
    assert untranslated(page) == [], where
    assert violations(page, where) == []


def test_a_tournament_page_on_a_desktop_and_a_phone(new_page: NewPage, live: ServerProcess) -> None:
    page = new_page("en-GB", DESKTOP)
    tournament_id = running_swiss(live, page)
    check_page(page, tournament_id, "Round 1 of 3", "tournament-desktop")
    href = page.locator("#tournament-next-link").get_attribute("href")
    assert href is not None and href.startswith("/tables/")
    shot(page, "tournament-desktop")
    page.goto("/")
    listed = page.locator("#tournament-list a", has_text="Friday Summy Swiss")
    expect(listed).to_have_attribute("href", f"/tournaments/{tournament_id}")
    assert violations(page, "home-with-tournaments") == []

    phone = new_page("ja-JP", PHONE, has_touch=True, is_mobile=True, color_scheme="dark")
    cookies = page.context.cookies()
    phone.context.add_cookies(cookies)  # the same player, on a phone, in Japanese
    check_page(phone, tournament_id, "第 1 ラウンド(全 3 ラウンド)", "tournament-phone-ja")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "tournament-phone-ja")
