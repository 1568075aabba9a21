"""Email in the browser, with a real SMTP server (aiosmtpd) and a ``meeple serve`` of its own:
a password reset from the forgot page to signed in, a "your turn" email's link opening the
table, and the page a forged unsubscribe link gets."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from unittest import mock

import browser_harness
import httpx
import pytest
from browser_harness import NewPage, ServerProcess, own_server, untranslated
from playwright.sync_api import expect
from smtp_server import SmtpServer, body_text, smtp_server
from test_browser_axe import violations
from test_browser_notifications import hello, move_if_due, token_client

PASSWORD = "Tile-Slider-42"


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpServer]:
    """The SMTP server the module's meeple server sends to."""
    with smtp_server() as server:
        yield server


@pytest.fixture(scope="module")
def mailing(tmp_path_factory: pytest.TempPathFactory, smtp: SmtpServer) -> Iterator[ServerProcess]:
    """``meeple serve`` with email on; a player unseen for a second is away."""
    port = browser_harness.free_port()
    env = {
        "MEEPLE_SMTP_URL": smtp.url,
        "MEEPLE_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "MEEPLE_EMAIL_AWAY_S": "1",
        "MEEPLE_LIMIT_EMAILS": "1000/minute",
    }
    with (
        mock.patch.object(browser_harness, "free_port", lambda: port),
        own_server(tmp_path_factory.mktemp("email"), env) as server,
    ):
        yield server


def links(text: str) -> list[str]:
    """The links in an email's text."""
    return re.findall(r"https?://\S+", text)


def verified_account(server: ServerProcess, smtp: SmtpServer, name: str) -> httpx.Client:
    """A signed-in HTTP client whose address ``<name>@example.org`` is verified by its link."""
    client = httpx.Client(base_url=server.url, timeout=30)
    made = client.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    address = f"{name.lower()}@example.org"
    client.put("/api/account/email", json={"address": address}).raise_for_status()
    message = smtp.wait_for(lambda m: m["To"] == address and "/email/verify" in body_text(m))
    link = next(url for url in links(body_text(message)) if "/email/verify" in url)
    assert client.get(link).status_code == 200
    return client


def test_a_password_reset_from_the_forgot_page_to_signed_in(
    new_page: NewPage, mailing: ServerProcess, smtp: SmtpServer
) -> None:
    name = f"Forgot{secrets.token_hex(3)}"
    verified_account(mailing, smtp, name).close()
    page = new_page(base_url=mailing.url)
    page.goto("/password/forgot")
    assert violations(page, "password-forgot") == []
    page.locator("input[name=name_or_email]").fill(f"{name.lower()}@example.org")
    page.locator("#forgot-form button[type=submit]").click()
    expect(page.locator("#password-message")).not_to_be_empty()
    message = smtp.wait_for(
        lambda m: m["To"] == f"{name.lower()}@example.org" and "/password/reset" in body_text(m)
    )
    link = next(url for url in links(body_text(message)) if "/password/reset" in url)
    page.goto(link)
    assert violations(page, "password-reset") == []
    page.locator("#reset-form input[name=password]").fill("Brand-New-Tiles-7")
    page.locator("#reset-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/account$"))
    expect(page.locator("#settings-name")).to_contain_text(name)
    assert untranslated(page) == []
    with httpx.Client(base_url=mailing.url) as http:
        old = http.post("/api/auth/login", json={"name": name, "password": PASSWORD})
        new = http.post("/api/auth/login", json={"name": name, "password": "Brand-New-Tiles-7"})
    assert old.status_code == 401 and new.status_code == 200
    page.goto(link)  # the link is spent: a clear page, no form
    expect(page.locator("h1")).to_have_text("This link does not work")
    expect(page.locator("#reset-form")).to_have_count(0)
    assert violations(page, "email-link-spent") == []


def test_the_your_turn_emails_link_opens_the_table_and_a_forged_link_is_refused(
    new_page: NewPage, mailing: ServerProcess, smtp: SmtpServer
) -> None:
    mover_name, away_name = f"Mover{secrets.token_hex(3)}", f"Away{secrets.token_hex(3)}"
    mover, away = (
        verified_account(mailing, smtp, mover_name),
        verified_account(mailing, smtp, away_name),
    )
    table = mover.post("/api/tables", json={"game": "summy", "seats": 2, "pace": "turn"})
    table_id = table.json()["table"]["id"]
    assert away.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    assert mover.post(f"/api/tables/{table_id}/start").status_code == 200
    players = {
        mover_name: token_client(mailing, mover.cookies),
        away_name: token_client(mailing, away.cookies),
    }
    first = next(n for n, p in players.items() if "legal" in hello(p, table_id))
    waiting = away_name if first == mover_name else mover_name
    time.sleep(1.5)  # the one who waits is now away (MEEPLE_EMAIL_AWAY_S=1)
    moves = 0
    while move_if_due(players[first], table_id, f"{first}-{moves}"):
        moves += 1
        assert moves < 200
    address = f"{waiting.lower()}@example.org"
    message = smtp.wait_for(lambda m: m["To"] == address and "Your turn" in str(m["Subject"]))
    table_link = f"{mailing.url}/tables/{table_id}"
    assert table_link in links(body_text(message))
    page = new_page(base_url=mailing.url)
    page.goto("/signin")
    page.get_by_label("Name").fill(waiting)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").last.click()
    page.wait_for_url(re.compile(r"/$"))
    page.goto(table_link)
    expect(page.locator("body")).to_contain_text(mover_name if waiting == away_name else away_name)
    assert table_id in page.url
    # A forged unsubscribe link: a clear page, nothing changed.
    unsubscribe = str(message["List-Unsubscribe"]).strip("<>")
    page.goto(unsubscribe[:-4] + "AAAA")
    expect(page.locator("#unsubscribe-refused")).to_be_visible()
    expect(page.locator("h1")).to_have_text("This link does not work")
    assert untranslated(page) == []
    assert violations(page, "unsubscribe-refused") == []
    # The real one: a confirm page with a button, then done.
    page.goto(unsubscribe)
    assert violations(page, "unsubscribe") == []
    page.get_by_role("button", name="Stop these emails").click()
    expect(page.locator("#unsubscribe-done")).to_be_visible()
    assert violations(page, "unsubscribe-done") == []
    # The account page shows the choice and turns the emails back on.
    page.goto("/account")
    your_turn = page.get_by_label("“Your turn” in turn-based games, when I am away")
    expect(your_turn).not_to_be_checked()
    expect(page.get_by_label("“Game finished”, with the result, when I am away")).to_be_checked()
    your_turn.check()
    expect(page.locator("#email-choices-message")).to_have_text("Saved.")
    waiter = away if waiting == away_name else mover
    assert waiter.get("/api/account/email-choices").json()["your_turn"] is True
    page.reload()
    expect(page.get_by_label("“Your turn” in turn-based games, when I am away")).to_be_checked()
    assert untranslated(page) == []
    for client in (mover, away, *players.values()):
        client.close()
