"""Email for accounts, against a real SMTP server (aiosmtpd): an address verified by its
link, a password reset by email, and the outbox's retries and once-only sending."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from server_harness import (
    Client,
    LiveServer,
    free_port,
    make_settings,
    require_redis,
    start_server,
)
from smtp_server import SmtpServer, body_html, body_text, smtp_server

from meeple.config import ConfigError, load_settings
from meeple.store import emails
from meeple.tables.notices import outbox

PASSWORD = "Tile-Slider-42"
NEW_PASSWORD = "Meeple-Reset-77"


def email_server(
    tmp_path: Path, smtp: SmtpServer, db_url: str | None = None, **extra: object
) -> LiveServer:
    """A live server that sends email to ``smtp``, its links on its own address."""
    port = free_port()
    settings = make_settings(
        tmp_path, db_url, smtp_url=smtp.url, public_url=f"http://127.0.0.1:{port}", **extra
    )
    return start_server(settings, port=port)


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    """A running SMTP server collecting what it receives."""
    with smtp_server() as server:
        yield server


@pytest.fixture
def mailing(tmp_path: Path, smtp: SmtpServer) -> Iterator[LiveServer]:
    """A live server on SQLite that sends email to :func:`smtp`."""
    server = email_server(tmp_path, smtp)
    try:
        yield server
    finally:
        server.stop()


def to(address: str):  # type: ignore[no-untyped-def]
    """A message filter: sent to ``address``."""
    return lambda message: message["To"] == address


def link_in(message: EmailMessage, path: str) -> str:
    """The one link to ``path`` in the message's text (the same as in its HTML)."""
    found = re.findall(
        rf"http://127\.0\.0\.1:\d+{re.escape(path)}\?token=[\w-]+", body_text(message)
    )
    assert len(found) == 1, body_text(message)
    assert found[0] in body_html(message).replace("&amp;", "&")
    return found[0]


def local(server: LiveServer, url: str) -> str:
    """The path and query of a link to ``server``."""
    assert url.startswith(server.url), (url, server.url)
    return url.removeprefix(server.url)


def add_address(client: Client, smtp: SmtpServer, address: str) -> str:
    """Give the client's account ``address``; the verification link it is sent."""
    answer = client.http.put("/api/account/email", json={"address": address})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"enabled": True, "address": address.lower(), "verified": False}
    before = len([m for m in smtp.messages if m["To"] == address.lower()])
    message = _next_to(smtp, address.lower(), before)
    return link_in(message, "/email/verify")


def _next_to(smtp: SmtpServer, address: str, before: int) -> EmailMessage:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        got = [m for m in smtp.messages if m["To"] == address]
        if len(got) > before:
            return got[before]
        time.sleep(0.05)
    raise AssertionError(f"no new email to {address}")


def verified_account(server: LiveServer, smtp: SmtpServer, name: str, address: str) -> Client:
    """A signed-in account whose ``address`` is verified."""
    client = server.client(name)
    client.register(name)
    link = add_address(client, smtp, address)
    assert client.http.get(local(server, link)).status_code == 200
    assert client.get("/api/account/email")["verified"] is True
    return client


def page_state(html: str) -> str:
    """The state the link page shows (``data-state``)."""
    found = re.search(r'data-state="([\w-]+)"', html)
    assert found, html
    return found.group(1)


def test_an_address_is_verified_by_its_link_once(mailing: LiveServer, smtp: SmtpServer) -> None:
    """The verification email carries a link that verifies the address, once; a forged or
    expired link gets a clear page."""
    ada = mailing.client("ada")
    ada.register("Ada")
    assert ada.get("/api/account/email") == {"enabled": True, "address": None, "verified": False}
    link = add_address(ada, smtp, "Ada@Example.org")
    message = smtp.wait_for(to("ada@example.org"))
    assert message["Subject"] == "Confirm your email address for meeple"
    assert "Hello Ada," in body_text(message)
    assert ada.get("/api/account/email")["verified"] is False

    # Anyone holding the link verifies it (an email client, another browser): no sign-in.
    opened = mailing.client("mail reader").http.get(local(mailing, link))
    assert opened.status_code == 200 and page_state(opened.text) == "verified"
    assert "Address verified" in opened.text
    assert ada.get("/api/account/email") == {
        "enabled": True,
        "address": "ada@example.org",
        "verified": True,
    }
    # Opened again (a mail scanner opened it first, say): it says so and changes nothing.
    again = ada.http.get(local(mailing, link))
    assert again.status_code == 200 and page_state(again.text) == "verified"

    forged = ada.http.get("/email/verify?token=" + "A" * 43)
    assert forged.status_code == 404 and page_state(forged.text) == "verify_unknown"
    assert "This link does not work" in forged.text
    french = ada.http.get("/email/verify?token=x", headers={"Accept-Language": "fr"})
    assert "Ce lien ne fonctionne pas" in french.text

    # A new address is unverified until its own link; after 24 hours the link is dead.
    late = add_address(ada, smtp, "ada@example.net")
    assert ada.get("/api/account/email")["verified"] is False
    mailing.advance(24 * 3600 + 1)
    expired = ada.http.get(local(mailing, late))
    assert expired.status_code == 410 and page_state(expired.text) == "verify_expired"
    assert ada.get("/api/account/email")["verified"] is False

    # The link for an address replaced since proves nothing.
    first = add_address(ada, smtp, "one@example.org")
    add_address(ada, smtp, "two@example.org")
    assert page_state(ada.http.get(local(mailing, first)).text) == "verify_unknown"
    # The first link, used, for an address replaced since: used, and nothing changes.
    used = ada.http.get(local(mailing, link))
    assert used.status_code == 410 and page_state(used.text) == "verify_used"
    assert ada.get("/api/account/email")["verified"] is False

    removed = ada.http.delete("/api/account/email")
    assert removed.status_code == 204
    assert ada.get("/api/account/email")["address"] is None


