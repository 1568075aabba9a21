"""The account page's Email section in a browser, with a real SMTP server (aiosmtpd): give
an address, open the link from the email, see it verified, remove it; the sign-in page's
"Forgot your password?" link."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from unittest import mock

import browser_harness
import pytest
from browser_harness import NewPage, ServerProcess, own_server, untranslated
from playwright.sync_api import expect
from smtp_server import SmtpServer, body_text, smtp_server

PASSWORD = "Tile-Slider-42"


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpServer]:
    """The SMTP server the module's meeple server sends to."""
    with smtp_server() as server:
        yield server


@pytest.fixture(scope="module")
def mailing(tmp_path_factory: pytest.TempPathFactory, smtp: SmtpServer) -> Iterator[ServerProcess]:
    """``meeple serve`` with email on."""
    port = browser_harness.free_port()
    env = {"MEEPLE_SMTP_URL": smtp.url, "MEEPLE_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    with (
        mock.patch.object(browser_harness, "free_port", lambda: port),
        own_server(tmp_path_factory.mktemp("account-email"), env) as server,
    ):
        yield server


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_address_is_given_verified_and_removed_on_the_account_page(
    new_page: NewPage, mailing: ServerProcess, smtp: SmtpServer, lang: str
) -> None:
    name = f"Mail{secrets.token_hex(3)}"
    address = f"{name.lower()}@example.org"
    page = new_page(lang, base_url=mailing.url)
    made = page.request.post("/api/auth/register", data={"name": name, "password": PASSWORD})
    assert made.status == 201, made.text()
    page.goto("/account")
    section = page.locator("#email-section")
    expect(section).to_be_visible()
    expect(page.locator("#email-current")).to_be_hidden()
    page.locator("#email-form input[name=address]").fill(address)
    page.locator("#email-form button[type=submit]").click()
    expect(page.locator("#email-message")).to_contain_text(address)
    expect(page.locator("#email-address")).to_have_text(address)
    expect(page.locator("#email-resend")).to_be_visible()
    waiting = page.locator("#email-state").inner_text()
    assert untranslated(page) == []

    message = smtp.wait_for(lambda m: m["To"] == address)
    link = re.findall(r"http://\S+/email/verify\?token=[\w-]+", body_text(message))[0]
    page.goto(link)
    expect(page.locator(".email-link")).to_have_attribute("data-state", "verified")
    page.locator(".email-link a.button").click()
    page.wait_for_url(re.compile(r"/account$"))
    expect(page.locator("#email-state")).not_to_have_text(waiting)
    expect(page.locator("#email-resend")).to_be_hidden()

    page.locator("#email-remove").click()
    expect(page.locator("#email-current")).to_be_hidden()
    expect(page.locator("#email-message")).not_to_be_empty()
    page.reload()
    expect(page.locator("#email-section")).to_be_visible()
    expect(page.locator("#email-current")).to_be_hidden()


def test_the_sign_in_page_offers_a_password_reset(
    new_page: NewPage, mailing: ServerProcess
) -> None:
    page = new_page(base_url=mailing.url)
    page.goto("/signin")
    page.locator("#forgot-link").click()
    page.wait_for_url(re.compile(r"/password/forgot$"))
    expect(page.locator("#forgot-form")).to_be_visible()
    assert untranslated(page) == []
