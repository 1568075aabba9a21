"""The emails that bring players back, through a real SMTP server (aiosmtpd): "your turn"
to an away player once per turn, its unsubscribe link, the day's digest, "game finished".

Each server has a manual clock: advancing it past ``MEEPLE_EMAIL_AWAY_S`` makes a
player without an open socket away. Addresses are verified the way a player does
it: the account page's PUT, then the link in the email.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import (
    Client,
    LiveServer,
    Socket,
    brain,
    free_port,
    make_settings,
    require_redis,
    start_server,
)
from smtp_server import SmtpServer, body_html, body_text, smtp_server

from meeple.store import emails
from meeple.store.models import User

AWAY_S = 900


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    """A real SMTP server the meeple server sends to."""
    with smtp_server() as server:
        yield server


def email_server(
    tmp_path: Path, smtp: SmtpServer, db_url: str | None = None, **extra: Any
) -> LiveServer:
    """A live server sending email to ``smtp``, its links pointing at itself."""
    port = free_port()
    settings = make_settings(
        tmp_path, db_url, smtp_url=smtp.url, public_url=f"http://127.0.0.1:{port}",
        email_away_s=AWAY_S, limit_emails="1000/minute", **extra,
    )  # fmt: skip
    return start_server(settings, port=port)


@pytest.fixture
def server(tmp_path: Path, smtp: SmtpServer) -> Iterator[LiveServer]:
    """A live server on SQLite with email on."""
    live = email_server(tmp_path, smtp)
    try:
        yield live
    finally:
        live.stop()


def to(address: str, subject: str = "") -> Any:
    """A match for :meth:`SmtpServer.wait_for`: a message to ``address`` whose subject has
    ``subject``."""
    return lambda m: m["To"] == address and subject in str(m["Subject"])


def links(message: EmailMessage) -> list[str]:
    """The links in a message's plain-text part."""
    return re.findall(r"https?://\S+", body_text(message))


def verified(server: LiveServer, smtp: SmtpServer, name: str) -> Client:
    """A signed-in account whose address ``<name>@example.org`` is verified by its link."""
    client = server.client(name)
    client.register(name)
    address = f"{name}@example.org"
    client.http.put("/api/account/email", json={"address": address}).raise_for_status()
    message = smtp.wait_for(to(address))
    link = next(url for url in links(message) if "/email/verify" in url)
    assert client.http.get(link).status_code == 200
    assert client.get("/api/account/email")["verified"] is True
    return client


def turn_table(first: Client, second: Client, game: str = "summy") -> str:
    """A started two-seat turn-based table of ``first`` and ``second``."""
    table = first.create_table(game=game, seats=2, pace="turn")["table"]
    second.post(f"/api/tables/{table['id']}/join", {})
    first.post(f"/api/tables/{table['id']}/start")
    return str(table["id"])


def play_turn(sock: Socket, game: str = "summy", seed: int = 7) -> None:
    """Act with ``sock`` (random legal actions) until it is no longer its seat's turn."""
    mind = brain(game, seed)
    sock.drain(wait=0.2)
    sent = 0
    while sock.seat in sock.to_act and not sock.finished:
        assert sock.view is not None
        client_id = f"{sock.client.label}-{time.monotonic_ns()}"
        sock.send({"type": "action", "id": client_id, "action": mind(sock.view, sock.seat)})
        ack = sock.recv_until(lambda m, cid=client_id: m.get("id") == cid)
        assert ack["type"] == "ack", ack
        sock.wait_version(ack["version"])
        sent += 1
        assert sent < 200, "the turn never ended"


def seats(server: LiveServer, alice: Client, bob: Client, table_id: str) -> tuple[Client, Client]:
    """``(mover, other)``: the player whose turn it is first, and the other one."""
    sock = alice.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    mover = alice if sock.seat in sock.to_act else bob
    sock.close()
    return mover, (bob if mover is alice else alice)


def your_turn_mails(smtp: SmtpServer, address: str) -> list[EmailMessage]:
    """The "your turn" emails ``address`` got (not the digest)."""
    return [m for m in smtp.messages if m["To"] == address and "/tables/" in body_text(m)
            and m["List-Unsubscribe"] and "Your turn at" in str(m["Subject"])]  # fmt: skip


