"""Challenges on the site as a person meets them: an external bot online shows among "Play a
bot"'s levels; challenging it waits for its answer, shows a decline's reason in the page's
language, and goes to the table once it accepts; a challenge sent to a person shows on the home
page, and accepting it opens the table."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from browser_harness import NewPage, ServerProcess, untranslated
from event_streams import EventStream
from playwright.sync_api import expect
from test_browser_account import sign_up
from test_browser_axe import violations

pytestmark = pytest.mark.browser


@contextmanager
def online_bot(live: ServerProcess, accept: str) -> Iterator[tuple[str, httpx.Client, EventStream]]:
    """A bot account with its event stream open (so online), taking ``accept``'s games: its
    name, a client sending its token, and its stream."""
    name = f"deep{secrets.token_hex(3)}"
    with live.client() as owner:
        owner.post("/api/auth/register", json={"name": name, "password": "Tile-Slider-42"})
        assert owner.post("/api/account/bot").json()["bot"] is True
        made = owner.post("/api/account/tokens", json={"label": "b", "scopes": ["bot:play"]})
        token = made.json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    events = EventStream(live.url, bearer, f"?accept={accept}")
    bot = httpx.Client(base_url=live.url, headers=bearer, timeout=30)
    try:
        # Listed a moment after its stream opened: the page then finds it on its first look.
        deadline = time.monotonic() + 10
        while name not in {b["name"] for b in bot.get("/api/bots/online").json()}:
            assert time.monotonic() < deadline, "the bot never showed online"
            time.sleep(0.05)
        yield name, bot, events
    finally:
        bot.close()
        events.close()


def test_a_person_challenges_a_bot_online(new_page: NewPage, live: ServerProcess) -> None:
    with online_bot(live, "summy") as (name, bot, events):
        page = new_page(lang="fr-FR")
        page.goto("/")
        level = page.locator('select[data-bot-level="summy"]')
        expect(level.locator(f'option[value="online:{name}"]')).to_be_attached()
        # It takes only Summy: the other games' cards do not offer it.
        for other in page.locator("select[data-bot-level]").all():
            if other.get_attribute("data-bot-level") != "summy":
                expect(other.locator(f'option[value="online:{name}"]')).to_have_count(0)
        card = page.locator("#card-summy")

        level.select_option(f"online:{name}")
        card.locator("button[data-bot]").click()
        wait = page.locator("#challenge-wait")
        expect(wait).to_contain_text(f"En attente de l'acceptation de {name}")
        first = events.next("challenge")["challenge"]
        assert first["to"]["name"] == name and first["game"] == "summy"
        declined = bot.post(f"/api/challenges/{first['id']}/decline", json={"reason": "too_fast"})
        assert declined.status_code == 200, declined.text
        expect(wait).to_contain_text(f"{name} a refusé : cette cadence est trop rapide.")
        expect(page.locator("#challenge-cancel")).to_be_hidden()
        assert untranslated(page) == []

        card.locator("button[data-bot]").click()
        second = events.next("challenge")["challenge"]
        expect(wait).to_contain_text("En attente")
        accepted = bot.post(f"/api/challenges/{second['id']}/accept")
        assert accepted.status_code == 200, accepted.text
        table_id = accepted.json()["table_id"]
        page.wait_for_url(f"**/table/{table_id}")
        assert events.next("game_start")["table_id"] == table_id


def test_a_person_cancels_and_accepts_a_challenge(new_page: NewPage, live: ServerProcess) -> None:
    with online_bot(live, "summy,slide") as (name, bot, events):
        page = new_page()
        person = f"Ada{secrets.token_hex(3)}"
        sign_up(page, person)
        level = page.locator('select[data-bot-level="summy"]')
        expect(level.locator(f'option[value="online:{name}"]')).to_be_attached()
        level.select_option(f"online:{name}")
        page.locator("#card-summy button[data-bot]").click()
        sent = events.next("challenge")["challenge"]
        page.get_by_role("button", name="Cancel", exact=True).click()
        assert events.next("challenge_cancelled")["challenge"]["id"] == sent["id"]
        expect(page.locator("#challenge-wait")).to_be_hidden()

        # The bot challenges the person: the home page lists it, and accepting opens the table.
        to_person = bot.post("/api/challenges", json={"to": person, "game": "summy"})
        assert to_person.status_code == 201, to_person.text
        incoming = page.locator("#challenges-in-list li")
        expect(incoming).to_contain_text(f"{name} (BOT) challenges you: Summy, 60 seconds per move")
        assert untranslated(page) == []
        incoming.get_by_role("button", name="Accept").click()
        start = events.next("game_start")
        page.wait_for_url(f"**/table/{start['table_id']}")


def test_the_bots_online_are_listed_on_the_home_page_with_a_clock_to_choose(
    new_page: NewPage, live: ServerProcess
) -> None:
    """A bot online shows in its own section of the home page, each game it takes a button; the
    challenge carries the clock chosen there (the server's paces, not always 60 s a move), and
    so does one sent from a game card's level list."""
    with online_bot(live, "summy,slide") as (name, _bot, events):
        page = new_page("it-IT")
        page.goto("/")
        section = page.locator("#online-bots")
        expect(section).to_be_visible()
        row = section.locator("li").filter(has_text=name)
        expect(row.get_by_role("link", name=f"{name} (BOT)")).to_have_attribute(
            "href", f"/profile/{name}"
        )
        assert violations(page, "home, a bot online") == []
        clock = section.get_by_label("Tempo per la sfida")
        expect(clock.locator("option")).to_have_count(5)
        clock.select_option(label="10 minuti a mossa")
        row.get_by_role("button", name=f"Sfida a Slide: {name}").click()
        sent = events.next("challenge")["challenge"]
        assert (sent["game"], sent["pace"], sent["move_seconds"]) == ("slide", "realtime", 600)
        expect(page.locator("#challenge-wait")).to_be_visible()
        page.get_by_role("button", name="Annulla", exact=True).click()
        assert events.next("challenge_cancelled")["challenge"]["id"] == sent["id"]

        clock.select_option(label="24 ore a mossa")
        page.locator('select[data-bot-level="summy"]').select_option(f"online:{name}")
        page.locator("#card-summy button[data-bot]").click()
        sent = events.next("challenge")["challenge"]
        assert (sent["game"], sent["pace"], sent["move_seconds"]) == ("summy", "turn", 86400)
        assert untranslated(page) == []
