"""The account page as a person uses it; a guest's header signs in; the guest limit's words."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

import pytest
from browser_harness import NewPage, guest, own_server, untranslated
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PASSWORD = "Rosetta-Stone-1799"


def sign_up(page: Page, name: str, password: str = PASSWORD) -> None:
    """Create an account through the sign-up page; the header then shows the name."""
    page.goto("/signup")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator("#account-name")).to_have_text(name)


def sign_in(page: Page, name: str, password: str) -> None:
    """Fill and send the sign-in form (the page is already /signin)."""
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.locator("#account-form").get_by_role("button", name="Sign in").click()


def a_name() -> str:
    return f"Reader{secrets.token_hex(3)}"


def test_a_changed_password_is_the_one_that_signs_in(new_page: NewPage) -> None:
    page = new_page()
    name = a_name()
    sign_up(page, name)
    page.locator("#account-settings").click()
    page.wait_for_url("**/account")
    expect(page.get_by_role("heading", name=re.compile("Your account"))).to_contain_text(name)
    page.get_by_label("Current password").fill("not my password at all")
    page.get_by_label("New password").fill("Champollion-Reads-1822")
    page.get_by_role("button", name="Change the password").click()
    expect(page.locator("#password-message")).to_have_text("Wrong name or password.")
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password").fill("Champollion-Reads-1822")
    page.get_by_role("button", name="Change the password").click()
    expect(page.locator("#password-message")).to_contain_text("Password changed")
    assert untranslated(page) == []
    page.locator("#account-signout").click()
    expect(page.locator("#account-signin")).to_be_visible()
    page.goto("/signin")
    sign_in(page, name, PASSWORD)
    expect(page.locator("#account-error")).to_be_visible()
    sign_in(page, name, "Champollion-Reads-1822")
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator("#account-name")).to_have_text(name)


def test_the_data_downloads_as_json_without_secrets(new_page: NewPage, tmp_path: Path) -> None:
    page = new_page()
    name = a_name()
    sign_up(page, name)
    page.goto("/account")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download my data (JSON)").click()
    saved = tmp_path / "account.json"
    download_info.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["account"]["name"] == name and data["account"]["guest"] is False
    assert data["open_sessions"] == 1 and data["games"] == []
    assert "password" not in saved.read_text() and "argon2" not in saved.read_text()


def test_signing_out_everywhere_ends_the_other_devices_too(new_page: NewPage) -> None:
    laptop, phone = new_page(), new_page()
    name = a_name()
    sign_up(laptop, name)
    phone.goto("/signin")
    sign_in(phone, name, PASSWORD)
    expect(phone.locator("#account-name")).to_have_text(name)
    laptop.goto("/account")
    laptop.get_by_role("button", name="Sign out everywhere").click()
    laptop.wait_for_url("**/signin?next=/account")
    phone.reload()
    expect(phone.locator("#account-signin")).to_be_visible()
    expect(phone.locator("#account-name")).to_be_hidden()


def test_a_deleted_account_cannot_sign_in_and_its_name_is_free(new_page: NewPage) -> None:
    page = new_page("fr-FR")
    name = a_name()
    page.goto("/signup")
    page.get_by_label("Nom").fill(name)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Créer mon compte").click()
    page.wait_for_url(re.compile(r"/$"))
    page.locator("#account-settings").click()
    expect(page.get_by_role("heading", name="Supprimer le compte")).to_be_visible()
    assert untranslated(page) == []
    page.get_by_label("Votre mot de passe, pour confirmer").fill("pas le bon mot de passe")
    page.get_by_role("button", name="Supprimer mon compte").click()
    expect(page.locator("#delete-message")).to_have_text("Nom ou mot de passe incorrect.")
    page.get_by_label("Votre mot de passe, pour confirmer").fill(PASSWORD)
    page.get_by_role("button", name="Supprimer mon compte").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator("#account-signin")).to_be_visible()
    page.goto("/signin")
    page.get_by_label("Nom").fill(name)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.locator("#account-form").get_by_role("button").click()
    expect(page.locator("#account-error")).to_have_text("Nom ou mot de passe incorrect.")
    someone = new_page()
    sign_up(someone, name, "Someone-Else-Entirely-9")


def test_a_guests_header_offers_to_sign_in_and_to_sign_up(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#account-guest").click()
    expect(page.locator("#account-name")).to_have_text(re.compile(r"^guest-"))
    expect(page.locator("#account-signin")).to_be_visible()
    expect(page.locator("#account-signin")).to_have_text("Sign in")
    expect(page.locator("#account-signup")).to_have_text("Create an account")
    expect(page.locator("#account-settings")).to_be_hidden()
    page.goto("/account")
    expect(page.locator("#settings-guest")).to_contain_text("playing as a guest")
    expect(page.locator("#settings-sections")).to_be_hidden()


def test_over_the_guest_limit_the_page_says_minutes_and_links_to_sign_in(
    new_page: NewPage, tmp_path: Path
) -> None:
    """A small guest limit: the next newcomer reads the wait in minutes and can sign in."""
    env = {"MEEPLE_LIMIT_GUESTS": "30/minute;2/hour"}
    with own_server(tmp_path, env) as server:
        with server.client() as client, server.client() as other:
            guest(other)
            guest(client)
            account = {"name": "Teacher", "password": PASSWORD}
            client.post("/api/auth/register", json=account).raise_for_status()
        page = new_page(base_url=server.url)
        page.goto("/")
        page.locator("#card-slide").get_by_role("button", name="Quick play").click()
        refusal = page.locator("#lobby-error")
        expect(refusal).to_contain_text(
            re.compile(r"Too many new guests from your network: try again in \d+ minutes, or sign")
        )
        assert "s." not in refusal.inner_text().split("minutes")[0]  # no bare seconds
        french = new_page("fr-FR", base_url=server.url)
        french.goto("/")
        french.locator("#account-guest").click()
        expect(french.locator("#account-refusal")).to_contain_text(
            re.compile(r"réessayez dans \d+ minutes, ou connectez-vous")
        )
        refusal.get_by_role("link", name="Sign in").click()
        page.wait_for_url("**/signin?next=%2F")
        sign_in(page, "Teacher", PASSWORD)
        page.wait_for_url(re.compile(r"/$"))
        expect(page.locator("#account-name")).to_have_text("Teacher")
        page.locator("#card-slide").get_by_role("button", name="Quick play").click()
        page.wait_for_url("**/table/*")