def test_an_away_player_gets_one_your_turn_email_whose_link_opens_the_table(
    server: LiveServer, smtp: SmtpServer
) -> None:
    alice, bob = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    table_id = turn_table(alice, bob)
    mover, away = seats(server, alice, bob, table_id)
    server.advance(AWAY_S + 60)
    sock = mover.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    play_turn(sock)
    away_address = f"{away.label}@example.org"
    message = smtp.wait_for(to(away_address, "Your turn"))
    assert "Summy" in str(message["Subject"]) and mover.label in str(message["Subject"])
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message["List-Unsubscribe"].startswith(f"<{server.url}/email/unsubscribe?token=")
    table_link = f"{server.url}/tables/{table_id}"
    assert table_link in links(message) and table_link in body_html(message)
    page = away.http.get(table_link)
    assert page.status_code == 200 and table_id in page.text
    time.sleep(1.0)  # nothing more comes: one email per turn, none to the player on the site
    assert len(your_turn_mails(smtp, away_address)) == 1
    assert your_turn_mails(smtp, f"{mover.label}@example.org") == []


def test_the_unsubscribe_link_stops_the_next_email_and_the_account_page_restores_it(
    server: LiveServer, smtp: SmtpServer
) -> None:
    alice, bob = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    table_id = turn_table(alice, bob)
    mover, away = seats(server, alice, bob, table_id)
    server.advance(AWAY_S + 60)
    sock = mover.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    play_turn(sock)
    away_address = f"{away.label}@example.org"
    message = smtp.wait_for(to(away_address, "Your turn"))
    unsubscribe = message["List-Unsubscribe"].strip("<>")
    assert unsubscribe in links(message)
    with httpx.Client() as stranger:  # no cookie: the link is enough
        confirm = stranger.get(unsubscribe)
        assert confirm.status_code == 200 and "<form" in confirm.text
        assert away.get("/api/account/email-choices")["your_turn"] is True  # GET changed nothing
        done = stranger.post(unsubscribe)
        assert done.status_code == 200 and 'id="unsubscribe-done"' in done.text
    stopped = {"your_turn": False, "game_finished": True, "tournament_game": True}
    assert away.get("/api/account/email-choices") == stopped
    # The away player plays (on the site), leaves; the mover's next turn ends: no email.
    away_sock = away.connect(table_id)
    away_sock.recv_until(lambda m: m["type"] == "hello")
    sock.drain(wait=0.2)
    play_turn(away_sock, seed=8)
    away_sock.close()
    server.advance(AWAY_S + 60)
    sock.recv_until(lambda m: sock.seat in sock.to_act)
    play_turn(sock, seed=9)
    time.sleep(1.5)
    assert len(your_turn_mails(smtp, away_address)) == 1
    # The account page turns them back on.
    every = {"your_turn": True, "game_finished": True, "tournament_game": True}
    restored = away.http.put("/api/account/email-choices", json=every)
    assert restored.json() == every


def test_one_click_unsubscribe_needs_no_cookie_and_a_forged_link_is_refused(
    server: LiveServer, smtp: SmtpServer
) -> None:
    alice, bob = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    table_id = turn_table(alice, bob)
    mover, away = seats(server, alice, bob, table_id)
    server.advance(AWAY_S + 60)
    sock = mover.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    play_turn(sock)
    message = smtp.wait_for(to(f"{away.label}@example.org", "Your turn"))
    unsubscribe = message["List-Unsubscribe"].strip("<>")
    # RFC 8058: the mail provider POSTs the form body, from no page of this site.
    one_click = httpx.post(
        unsubscribe,
        content="List-Unsubscribe=One-Click",
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": "https://mail.example",
        },
    )
    assert one_click.status_code == 200
    assert away.get("/api/account/email-choices")["your_turn"] is False
    forged = unsubscribe[:-3] + ("abc" if not unsubscribe.endswith("abc") else "xyz")
    for response in (
        httpx.get(forged),
        httpx.post(forged),
        httpx.get(f"{server.url}/email/unsubscribe"),
    ):
        assert response.status_code == 400
        assert 'id="unsubscribe-refused"' in response.text and "does not work" in response.text
    assert away.get("/api/account/email-choices")["game_finished"] is True