def test_addresses_are_checked_and_limited(tmp_path: Path, smtp: SmtpServer) -> None:
    """A malformed address is refused; links to one account are limited by MEEPLE_LIMIT_EMAILS."""
    server = email_server(tmp_path, smtp, limit_emails="2/hour")
    try:
        bob = server.client("bob")
        bob.register("Bob")
        bad = bob.http.put("/api/account/email", json={"address": "not an address"})
        assert bad.status_code == 422 and bad.json()["code"] == "email_shape"
        for n in range(2):
            ok = bob.http.put("/api/account/email", json={"address": f"bob{n}@example.org"})
            assert ok.status_code == 200
        over = bob.http.put("/api/account/email", json={"address": "bob9@example.org"})
        assert over.status_code == 429 and over.json()["code"] == "rate_limited"
        assert bob.get("/api/account/email")["address"] == "bob1@example.org"
        guest = server.client("guest")
        guest.guest()
        refused = guest.http.put("/api/account/email", json={"address": "g@example.org"})
        assert refused.status_code == 409
    finally:
        server.stop()


def test_a_password_is_reset_by_email(mailing: LiveServer, smtp: SmtpServer) -> None:
    """Forgot → the email's link → a new password: every session ends, the old password is
    refused, this browser is signed in; the link works once."""
    ada = verified_account(mailing, smtp, "Ada", "ada@example.org")
    other_device = mailing.client("phone")
    other_device.post("/api/auth/login", {"name": "Ada", "password": PASSWORD})
    assert other_device.get("/api/auth/me")["name"] == "Ada"

    # The same answer whether the account exists, has no verified address, or not at all.
    stranger = mailing.client("stranger")
    mailing.client("nomail").register("Nomail")
    answers = {
        who: stranger.http.post("/api/password/forgot", json={"name_or_email": who})
        for who in ("Ada", "Nobody", "Nomail", "nobody@example.org")
    }
    assert {(a.status_code, a.text) for a in answers.values()} == {(200, '{"accepted":true}')}
    message = _next_to(smtp, "ada@example.org", 1)
    assert message["Subject"] == "Choose a new password for meeple"
    link = link_in(message, "/password/reset")
    time.sleep(1.0)  # the other three asked for nothing that is sent
    assert [m["To"] for m in smtp.messages] == ["ada@example.org", "ada@example.org"]

    # By address too (any case); the newer link voids the first.
    stranger.post("/api/password/forgot", {"name_or_email": "ADA@example.org"}, 200)
    first, link = link, link_in(_next_to(smtp, "ada@example.org", 2), "/password/reset")

    browser = mailing.client("browser")
    assert browser.http.get(local(mailing, first)).status_code == 410
    form = browser.http.get(local(mailing, link))
    assert form.status_code == 200 and 'id="reset-form"' in form.text
    token = link.rsplit("=", 1)[1]
    weak = browser.http.post("/api/password/reset", json={"token": token, "password": "short"})
    assert weak.status_code == 422  # the link is not spent by a refused password
    done = browser.post("/api/password/reset", {"token": token, "password": NEW_PASSWORD})
    assert done["name"] == "Ada"
    assert browser.get("/api/auth/me")["name"] == "Ada"
    assert ada.get("/api/auth/me", expect=None) is None
    assert other_device.get("/api/auth/me", expect=None) is None
    old = stranger.http.post("/api/auth/login", json={"name": "Ada", "password": PASSWORD})
    assert old.status_code == 401
    stranger.post("/api/auth/login", {"name": "Ada", "password": NEW_PASSWORD})

    reused = browser.http.post(
        "/api/password/reset", json={"token": token, "password": "Other-Pass-99"}
    )
    assert reused.status_code == 410 and reused.json()["code"] == "bad_link"
    page = browser.http.get(local(mailing, link))
    assert page.status_code == 410 and page_state(page.text) == "reset_bad"
    forged = browser.http.get("/password/reset?token=forged")
    assert forged.status_code == 410 and "This password reset link" in forged.text


