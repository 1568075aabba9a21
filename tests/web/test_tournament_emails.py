"""The email "your tournament game is ready", through a real SMTP server (aiosmtpd): a
turn-based tournament pairs an away player, who gets one email (in their language, naming
the tournament, the game and the round, with links to the table and to the tournament's
page, and the kind's own unsubscribe link); a real-time tournament's pairing sends none;
a player who stopped that kind gets none; telling the same game again sends nothing more.

A turn-based round pairs every entrant, present or not; a real-time one only those present
(seen in the last 90 seconds, docs/tournaments.md). An email goes only to a player away
(unseen for ``MEEPLE_EMAIL_AWAY_S``: 30 seconds on these servers), so in most tests the
clock moves 60 seconds to the start, and the players are present and away at once.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import Client, LiveServer, free_port, make_settings, start_server
from smtp_server import SmtpServer, body_html, body_text, smtp_server
from sqlalchemy import select

from meeple.i18n import LANGUAGES, catalog
from meeple.store import emails
from meeple.store.models import Notification
from meeple.tables.notices.notifications import EMAILED, Note, NotificationKind

AWAY_S = 30
"""Unseen this long is away: under the 90 s a pairing takes as present."""
READY = "game is ready"
"""In the English subject of the email."""


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    """A real SMTP server the meeple server sends to."""
    with smtp_server() as server:
        yield server


@pytest.fixture
def server(tmp_path: Path, smtp: SmtpServer) -> Iterator[LiveServer]:
    """A live server on SQLite sending email to ``smtp``, its links pointing at itself."""
    port = free_port()
    settings = make_settings(
        tmp_path, smtp_url=smtp.url, public_url=f"http://127.0.0.1:{port}",
        email_away_s=AWAY_S, limit_emails="1000/minute",
    )  # fmt: skip
    live = start_server(settings, port=port)
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
    return client


def tournament(host: Client, players: list[Client], pace: str, name: str) -> str:
    """A one-round Summy Swiss of ``pace`` starting in a minute, ``players`` joined."""
    body = {"name": name, "game": "summy", "format": "swiss", "rounds": 1, "pace": pace,
            "starts_at": host.server.clock.now() + 60}  # fmt: skip
    tournament_id = str(host.post("/api/tournaments", body, 201)["id"])
    for player in players:
        player.post(f"/api/tournaments/{tournament_id}/join")
    return tournament_id


def table_of(host: Client, tournament_id: str) -> str:
    """The table of the round's one game, once it is open."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        rounds = host.get(f"/api/tournaments/{tournament_id}/pairings")
        games = rounds[0]["games"] if rounds else []
        if games and games[0]["status"] != "pending":
            return str(games[0]["table_id"])
        time.sleep(0.05)
    raise AssertionError("the round was never paired")


def ready_mails(smtp: SmtpServer, address: str) -> list[EmailMessage]:
    """The "your tournament game is ready" emails ``address`` got, in any language."""
    return [m for m in smtp.messages
            if m["To"] == address and "/tournaments/" in body_text(m)]  # fmt: skip


def on_server_loop(server: LiveServer, coroutine: Any) -> Any:
    """Run a coroutine on the server's own event loop (where its database and bus live)."""
    loop = server.server.servers[0].get_loop()
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=30)