def test_a_player_on_the_site_gets_no_email(server: LiveServer, smtp: SmtpServer) -> None:
    alice, bob = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    table_id = turn_table(alice, bob)
    mover, other = seats(server, alice, bob, table_id)
    server.advance(AWAY_S + 60)
    watching = other.connect(table_id)  # a tab open, though long unseen by the clock
    watching.recv_until(lambda m: m["type"] == "hello")
    sock = mover.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    play_turn(sock)
    watching.recv_until(lambda m: watching.seat in watching.to_act)
    play_turn(watching, seed=8)
    watching.close()
    # No socket open, but a page asked something a minute ago: still not away.
    other.get("/api/account/email-choices")
    sock.recv_until(lambda m: sock.seat in sock.to_act)
    server.advance(60)
    play_turn(sock, seed=9)
    time.sleep(1.5)
    assert your_turn_mails(smtp, f"{other.label}@example.org") == []


def test_many_turns_at_once_become_the_days_digest(server: LiveServer, smtp: SmtpServer) -> None:
    """MEEPLE_EMAIL_DIGEST_AFTER (3) turns due within the hour: the first two come alone,
    the third brings the digest listing all three, the fourth that day sends nothing."""
    alice, bob = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    tables = []
    while len(tables) < 4:  # tables where alice moves first, so bobby's turn follows hers
        table_id = turn_table(alice, bob)
        if seats(server, alice, bob, table_id)[0] is alice:
            tables.append(table_id)
    server.advance(AWAY_S + 60)
    address = "bobby@example.org"
    for number, table_id in enumerate(tables):
        sock = alice.connect(table_id)
        sock.recv_until(lambda m: m["type"] == "hello")
        play_turn(sock, seed=number)
        sock.close()
        if number < 2:
            smtp.wait_for(lambda m, t=table_id: m["To"] == address and t in body_text(m))
    digest = smtp.wait_for(to(address, "Your turn in 3 games"))
    assert digest["List-Unsubscribe"]
    for table_id in tables[:3]:
        assert f"{server.url}/tables/{table_id}" in links(digest)
    assert "· alice" in body_text(digest)
    time.sleep(1.5)
    mails = [m for m in smtp.messages if m["To"] == address and "Your turn" in str(m["Subject"])]
    assert len(mails) == 3, [m["Subject"] for m in mails]
    assert not any(tables[3] in body_text(m) for m in mails)


def test_a_name_with_a_line_break_neither_loses_an_email_nor_shows_raw(
    server: LiveServer, smtp: SmtpServer
) -> None:
    """An account named before names were checked (a line break in it): the "your turn"
    emails naming it still go, its name on one line in the subject and in the digest."""
    alice, bob = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    alice_id = alice.get("/api/auth/me")["id"]

    def rename(session: Any) -> None:
        session.get(User, alice_id).name = "ali\r\nce"

    server.services.db.call(rename)
    tables = []
    while len(tables) < 3:  # tables where alice moves first, so bobby's turn follows hers
        table_id = turn_table(alice, bob)
        if seats(server, alice, bob, table_id)[0] is alice:
            tables.append(table_id)
    server.advance(AWAY_S + 60)
    address = "bobby@example.org"
    for number, table_id in enumerate(tables):
        sock = alice.connect(table_id)
        sock.recv_until(lambda m: m["type"] == "hello")
        play_turn(sock, seed=number)
        sock.close()
        if number < 2:
            single = smtp.wait_for(lambda m, t=table_id: m["To"] == address and t in body_text(m))
            assert str(single["Subject"]) == "Your turn at Summy against ali ce"
    digest = smtp.wait_for(to(address, "Your turn in 3 games"))
    assert "· ali ce" in body_text(digest) and "ali\r" not in body_text(digest)
    deadline = time.monotonic() + 5
    while {row.status for row in server.services.db.call(emails.outbox_rows)} != {"sent"}:
        assert time.monotonic() < deadline, "an email was not sent"
        time.sleep(0.05)