def test_a_reset_link_expires_after_an_hour(mailing: LiveServer, smtp: SmtpServer) -> None:
    """A reset link an hour old is refused, and the password stays."""
    verified_account(mailing, smtp, "Ada", "ada@example.org")
    mailing.client("x").post("/api/password/forgot", {"name_or_email": "Ada"}, 200)
    link = link_in(_next_to(smtp, "ada@example.org", 1), "/password/reset")
    mailing.advance(3601)
    browser = mailing.client("browser")
    assert page_state(browser.http.get(local(mailing, link)).text) == "reset_bad"
    token = link.rsplit("=", 1)[1]
    late = browser.http.post("/api/password/reset", json={"token": token, "password": NEW_PASSWORD})
    assert late.status_code == 410
    browser.post("/api/auth/login", {"name": "Ada", "password": PASSWORD})


def test_an_email_waits_while_smtp_is_down(tmp_path: Path) -> None:
    """SMTP down when the email is enqueued: the sender backs off and retries; the email
    arrives once SMTP is back, and only once."""
    smtp = SmtpServer()  # not started: connections are refused
    server = email_server(tmp_path, smtp)
    try:
        ada = server.client("ada")
        ada.register("Ada")
        ada.http.put("/api/account/email", json={"address": "ada@example.org"})
        rows = wait_rows(server, lambda rows: rows and rows[0].attempts >= 1)
        assert rows[0].status == "pending" and rows[0].last_error
        assert rows[0].next_try_at >= server.clock.now() + outbox.FIRST_BACKOFF_S - 1
        smtp.start()
        time.sleep(1.5)
        assert smtp.messages == []  # not before its backoff is over
        server.advance(outbox.FIRST_BACKOFF_S)
        message = smtp.wait_for(to("ada@example.org"))
        assert "/email/verify?token=" in body_text(message)
        wait_rows(server, lambda rows: rows[0].status == "sent")
        time.sleep(1.0)
        assert len(smtp.messages) == 1
    finally:
        server.stop()
        smtp.stop()


def wait_rows(server: LiveServer, done, timeout: float = 15.0):  # type: ignore[no-untyped-def]
    """The outbox's rows once ``done(rows)`` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = server.services.db.call(emails.outbox_rows)
        if done(rows):
            return rows
        time.sleep(0.05)
    raise AssertionError(f"the outbox never got there: {rows!r}")


def test_backoff_grows_and_is_capped() -> None:
    """30 s, 60 s, 120 s, … never more than an hour."""
    waits = [outbox.backoff(n) for n in range(1, 12)]
    assert waits[:3] == [30.0, 60.0, 120.0]
    assert waits == sorted(waits) and max(waits) == outbox.MAX_BACKOFF_S


def test_smtp_url_is_read() -> None:
    """STARTTLS and authentication come from MEEPLE_SMTP_URL."""
    target = outbox.SmtpTarget.parse("smtp://ann%40x.org:p%3Ass@mail.example.org:587?starttls=true")
    assert (target.host, target.port, target.start_tls, target.use_tls) == (
        "mail.example.org",
        587,
        True,
        False,
    )
    assert (target.username, target.password) == ("ann@x.org", "p:ss")
    tls = outbox.SmtpTarget.parse("smtps://mail.example.org")
    assert (tls.port, tls.use_tls, tls.start_tls) == (465, True, False)


@pytest.mark.postgres
def test_two_servers_send_each_email_once(tmp_path: Path, pg_url: str, smtp: SmtpServer) -> None:
    """Both servers' senders see the same due emails at the same moment: each arrives once."""
    redis_url = require_redis()
    smtp.stop()  # emails pile up, failed once each, due again at the same time for both
    # Redis keeps the rate limits' counts from run to run: none here.
    first = email_server(tmp_path / "a", smtp, pg_url, redis=redis_url, limit_emails="1000/second")
    second = email_server(tmp_path / "b", smtp, pg_url, redis=redis_url, limit_emails="1000/second")
    try:
        count = 12
        for n in range(count):
            server = (first, second)[n % 2]
            client = server.client(f"p{n}")
            client.register(f"Player{n}")
            answer = client.http.put("/api/account/email", json={"address": f"p{n}@example.org"})
            assert answer.status_code == 200
        wait_rows(first, lambda rows: len(rows) == count and all(r.attempts >= 1 for r in rows))
        # A slow SMTP server: while one sender works through the rows, the other finds the
        # rest due and takes its share (neither takes a row the other holds).
        smtp.collector.delay_s = 0.2
        smtp.start()
        first.advance(outbox.MAX_BACKOFF_S)
        second.advance(outbox.MAX_BACKOFF_S)
        wait_rows(first, lambda rows: all(r.status == "sent" for r in rows), timeout=30)
        time.sleep(1.5)
        got = sorted(m["To"] for m in smtp.messages)
        assert got == sorted(f"p{n}@example.org" for n in range(count))
        # A sent row names the server that sent it.
        senders = {r.claimed_by for r in first.services.db.call(emails.outbox_rows)}
        assert senders == {first.services.tables.server_id, second.services.tables.server_id}
    finally:
        first.stop()
        second.stop()