def test_a_turn_based_pairing_emails_each_away_player_once_in_their_language(
    server: LiveServer, smtp: SmtpServer
) -> None:
    host = server.client("host")
    host.register("host")
    alice, bobby = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    bobby.http.cookies.set("meeple_lang", "fr")
    bobby.get("/api/account/email-choices")  # a page of the site, read in French
    tournament_id = tournament(host, [alice, bobby], "turn", "Friday <Swiss>")
    server.advance(60)  # the start: both seen a minute ago, present to pair and away
    message = smtp.wait_for(to("alice@example.org", READY))
    table_id = table_of(host, tournament_id)
    assert str(message["Subject"]) == "Your Summy game is ready: Friday <Swiss>, round 1"
    text = body_text(message)
    assert "The tournament Friday <Swiss> paired you for round 1" in text
    table_link = f"{server.url}/tables/{table_id}"
    tournament_link = f"{server.url}/tournaments/{tournament_id}"
    assert table_link in links(message) and tournament_link in links(message)
    html = body_html(message)
    assert f'href="{table_link}"' in html and f'href="{tournament_link}"' in html
    assert "Friday &lt;Swiss&gt;" in html and "<Swiss>" not in html
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = message["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith(f"{server.url}/email/unsubscribe?token=")
    assert unsubscribe in links(message)
    french = smtp.wait_for(to("bobby@example.org", "est prête"))
    assert str(french["Subject"]) == "Votre partie de Summy est prête : Friday <Swiss>, ronde 1"
    assert "Le tournoi Friday <Swiss> vous a apparié pour la ronde 1" in body_text(french)
    assert 'lang="fr"' in body_html(french) and table_link in links(french)

    # Told again (a second look, a retry): the notification is kept once, the email too.
    def stored(session: Any) -> Note:
        kind = NotificationKind.TOURNAMENT_GAME.value
        row = session.scalars(
            select(Notification).where(Notification.kind == kind, Notification.table_id == table_id)
        ).first()
        return Note.of(row)

    note = server.services.db.call(stored)
    assert note.data["pace"] == "turn" and note.data["tournament"] == tournament_id
    again = server.services.notifier.notify(
        note.user_id, note.kind, note.data, table_id=table_id, dedupe=f"tournament:{table_id}"
    )
    assert on_server_loop(server, again) is None
    on_server_loop(server, server.services.turn_emails.on_note(note))
    server.advance(5)
    time.sleep(1.5)  # the runner looks again, the sender sends what is due
    for address in ("alice@example.org", "bobby@example.org"):
        assert len(ready_mails(smtp, address)) == 1, address
    rows = server.services.db.call(emails.outbox_rows, note.user_id)
    assert sum(row.dedupe.startswith("tournament_game:") for row in rows) == 1

    # The links work for the player; the unsubscribe link stops this kind only.
    alice_table = alice.http.get(table_link)
    assert alice_table.status_code == 200 and table_id in alice_table.text
    assert alice.http.get(tournament_link).status_code == 200
    with httpx.Client() as stranger:  # no cookie: the link is enough
        confirm = stranger.get(unsubscribe)
        assert "Stop the “tournament game ready” emails to alice?" in confirm.text
        assert stranger.post(unsubscribe).status_code == 200
    choices = alice.get("/api/account/email-choices")
    assert choices == {"your_turn": True, "game_finished": True, "tournament_game": False}


def test_a_real_time_pairing_is_told_on_the_site_only(server: LiveServer, smtp: SmtpServer) -> None:
    host = server.client("host")
    host.register("host")
    players = {name: verified(server, smtp, name) for name in ("alice", "bobby", "carol", "dave")}
    tournament(host, [players["alice"], players["bobby"]], "turn", "Slow")
    live_id = tournament(host, [players["carol"], players["dave"]], "realtime", "Blitz")
    server.advance(60)
    smtp.wait_for(to("alice@example.org", READY))  # the turn-based one's, paired alike
    smtp.wait_for(to("bobby@example.org", READY))
    table_id = table_of(host, live_id)
    time.sleep(1.5)
    for name in ("carol", "dave"):
        assert ready_mails(smtp, f"{name}@example.org") == [], name
        notes = players[name].get("/api/notifications")["notifications"]
        told = [n for n in notes if n["kind"] == "tournament_game"]
        assert [(n["table_id"], n["data"]["pace"]) for n in told] == [(table_id, "realtime")]


def test_a_player_who_stopped_the_kind_gets_none(server: LiveServer, smtp: SmtpServer) -> None:
    host = server.client("host")
    host.register("host")
    alice, bobby = verified(server, smtp, "alice"), verified(server, smtp, "bobby")
    stop = {"your_turn": True, "game_finished": True, "tournament_game": False}
    assert alice.http.put("/api/account/email-choices", json=stop).json() == stop
    tournament(host, [alice, bobby], "turn", "Slow")
    server.advance(60)
    smtp.wait_for(to("bobby@example.org", READY))  # the same pairing, the same rules
    time.sleep(1.5)
    assert ready_mails(smtp, "alice@example.org") == []
    # A client that knows only the older kinds sends only those: the new one keeps its choice.
    older = alice.http.put("/api/account/email-choices", json={"your_turn": False})
    assert older.json() == {"your_turn": False, "game_finished": True, "tournament_game": False}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_emailed_kind_is_named_on_the_account_and_unsubscribe_pages(lang: str) -> None:
    """The account page's checkboxes and the unsubscribe page say each kind by a key built
    from it (``js.email_choices.<kind>``...), which the catalog test cannot see used."""
    texts = catalog(lang)
    for kind in EMAILED:
        for key in (f"js.email_choices.{kind}", f"unsubscribe.confirm.{kind}",
                    f"unsubscribe.done.{kind}", f"email.{kind}.subject"):  # fmt: skip
            assert texts.has(key), key


def test_the_account_page_offers_the_tournament_email_in_every_language(
    server: LiveServer,
) -> None:
    labels = {
        "en": "“Your tournament game is ready”",
        "fr": "« Votre partie de tournoi est prête »",
        "it": "«La tua partita di torneo è pronta»",
        "ja": "ターン制の大会で対局の準備",
    }
    reader = server.client("reader")
    reader.register("reader")
    for lang, label in labels.items():
        reader.http.cookies.set("meeple_lang", lang)
        page = reader.http.get("/account")
        assert page.status_code == 200 and 'name="tournament_game"' in page.text, lang
        assert label in page.text, lang


def test_a_turn_based_round_pairs_and_emails_players_long_gone(
    server: LiveServer, smtp: SmtpServer
) -> None:
    host = server.client("host")
    host.register("host")
    players = {name: verified(server, smtp, name) for name in ("alice", "bobby", "carol", "dave")}
    slow = tournament(host, [players["alice"], players["bobby"]], "turn", "Slow")
    blitz = tournament(host, [players["carol"], players["dave"]], "realtime", "Blitz")
    server.advance(3600)  # an hour on: nobody has been seen for 59 minutes
    table_id = table_of(host, slow)
    for name in ("alice", "bobby"):
        message = smtp.wait_for(to(f"{name}@example.org", READY))
        assert f"/tables/{table_id}" in body_text(message)
    # The real-time one waits for its players to be there (then it is cancelled for want of
    # them, or paired when they come back): nobody absent is paired into a game now.
    time.sleep(1.5)
    assert host.get(f"/api/tournaments/{blitz}/pairings") == []
