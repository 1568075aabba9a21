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


def test_a_player_creates_a_tournament_from_the_form_and_runs_it_live(
    new_page: NewPage, live: ServerProcess
) -> None:
    """The home page's link, the form, then the creator's page: join, pause and resume, a
    second player joining elsewhere, and the cancel, each shown as it happens (over the
    tournament socket: the page polls only while that socket is down)."""
    page = new_page("en-GB", {"width": 1280, "height": 800})
    assert page.request.post("/api/auth/guest").status == 201
    page.goto("/")
    page.get_by_role("link", name="Create a tournament").click()
    expect(page.locator("h1")).to_have_text("Create a tournament")
    assert violations(page, "tournament-new-desktop") == []
    page.fill("#tn-name", "Evening Arena")
    page.select_option("#tn-format", "arena")
    expect(page.locator("#tn-rounds-label")).to_be_hidden()
    page.fill("#tn-minutes", "20")
    page.fill("#tn-starts", "30")
    page.check("#tn-private")
    shot(page, "tournament-new-desktop")
    page.get_by_role("button", name="Create", exact=True).click()
    page.wait_for_url("**/tournaments/*?secret=*")
    expect(page.locator("#tournament-name")).to_have_text("Evening Arena")
    expect(page.locator("#tournament-link")).to_be_visible()
    expect(page.locator("#tournament-cancel")).to_be_visible()
    expect(page.locator("#tournament-bots")).to_be_visible()

    page.locator("#tournament-join").click()
    expect(page.locator("#standings-rows tr")).to_have_count(1)
    page.locator("#tournament-pause").click()
    expect(page.locator("#standings-rows")).to_contain_text("(paused)")
    page.locator("#tournament-resume").click()
    expect(page.locator("#standings-rows")).not_to_contain_text("(paused)")

    # Another player joins by the shared link: the page shows it within the socket's
    # moment, long before its 5-second poll would (which is off while the socket is up).
    link = page.locator("#tournament-link-url").get_attribute("href")
    assert link is not None and "secret=" in link
    secret = link.split("secret=", 1)[1]
    tournament_id = page.url.split("/tournaments/", 1)[1].split("?", 1)[0]
    other = live.client()
    guest(other)
    joined = other.post(f"/api/tournaments/{tournament_id}/join", json={"secret": secret})
    assert joined.status_code == 200, joined.text
    expect(page.locator("#standings-rows tr")).to_have_count(2, timeout=2500)
    page.locator("#tournament-bot-count").fill("3")
    page.locator("#tournament-bots button").click()
    expect(page.locator("#standings-rows tr")).to_have_count(5)
    assert untranslated(page) == []
    assert violations(page, "tournament-creator-desktop") == []
    shot(page, "tournament-creator-desktop")

    phone = new_page("fr-FR", {"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.context.add_cookies(page.context.cookies())  # the creator, on a phone, in French
    phone.goto(page.url)
    expect(phone.locator("#standings-rows tr")).to_have_count(5)
    expect(phone.locator("#tournament-cancel")).to_have_text("Annuler le tournoi")
    assert untranslated(phone) == []
    assert violations(phone, "tournament-creator-phone-fr") == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "tournament-creator-phone-fr")
    phone.goto("/tournaments/new")
    assert untranslated(phone) == []
    assert violations(phone, "tournament-new-phone-fr") == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "tournament-new-phone-fr")

    page.locator("#tournament-cancel").click()
    expect(page.locator("#tournament-clock")).to_have_text("Cancelled")
    other.close()
