"""Moderation in the browser (docs/moderation.md): a player reports a chat line from the table,
a moderator reads it with its context on /mod and mutes the writer for an hour, the writer
is told plainly until when and cannot chat, and the log shows the action; the queue on a
phone in French; a player blocks another from the chat (their lines go) and hides a third's.
Chat lines are text: a link in one is never a link. axe-core finds no violation, nothing is
left untranslated, and screenshots go to tests/artifacts."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from browser_harness import NewPage, ServerProcess, shot, untranslated
from playwright.sync_api import Page, expect
from test_browser_axe import violations

from meeple.cli import main

pytestmark = pytest.mark.browser

PASSWORD = "Tile-Slider-42"
DESKTOP_1280 = {"width": 1280, "height": 800}
PHONE_390 = {"width": 390, "height": 844}
SPAM = "see https://spam.example/win <b>now</b>"


def name(prefix: str) -> str:
    """A name no other test of the shared server takes."""
    return f"{prefix}{secrets.token_hex(3)}"


def account(live: ServerProcess, who: str) -> httpx.Client:
    """A client signed in to a new account ``who``."""
    client = live.client()
    client.post("/api/auth/register", json={"name": who, "password": PASSWORD}).raise_for_status()
    return client


def signed_in(new_page: NewPage, who: str, **options: Any) -> Page:
    """A page of a fresh browser signed in as ``who`` (an account made already)."""
    page = new_page(**options)
    answer = page.request.post("/api/auth/login", data={"name": who, "password": PASSWORD})
    assert answer.ok, answer.text()
    return page


def make_moderator(live: ServerProcess, who: str) -> None:
    """``meeple role WHO moderator`` on the live server's database, as an operator would."""
    assert main(["role", who, "moderator", "--data-dir", str(live.data_dir)]) == 0


def table_with_lines(host: httpx.Client, lines: dict[httpx.Client, str]) -> str:
    """A two-seat Slide table opened by ``host`` with the first other speaker seated; each
    client then says its line, in order."""
    table_id: str = host.post("/api/tables", json={"game": "slide", "seats": 2}).json()["table"][
        "id"
    ]
    for client in lines:
        if client is not host:
            client.post(f"/api/tables/{table_id}/join", json={})
            break
    for client, text in lines.items():
        client.post(f"/api/tables/{table_id}/chat", json={"text": text}).raise_for_status()
    return table_id


def open_line_menu(page: Page, writer: str) -> None:
    """Open the menu of ``writer``'s chat line."""
    page.locator(f"#chat li[data-name='{writer}'] details.line-menu summary").first.click()


