"""Email against one determined stranger, through a real SMTP server (aiosmtpd): addresses
that are not one plain mailbox, one mailbox bombed through plus-tags, a stranger's
reset requests spending its owner's budget or telling whether an account exists, reset
links that outlive what they were sent for, and outbox rows that cannot be sent."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import Client, LiveServer, free_port, make_settings, start_server
from smtp_server import SmtpServer, body_text, smtp_server

from meeple.store import emails

PASSWORD = "Tile-Slider-42"
NEW_PASSWORD = "Meeple-Reset-77"


def email_server(tmp_path: Path, smtp: SmtpServer, **extra: object) -> LiveServer:
    """A live server on SQLite that sends email to ``smtp``, its links on its own address
    (``MEEPLE_SITE_URL``: no owner hint)."""
    port = free_port()
    settings = make_settings(
        tmp_path, smtp_url=smtp.url, site_url=f"http://127.0.0.1:{port}", **extra
    )
    return start_server(settings, port=port)


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    """A running SMTP server collecting what it receives."""
    with smtp_server() as server:
        yield server


@pytest.fixture
def mailing(tmp_path: Path, smtp: SmtpServer) -> Iterator[LiveServer]:
    """A live server that sends email to :func:`smtp`, with the default limits."""
    server = email_server(tmp_path, smtp)
    try:
        yield server
    finally:
        server.stop()


def mails_to(smtp: SmtpServer, address: str) -> list[EmailMessage]:
    """The messages ``address`` got so far."""
    return [m for m in smtp.messages if m["To"] == address]


def next_to(smtp: SmtpServer, address: str, before: int) -> EmailMessage:
    """The ``before``-th message to ``address`` (counting from 0), waiting for it."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        got = mails_to(smtp, address)
        if len(got) > before:
            return got[before]
        time.sleep(0.05)
    raise AssertionError(f"no new email to {address}")


def link_in(message: EmailMessage, path: str) -> str:
    """The path and query of the one link to ``path`` in the message's text."""
    found = re.findall(
        rf"http://127\.0\.0\.1:\d+({re.escape(path)}\?token=[\w-]+)", body_text(message)
    )
    assert len(found) == 1, body_text(message)
    return str(found[0])


def verified(server: LiveServer, smtp: SmtpServer, name: str, address: str) -> Client:
    """A signed-in account whose ``address`` is verified by its link."""
    client = server.client(name)
    client.register(name)
    before = len(mails_to(smtp, address))
    answer = client.http.put("/api/account/email", json={"address": address})
    assert answer.status_code == 200, answer.text
    link = link_in(next_to(smtp, address, before), "/email/verify")
    assert client.http.get(link).status_code == 200
    return client


def reset_token(smtp: SmtpServer, address: str, before: int) -> str:
    """The token of the ``before``-th reset email to ``address``."""
    return link_in(next_to(smtp, address, before), "/password/reset").rsplit("=", 1)[1]