def test_a_finished_game_is_emailed_with_its_result(tmp_path: Path, smtp: SmtpServer) -> None:
    """The mover leaves (a bot takes the seat); the away player's clock runs out, a bot
    plays for them, the game ends: the away player is told their rank."""
    live = email_server(tmp_path, smtp, timeouts_before_zombie=1)
    try:
        alice, bob = verified(live, smtp, "alice"), verified(live, smtp, "bobby")
        table_id = turn_table(alice, bob)
        mover, away = seats(live, alice, bob, table_id)
        mover.post(f"/api/tables/{table_id}/leave")
        over = to(f"{away.label}@example.org", "is over")
        for _day in range(5):  # each day a clock runs out, until bots play the game out
            live.advance(86400)
            time.sleep(1.0)
            if any(over(m) for m in smtp.messages):
                break
        message = smtp.wait_for(over, timeout=30)
        assert "Summy" in str(message["Subject"]) and " of 2" in str(message["Subject"])
        assert re.search(r"You placed [12] of 2, with a score of -?\d+", body_text(message))
        assert f"{live.url}/tables/{table_id}" in links(message)
        assert "/email/unsubscribe?token=" in message["List-Unsubscribe"]
    finally:
        live.stop()


def turn_while_smtp_is_down(server: LiveServer, mover_server: LiveServer, smtp: SmtpServer) -> str:
    """Two verified players at a turn table; with the SMTP server stopped, the mover plays
    (on ``mover_server``) and the other's turn comes: the other's address, nothing sent yet."""
    alice, bob = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    table_id = turn_table(alice, bob)
    mover, away = seats(server, alice, bob, table_id)
    smtp.stop()
    server.advance(AWAY_S + 60)
    if mover_server is not server:
        mover_server.advance(AWAY_S + 60)
        moved = mover_server.client(mover.label)
        moved.http.cookies.update(mover.http.cookies)
        mover = moved
    sock = mover.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    play_turn(sock)
    time.sleep(1.0)
    return f"{away.label}@example.org"


def test_an_email_due_while_smtp_is_down_arrives_once_it_is_back(
    server: LiveServer, smtp: SmtpServer
) -> None:
    address = turn_while_smtp_is_down(server, server, smtp)
    smtp.start()
    server.advance(3600)  # past the sender's backoff
    smtp.wait_for(to(address, "Your turn"), timeout=30)
    time.sleep(1.0)
    assert len(your_turn_mails(smtp, address)) == 1


def test_two_servers_send_the_email_once_after_an_smtp_outage(
    tmp_path: Path, smtp: SmtpServer, pg_url: str
) -> None:
    redis_url = require_redis()
    first = email_server(tmp_path / "a", smtp, pg_url, redis=redis_url)
    second = email_server(tmp_path / "b", smtp, pg_url, redis=redis_url)
    try:
        address = turn_while_smtp_is_down(first, second, smtp)
        smtp.start()
        for live in (first, second):
            live.advance(3600)
        smtp.wait_for(to(address, "Your turn"), timeout=30)
        time.sleep(2.0)
        assert len(your_turn_mails(smtp, address)) == 1
    finally:
        first.stop()
        second.stop()


def test_the_email_comes_in_the_language_the_player_last_used(
    server: LiveServer, smtp: SmtpServer
) -> None:
    alice, bob = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    table_id = turn_table(alice, bob)
    mover, away = seats(server, alice, bob, table_id)
    away.http.cookies.set("meeple_lang", "fr")
    away.get("/api/account/email-choices")  # a page of the site, read in French
    server.advance(AWAY_S + 60)
    sock = mover.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    play_turn(sock)
    message = smtp.wait_for(to(f"{away.label}@example.org", "À vous de jouer"))
    assert "C'est à vous de jouer à Summy" in body_text(message)
    assert 'lang="fr"' in body_html(message) and "Ouvrir la table" in body_html(message)


def test_the_email_choices_and_unsubscribe_links_are_the_kinds_marked_emailed() -> None:
    """The account page's choices and the links' kinds come from the one registry of kinds:
    a kind marked emailed that the choices lack would be an email nobody could stop."""
    from meeple.tables.notices.notifications import EMAILED
    from meeple.tables.notices.unsubscribe import ALL_EMAILS, UNSUBSCRIBE_KINDS
    from meeple.web.routes.unsubscribe import EmailChoices, EmailChoicesIn

    emailed = {kind.value for kind in EMAILED}
    assert emailed == {"your_turn", "game_finished", "tournament_game"}
    assert set(EmailChoices.model_fields) == set(EmailChoicesIn.model_fields) == emailed
    assert set(UNSUBSCRIBE_KINDS) == emailed | {ALL_EMAILS}