def test_without_smtp_email_is_off(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """No MEEPLE_SMTP_URL: the server starts and says email is off; the routes answer
    email_off and the pages offer no email features."""
    with caplog.at_level(logging.INFO, logger="meeple.tables.notices.outbox"):
        server = start_server(make_settings(tmp_path))
    try:
        said = [r.getMessage() for r in caplog.records if r.name == "meeple.tables.notices.outbox"]
        assert said == ["email is off: set MEEPLE_SMTP_URL"]
        ada = server.client("ada")
        ada.register("Ada")
        assert ada.get("/api/account/email") == {
            "enabled": False,
            "address": None,
            "verified": False,
        }
        put = ada.http.put("/api/account/email", json={"address": "ada@example.org"})
        assert put.status_code == 409 and put.json()["code"] == "email_off"
        forgot = ada.http.post("/api/password/forgot", json={"name_or_email": "Ada"})
        assert forgot.status_code == 409 and forgot.json()["code"] == "email_off"
        reset = ada.http.post("/api/password/reset", json={"token": "x", "password": NEW_PASSWORD})
        assert reset.status_code == 409
        page = ada.http.get("/account").text
        assert 'id="email-section"' not in page and "account_email.js" not in page
        assert 'id="forgot-link"' not in ada.http.get("/signin").text
        off = ada.http.get("/password/forgot")
        assert off.status_code == 409 and page_state(off.text) == "off"
    finally:
        server.stop()


def test_with_smtp_the_pages_offer_email(mailing: LiveServer) -> None:
    """With email on, the account page has its Email section and sign-in its reset link."""
    ada = mailing.client("ada")
    ada.register("Ada")
    assert 'id="email-section"' in ada.http.get("/account").text
    assert 'href="/password/forgot"' in ada.http.get("/signin").text
    assert 'id="forgot-form"' in ada.http.get("/password/forgot").text


def test_smtp_without_a_public_address_stops_start_up(tmp_path: Path) -> None:
    """Links in emails need the site's address: SMTP on without it is a start-up error."""
    with pytest.raises(ConfigError, match=r"MEEPLE_SMTP_URL needs MEEPLE_SITE_URL \(or MEEP"):
        load_settings(data_dir=tmp_path, smtp_url="smtp://127.0.0.1:2525")
    with pytest.raises(ConfigError, match=r"site-url: .*http"):
        load_settings(data_dir=tmp_path, smtp_url="smtp://h", site_url="ftp://x.org")
    alone = load_settings(data_dir=tmp_path, smtp_url="smtp://h", site_url="https://play.example/")
    assert (alone.links_url, alone.public_url) == ("https://play.example", None)
    with pytest.raises(ConfigError, match=r"smtp-url: .*must be smtp://"):
        load_settings(data_dir=tmp_path, smtp_url="http://mail.example.org")


def test_the_address_is_in_the_export_and_goes_with_the_account(
    mailing: LiveServer, smtp: SmtpServer
) -> None:
    """The data export shows the address; deleting the account forgets it and its links."""
    ada = verified_account(mailing, smtp, "Ada", "ada@example.org")
    exported = ada.get("/api/account")["email"]
    assert exported["address"] == "ada@example.org" and exported["verified_at"] is not None
    ada.post("/api/account/delete", {"password": PASSWORD})
    assert mailing.services.db.call(emails.users_with_verified, "ada@example.org") == []
    mailing.client("x").post("/api/password/forgot", {"name_or_email": "ada@example.org"})
    time.sleep(1.0)
    assert len(smtp.messages) == 1  # the verification only