def test_only_one_plain_mailbox_is_an_address(mailing: LiveServer, smtp: SmtpServer) -> None:
    """email-validator decides: no RFC 2047 encoded-word (it was decoded into a second
    recipient), no IP literal, no non-ASCII before the @; an internationalised domain is
    kept in its ASCII (IDNA) form, the one form sent and compared."""
    ada = mailing.client("ada")
    ada.register("Ada")
    for bad in (
        "=?utf-8?q?eve=40evil.example=2C?=ada@example.org",
        "=?utf-8?b?ZXZlQGV2aWwuZXhhbXBsZQ==?=@example.org",
        "ada@[127.0.0.1]",
        "ada@[IPv6:::1]",
        "ada@127.0.0.1",
        "adá@example.org",
        '"ada smith"@example.org',
        "ada@example.org, eve@evil.example",
    ):
        answer = ada.http.put("/api/account/email", json={"address": bad})
        assert answer.status_code == 422 and answer.json()["code"] == "email_shape", bad
    assert ada.get("/api/account/email")["address"] is None

    answer = ada.http.put("/api/account/email", json={"address": "Ada@Bücher.DE"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["address"] == "ada@xn--bcher-kva.de"
    message = next_to(smtp, "ada@xn--bcher-kva.de", 0)
    assert message["To"].addresses[0].addr_spec == "ada@xn--bcher-kva.de"
    time.sleep(0.5)
    assert [m["To"] for m in smtp.messages] == ["ada@xn--bcher-kva.de"]


def test_one_mailbox_is_capped_whatever_its_plus_tags_and_case(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    """``a+1@x``, ``A+2@X`` and ``a@x`` are one mailbox: the cap on verification emails to
    one mailbox counts them together, whichever accounts ask."""
    server = email_server(tmp_path, smtp, limit_emails="2/hour")
    try:
        answers = []
        for n, address in enumerate(("vic+1@example.org", "VIC+2@Example.org", "vic@example.org")):
            client = server.client(f"bomber{n}")
            client.register(f"Bomber{n}")
            answers.append(client.http.put("/api/account/email", json={"address": address}))
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[2].json()["code"] == "rate_limited"
        time.sleep(0.5)
        assert len(smtp.messages) == 2
    finally:
        server.stop()


def test_a_strangers_reset_requests_leave_the_owners_budget_alone(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    """Forgot-password sent by someone else spends the requester's budget and the reset
    budget, never the owner's own: the owner can still change and verify the address."""
    server = email_server(tmp_path, smtp, limit_emails="2/hour")
    try:
        ada = verified(server, smtp, "Ada", "ada@example.org")
        stranger = server.client("stranger")
        answers = [
            stranger.http.post("/api/password/forgot", json={"name_or_email": "Ada"})
            for _ in range(4)
        ]
        # The stranger's own budget (by client address) runs out; it tells nothing of Ada.
        assert [a.status_code for a in answers] == [200, 200, 429, 429]
        next_to(smtp, "ada@example.org", 2)  # the verification, then two resets
        changed = ada.http.put("/api/account/email", json={"address": "ada@example.net"})
        assert changed.status_code == 200, changed.text
        link = link_in(next_to(smtp, "ada@example.net", 0), "/email/verify")
        assert ada.http.get(link).status_code == 200
        assert ada.get("/api/account/email")["verified"] is True
    finally:
        server.stop()


def test_forgot_password_answers_before_looking_anything_up(
    mailing: LiveServer, smtp: SmtpServer
) -> None:
    """A known and an unknown name or address get their answer by the same path: before any
    account is looked up (a lookup held back holds back no answer), so no timing tells
    them apart; the email to a known account goes after."""
    verified(mailing, smtp, "Ada", "ada@example.org")
    db = mailing.services.db
    released = threading.Event()
    held: list[str] = []
    real_run, real_write = db.run, db.write

    async def gated(real: Any, query: Any, *args: Any) -> Any:
        if query.__module__ in ("meeple.store.emails", "meeple.store.queries"):
            held.append(query.__name__)
            await asyncio.get_running_loop().run_in_executor(None, released.wait, 20)
        return await real(query, *args)

    db.run = lambda query, *args: gated(real_run, query, *args)  # type: ignore[method-assign]
    db.write = lambda query, *args: gated(real_write, query, *args)  # type: ignore[method-assign]
    try:
        # One connection: a request after a known account's does not wait on its work either.
        with httpx.Client(base_url=mailing.url, timeout=5) as one:
            for who in ("Ada", "ada@example.org", "Nobody", "nobody@example.org"):
                answer = one.post("/api/password/forgot", json={"name_or_email": who})
                assert (answer.status_code, answer.text) == (200, '{"accepted":true}'), who
    finally:
        released.set()
        db.run, db.write = real_run, real_write  # type: ignore[method-assign]
    next_to(smtp, "ada@example.org", 2)  # both resets for Ada went after their answers


def test_a_reset_link_dies_with_a_newer_link_a_password_change_or_an_address_change(
    mailing: LiveServer, smtp: SmtpServer
) -> None:
    """A reset link is good for the password and the address it was sent for, and only
    while it is the newest."""
    ada = verified(mailing, smtp, "Ada", "ada@example.org")
    stranger = mailing.client("stranger")

    def reset(token: str, password: str = NEW_PASSWORD) -> httpx.Response:
        return stranger.http.post(
            "/api/password/reset", json={"token": token, "password": password}
        )

    def void(token: str) -> None:
        answer = reset(token)
        assert answer.status_code == 410 and answer.json()["code"] == "bad_link", answer.text
        page = stranger.http.get(f"/password/reset?token={token}")
        assert page.status_code == 410

    stranger.post("/api/password/forgot", {"name_or_email": "Ada"})
    first = reset_token(smtp, "ada@example.org", 1)
    stranger.post("/api/password/forgot", {"name_or_email": "Ada"})
    second = reset_token(smtp, "ada@example.org", 2)
    void(first)  # a newer link voids it

    ada.http.post(
        "/api/auth/password", json={"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    ).raise_for_status()
    void(second)  # the password changed since

    stranger.post("/api/password/forgot", {"name_or_email": "Ada"})
    third = reset_token(smtp, "ada@example.org", 3)
    ada.http.put("/api/account/email", json={"address": "ada@example.net"}).raise_for_status()
    void(third)  # the address changed since

    link = link_in(next_to(smtp, "ada@example.net", 0), "/email/verify")
    assert ada.http.get(link).status_code == 200
    stranger.post("/api/password/forgot", {"name_or_email": "Ada"})
    fourth = reset_token(smtp, "ada@example.net", 1)
    assert reset(fourth, "Brand-New-Pass-5").status_code == 200
    stranger.post("/api/auth/login", {"name": "Ada", "password": "Brand-New-Pass-5"})


def test_every_email_is_dated_and_has_a_message_id(mailing: LiveServer, smtp: SmtpServer) -> None:
    """``Date`` and ``Message-ID`` on every email (some spam filters reject one without)."""
    verified(mailing, smtp, "Ada", "ada@example.org")
    mailing.client("x").post("/api/password/forgot", {"name_or_email": "Ada"})
    next_to(smtp, "ada@example.org", 1)
    for message in smtp.messages:
        assert message["Date"] is not None and message["Date"].datetime is not None
        assert re.fullmatch(r"<[^<>@\s]+@[^<>@\s]+>", str(message["Message-ID"]))
    ids = {str(m["Message-ID"]) for m in smtp.messages}
    assert len(ids) == len(smtp.messages)


def test_an_email_the_outbox_cannot_build_is_failed_with_its_reason(
    mailing: LiveServer, smtp: SmtpServer
) -> None:
    """A row whose header or address cannot be sent is marked failed with the reason, at
    once; the sender keeps going and the next email goes out."""
    now = mailing.clock.now()

    def row(dedupe: str, to: str, headers: dict[str, str]) -> dict[str, Any]:
        return {"user_id": None, "to": to, "subject": "hello", "text": "hi", "html": "<p>hi</p>",
                "headers": headers, "dedupe": dedupe}  # fmt: skip

    bad = [
        row("b64", "=?utf-8?b?ZXZlQGV2aWwuZXhhbXBsZQ==?=@example.org", {}),
        row("qp", "=?utf-8?q?eve=40evil.example=2C?=ada@example.org", {}),
        row("header", "ada@example.org", {"X-Note": "one\r\nBcc: eve@evil.example"}),
        row("two", "ada@example.org, eve@evil.example", {}),
    ]
    # A row stored before addresses were read as they are now goes to its plain form.
    legacy = row("legacy", "Old@Bücher.DE", {})
    for values in [*bad, legacy]:
        assert mailing.services.db.call(emails.add_email, values, now)
    bob = mailing.client("bob")
    bob.register("Bob")
    bob.http.put("/api/account/email", json={"address": "bob@example.org"}).raise_for_status()
    next_to(smtp, "bob@example.org", 0)
    deadline = time.monotonic() + 10
    while True:
        rows = {r.dedupe: r for r in mailing.services.db.call(emails.outbox_rows)}
        if all(rows[v["dedupe"]].status == "failed" for v in bad) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for values in bad:
        failed = rows[values["dedupe"]]
        assert failed.status == "failed" and failed.last_error, (values, failed.status)
        assert failed.claimed_by is None
    time.sleep(0.5)
    assert sorted(str(m["To"]) for m in smtp.messages) == [
        "bob@example.org",
        "old@xn--bcher-kva.de",
    ]