def test_a_reported_line_is_muted_by_a_moderator_and_the_player_is_told(
    live: ServerProcess, new_page: NewPage
) -> None:
    kind, rude, mod = name("kind"), name("rude"), name("mona")
    kind_client, rude_client = account(live, kind), account(live, rude)
    account(live, mod).close()
    make_moderator(live, mod)
    table_id = table_with_lines(kind_client, {kind_client: "good luck", rude_client: SPAM})

    # The reporter, at the table: the line is text (no link), its menu reports it.
    page = signed_in(new_page, kind, viewport=DESKTOP_1280)
    page.goto(f"/table/{table_id}")
    line = page.locator(f"#chat li[data-name='{rude}']")
    expect(line).to_contain_text(SPAM)
    assert page.locator("#chat a").count() == 0
    open_line_menu(page, rude)
    page.get_by_role("button", name="Report this line").click()
    dialog = page.locator("#report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#report-heading")).to_have_text(f"Report {rude}'s chat line")
    expect(dialog.locator(".report-quoted")).to_have_text(SPAM)
    dialog.get_by_label("Insults or harassment").check()
    dialog.get_by_label("What happened (optional)").fill("Spam and a link to a scam.")
    shot(page, "moderation-report-dialog")
    assert violations(page, "the report dialog") == []
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog.locator("#report-result")).to_have_text(
        "Thank you: the moderators will read your report."
    )
    dialog.get_by_role("button", name="Close").click()

    # The moderator reads it beside its context and mutes the writer for an hour.
    desk = signed_in(new_page, mod, viewport=DESKTOP_1280)
    desk.goto("/mod")
    card = desk.locator("article.mod-report").filter(has_text=f"{kind} reported {rude}")
    expect(card).to_be_visible()
    expect(card.locator(".mod-chat li.reported")).to_contain_text(SPAM)
    expect(card.locator(".mod-chat li")).to_have_count(2)
    assert card.locator(".mod-chat a").count() == 0
    expect(card.locator(f"a[href='/table/{table_id}']")).to_be_visible()
    expect(card).to_contain_text("Spam and a link to a scam.")
    expect(desk.locator("#nav-mod")).to_be_attached()
    assert untranslated(desk) == []
    assert violations(desk, "the queue") == []
    shot(desk, "moderation-queue-desktop")
    card.get_by_label("Reason (kept in the log").fill("Spam links in the chat")
    card.get_by_label("Mute for").select_option(label="1 hour")
    card.get_by_role("button", name="Mute").click()
    expect(desk.locator("#mod-done")).to_contain_text(f"Muted: {rude}")
    expect(
        desk.locator("article.mod-report").filter(has_text=f"{kind} reported {rude}")
    ).to_have_count(0)

    # The muted player is told plainly, on every page, and the chat refuses them.
    muted = signed_in(new_page, rude, viewport=DESKTOP_1280)
    muted.goto(f"/table/{table_id}")
    banner = muted.locator("#standing-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("A moderator muted you until")
    expect(banner).to_contain_text("Reason: Spam links in the chat")
    muted.locator("#chat-input").fill("let me talk")
    muted.locator("#chat-form button[type=submit]").click()
    expect(muted.locator("#message")).to_contain_text("A moderator muted you until")
    expect(muted.locator("#chat")).not_to_contain_text("let me talk")
    assert untranslated(muted) == []
    assert violations(muted, "the muted player's table") == []
    shot(muted, "moderation-muted-player")

    # The log shows who did what to whom, when and why.
    desk.goto("/mod/log")
    entry = desk.locator("#mod-log-rows tr").filter(has_text=rude).first
    expect(entry).to_contain_text("Muted")
    expect(entry).to_contain_text(mod)
    expect(entry).to_contain_text("Spam links in the chat")
    expect(entry).to_contain_text("until")
    assert untranslated(desk) == []
    assert violations(desk, "the log") == []
    for client in (kind_client, rude_client):
        client.close()


def test_the_queue_on_a_phone_in_french(live: ServerProcess, new_page: NewPage) -> None:
    kind, rude, mod = name("gentil"), name("grossier"), name("modo")
    kind_client, rude_client = account(live, kind), account(live, rude)
    account(live, mod).close()
    make_moderator(live, mod)
    table_id = table_with_lines(kind_client, {kind_client: "bonne partie", rude_client: SPAM})
    version = kind_client.get(f"/api/tables/{table_id}/events").json()[-1]["version"]
    body = {"table_id": table_id, "version": version, "reason": "spam", "text": "publicité"}
    assert kind_client.post("/api/reports", json=body).status_code == 201
    phone = signed_in(new_page, mod, lang="fr-FR", viewport=PHONE_390)
    phone.goto("/mod")
    card = phone.locator("article.mod-report").filter(has_text=f"{kind} a signalé {rude}")
    expect(card).to_be_visible()
    expect(card).to_contain_text("Spam ou publicité")
    expect(card.get_by_role("button", name="Retirer la parole")).to_be_visible()
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the queue runs past the phone's screen: {width} px"
    assert untranslated(phone) == []
    assert violations(phone, "the queue on a phone, in French") == []
    shot(phone, "moderation-queue-phone-fr")
    card.get_by_role("button", name="Classer le signalement").click()
    expect(card.locator(".message")).to_contain_text("Donnez une raison")
    for client in (kind_client, rude_client):
        client.close()


def test_a_blocked_players_lines_go_and_a_hidden_ones_come_back(
    live: ServerProcess, new_page: NewPage
) -> None:
    reader, pest, chatty = name("reader"), name("pest"), name("chatty")
    reader_client, pest_client, chatty_client = (account(live, n) for n in (reader, pest, chatty))
    table_id = table_with_lines(
        reader_client,
        {pest_client: "buy my coins at https://coins.example", chatty_client: "hello all"},
    )
    page = signed_in(new_page, reader, viewport=DESKTOP_1280)
    page.goto(f"/table/{table_id}")
    expect(page.locator(f"#chat li[data-name='{pest}']")).to_be_visible()
    open_line_menu(page, pest)
    page.get_by_role("button", name=f"Block {pest}").click()
    expect(page.locator(f"#chat li[data-name='{pest}']")).to_be_hidden()
    expect(page.locator("#chat-filtered")).to_contain_text("from players you blocked: 1")
    open_line_menu(page, chatty)
    page.get_by_role("button", name=f"Hide {chatty}'s lines here").click()
    expect(page.locator(f"#chat li[data-name='{chatty}']")).to_be_hidden()
    page.reload()  # the block is the server's, the hidden lines this browser's for this table
    expect(page.locator(f"#chat li[data-name='{pest}']")).to_be_hidden()
    expect(page.locator(f"#chat li[data-name='{chatty}']")).to_be_hidden()
    page.get_by_role("button", name=f"Show {chatty}'s lines").click()
    expect(page.locator(f"#chat li[data-name='{chatty}']")).to_be_visible()
    refused = pest_client.post("/api/challenges", json={"to": reader, "game": "slide"})
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    page.goto("/safety")
    expect(page.locator(f"#safety-blocks li[data-name='{pest}']")).to_be_visible()
    assert untranslated(page) == []
    assert violations(page, "the safety page") == []
    for client in (reader_client, pest_client, chatty_client):
        client.close()
