"""The Bot API on the account page as a person uses it: a token made, shown once, copied and
revoked (and then refused by the server); an account turned into a bot shows its BOT mark."""

from __future__ import annotations

import re
import secrets

import httpx
import pytest
from browser_harness import NewPage, ServerProcess, untranslated
from playwright.sync_api import Page, expect
from test_browser_account import sign_up

pytestmark = pytest.mark.browser


def a_name() -> str:
    return f"Botmaker{secrets.token_hex(3)}"


def me_with(live: ServerProcess, token: str) -> httpx.Response:
    """What the server answers a program sending ``token``."""
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.get(f"{live.url}/api/auth/me", headers=headers, timeout=30)


def open_account(page: Page) -> None:
    page.locator("#account-settings").click()
    page.wait_for_url("**/account")


def test_a_token_is_shown_once_works_and_is_revoked(new_page: NewPage, live: ServerProcess) -> None:
    page = new_page()
    name = a_name()
    sign_up(page, name)
    open_account(page)
    expect(page.locator("#token-none")).to_be_visible()
    page.get_by_label("Label (to recognise it)").fill("my summy bot")
    page.get_by_label("Read your games and records").check()
    page.get_by_role("button", name="Make a token").click()
    expect(page.locator("#token-new")).to_contain_text("shown only once")
    expect(page.locator("#token-value")).to_have_text(re.compile(r"^meeple_\S{40,}$"))
    token = page.locator("#token-value").inner_text()
    page.get_by_role("button", name="Copy", exact=True).click()
    expect(page.locator("#token-message")).to_have_text(re.compile("Copied|Selected"))
    row = page.locator("#token-list li")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("my summy bot")
    expect(row).to_contain_text("bot:play games:read")
    expect(row).to_contain_text("never used")
    assert untranslated(page) == []
    answer = me_with(live, token)
    assert answer.status_code == 200 and answer.json()["name"] == name

    page.reload()  # shown once: the list stays, the token itself is gone for good
    expect(page.locator("#token-list li")).to_contain_text("last used")
    expect(page.locator("#token-new")).to_be_hidden()
    assert token not in page.content()

    page.get_by_role("button", name="Revoke the token my summy bot").click()
    expect(page.locator("#token-message")).to_contain_text("Token revoked")
    expect(page.locator("#token-list li")).to_have_count(0)
    expect(page.locator("#token-none")).to_be_visible()
    refused = me_with(live, token)
    assert refused.status_code == 401 and refused.json()["code"] == "bad_token"


def test_a_bot_account_shows_its_bot_mark(new_page: NewPage) -> None:
    page = new_page()
    name = a_name()
    sign_up(page, name)
    open_account(page)
    expect(page.locator("#bot-become")).to_contain_text("cannot be undone")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Turn this account into a bot account").click()
    expect(page.locator("#bot-become")).to_be_visible()  # (dismissed: still a person)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Turn this account into a bot account").click()
    expect(page.locator("#bot-is")).to_be_visible()
    expect(page.locator("#bot-become")).to_be_hidden()
    expect(page.locator("#settings-name .bot-mark")).to_have_text("BOT")

    page.goto(f"/profile/{name}")
    mark = page.locator("#profile h1 .bot-mark")
    expect(mark).to_have_text("BOT")
    expect(mark).to_have_attribute("title", "A bot account: a program plays here")
    assert untranslated(page) == []

    french = new_page(lang="fr-FR")
    french.goto(f"/profile/{name}")
    expect(french.locator("#profile h1 .bot-mark")).to_have_attribute(
        "title", "Un compte bot : un programme joue ici"
    )
    french.goto("/leaderboard/slide?bots=true")
    expect(french.locator("#board-bots")).to_have_attribute("aria-current", "page")
    expect(french.locator("#board-people")).to_have_text("Personnes")
