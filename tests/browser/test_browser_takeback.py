"""A move taken back against a bot (issue 44), on a laptop in English and on a phone in Japanese:
"Take back" shows only once a move of mine stands, a click undoes it and the bot's reply, the
page shows the very view it showed before the move (rack, board, scores), the log says so, the
button goes again; axe-core finds nothing, no text is left untranslated, nothing is wider than
the phone (docs/server.md, "Takebacks")."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import NewPage, shot, untranslated
from playwright.sync_api import Page, ViewportSize, expect
from test_browser_axe import violations

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

TEXTS = {
    "en": {"button": "Take back", "log": "took back their last move.", "turn": "Your turn"},
    "ja": {"button": "待った", "log": "の直前の手が取り消されました。", "turn": "あなたの番です"},
}


def view_of(page: Page) -> dict[str, Any]:
    """The view the page shows now."""
    view: dict[str, Any] = page.evaluate("window.meeple.view()")
    return view


def version(page: Page) -> int:
    """The table version the page has seen."""
    seen: int = page.evaluate("window.meeple.connection.version")
    return seen


def my_turn(page: Page) -> dict[str, Any]:
    """The view once it is this page's turn, its rack drawn."""
    page.wait_for_function(
        "() => { const v = window.meeple.view(); return v && v.turn === v.seat; }", timeout=60_000
    )
    view = view_of(page)
    expect(page.locator(".rack button")).to_have_count(len(view["hand"]))
    return view


def discard_one(page: Page) -> None:
    """Discard the rack's first tile through the page's own buttons (any language), and wait
    for the bot's reply: my turn again."""
    before = version(page)
    page.locator(".summy-controls button[aria-pressed]").click()  # discard mode
    page.locator(".rack button").first.click()
    page.locator(".summy-controls button.primary:visible").click()
    page.wait_for_function("(v) => window.meeple.connection.version > v + 1", arg=before)
    my_turn(page)


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


def take_back_a_move(page: Page, lang: str, where: str) -> None:
    """Against the casual bot from the home page: a move, its takeback, the page as before."""
    texts = TEXTS[lang]
    page.goto("/")
    page.locator('button[data-bot="summy"]').click()
    page.wait_for_url("**/table/*")
    before = my_turn(page)
    button = page.locator("#takeback")
    expect(button).to_be_hidden()  # nothing of mine to take back yet
    rack = [page.locator(".rack button").nth(i).inner_text() for i in range(len(before["hand"]))]
    discard_one(page)
    expect(button).to_be_visible()
    expect(button).to_have_text(texts["button"])
    assert view_of(page) != before
    assert violations(page, f"table with Take back, {where}") == []
    shot(page, f"takeback-offered-{where}")
    undone = version(page)
    button.click()
    page.wait_for_function("(v) => window.meeple.connection.version > v", arg=undone)
    page.wait_for_function("() => window.meeple.view().turn === window.meeple.view().seat")
    assert view_of(page) == before  # the very position before the move, for this seat
    expect(page.locator(".rack button")).to_have_count(len(before["hand"]))
    assert [page.locator(".rack button").nth(i).inner_text() for i in range(len(rack))] == rack
    expect(page.locator("#log li").last).to_contain_text(texts["log"])
    expect(page.locator("#turn-line")).to_have_text(texts["turn"])
    expect(button).to_be_hidden()  # my only move is gone: nothing left to take back
    expect(page.locator("#takeback-ask")).to_be_hidden()  # no ask against a bot
    table_id = page.url.rsplit("/", 1)[1]
    summary = page.request.get(f"/api/tables/{table_id}").json()["table"]
    assert summary["takeback"] == {"allowed": True, "asked": None}
    assert summary["to_act"] == [before["seat"]]
    assert violations(page, f"table after a takeback, {where}") == []
    assert untranslated(page) == []
    no_sideways_scroll(page)
    shot(page, f"takeback-done-{where}")
    # The game goes on from there: the same move again is accepted.
    discard_one(page)
    expect(button).to_be_visible()


def test_a_move_taken_back_on_a_laptop_in_english(new_page: NewPage) -> None:
    page = new_page("en-GB", LAPTOP)
    take_back_a_move(page, "en", "desktop")


def test_a_move_taken_back_on_a_phone_in_japanese(new_page: NewPage) -> None:
    page = new_page("ja-JP", PHONE, has_touch=True)
    take_back_a_move(page, "ja", "phone")


def test_a_takeback_asked_and_accepted_between_two_people(new_page: NewPage) -> None:
    """Between people it is asked: the asker's page waits, the other's shows the ask with
    Accept and Decline (here in French), and once accepted both see the position before."""
    alice, bob = new_page("en-GB", LAPTOP), new_page("fr-FR", LAPTOP)
    for page in (alice, bob):
        assert page.request.post("/api/auth/guest").ok
    table = alice.request.post("/api/tables", data={"game": "summy", "seats": 2}).json()["table"]
    assert bob.request.post(f"/api/tables/{table['id']}/join", data={}).ok
    assert alice.request.post(f"/api/tables/{table['id']}/start").ok
    for page in (alice, bob):
        page.goto(f"/table/{table['id']}")
        page.wait_for_function("() => window.meeple.view() !== null")
    first = alice if view_of(alice)["turn"] == view_of(alice)["seat"] else bob
    other = bob if first is alice else alice
    before = my_turn(first)
    mark = version(first)
    first.locator(".summy-controls button[aria-pressed]").click()
    first.locator(".rack button").first.click()
    first.locator(".summy-controls button.primary:visible").click()
    other.wait_for_function("(v) => window.meeple.connection.version > v", arg=mark)
    first.locator("#takeback").click()
    ask = other.locator("#takeback-ask")
    expect(ask).to_be_visible()
    expect(first.locator("#takeback")).to_be_hidden()  # asked: it waits for the answer
    expect(first.locator("#takeback-ask")).to_be_visible()
    expect(first.locator("#takeback-accept")).to_be_hidden()
    answer = "Accepter" if other is bob else "Accept"
    expect(ask.get_by_role("button", name=answer)).to_be_visible()
    expect(ask).to_contain_text("demande à reprendre" if other is bob else "asks to take back")
    assert violations(other, "table with a takeback asked of me") == []
    assert untranslated(other) == [] and untranslated(first) == []
    shot(other, "takeback-asked-desktop")
    ask.get_by_role("button", name=answer).click()
    first.wait_for_function(
        "() => window.meeple.view().turn === window.meeple.view().seat"
        " && document.getElementById('takeback-ask').hidden"
    )
    assert view_of(first) == before
    expect(ask).to_be_hidden()
    expect(first.locator("#takeback")).to_be_hidden()
