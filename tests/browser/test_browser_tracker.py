"""Summy's tile tracker and hint at a table against a bot (issue 44), on a laptop in English and
on a phone in Italian: the tracker's counts are a recount from the seat's own view at every
turn looked at, the Hint button stages the analysis engine's move (or picks the discard) and
says it, a spectator sees neither, axe-core finds nothing, no text is left untranslated and
the phone page does not scroll sideways."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import NewPage, shot, untranslated
from playwright.sync_api import Page, ViewportSize, expect
from test_browser_axe import violations
from test_browser_summy import version, view_of, wait_applied

from meeple.games.summy.analysis.hint import hint
from meeple.games.summy.tiles import TILES
from meeple.games.summy.tracker import unseen

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

TEXTS = {
    "en": {
        "bot": "Play a bot",
        "hint": "Hint",
        "total": "Unseen tiles: {n}",
        "stock": "stock: {n}",
        "hand": "opponent’s hand: {n}",
        "place": "Hint: {equation} for {score} points.",
        "discard": "Hint: no equation can be made here.",
        "play": "Play this equation",
        "confirm_discard": "Discard the chosen tiles",
    },
    "it": {
        "bot": "Gioca contro un bot",
        "hint": "Aiutino",
        "total": "Tessere non viste: {n}",
        "stock": "riserva: {n}",
        "hand": "mano avversaria: {n}",
        "place": "Suggerimento: {equation} per {score} punti.",
        "discard": "Suggerimento: nessuna uguaglianza possibile qui.",
        "play": "Gioca questa uguaglianza",
        "confirm_discard": "Scarta le tessere scelte",
    },
}


def shown(text: str) -> str:
    """Tiles as the page writes them: x as ×, : as ÷, - as the minus sign."""
    return text.replace("x", "×").replace(":", "÷").replace("-", "−")


def play_a_bot(page: Page, lang: str) -> str:
    """A new game against the casual bot from the home page's Summy card; its table id."""
    page.goto("/")
    page.locator("#card-summy").get_by_role("button", name=TEXTS[lang]["bot"]).click()
    page.wait_for_url("**/table/*")
    return page.url.rsplit("/", 1)[1]


def my_turn(page: Page) -> dict[str, Any] | None:
    """The view once it is this page's turn and its rack is drawn; None once the game is over."""
    page.wait_for_function(
        "() => { const v = window.meeple.view();"
        " return v && (v.game_over || (v.turn === v.seat && !document.querySelector("
        "'.summy-controls .hint-button').disabled)); }",
        timeout=60_000,
    )
    view = view_of(page)
    if view["game_over"]:
        return None
    expect(page.locator(".rack button")).to_have_count(len(view["hand"]))
    return view


def check_tracker(page: Page, view: dict[str, Any], lang: str) -> None:
    """The tracker shows the recount of the seat's own view, kind by kind, and where they are."""
    left = unseen(view)
    tracker = page.locator("#summy-tracker")
    expect(tracker.locator(".tracker-total")).to_have_text(
        TEXTS[lang]["total"].format(n=left.total)
    )
    where = tracker.locator(".tracker-where")
    expect(where).to_contain_text(TEXTS[lang]["stock"].format(n=left.stock))
    expect(where).to_contain_text(TEXTS[lang]["hand"].format(n=left.other_hands))
    shown_counts = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#summy-tracker li')]"
        ".map((li) => [li.dataset.kind, Number(li.querySelector('.n').textContent)]))"
    )
    assert shown_counts == left.counts
    assert list(shown_counts) == list(TILES)
    assert left.total == left.stock + left.other_hands + left.other_discards


def take_hint(page: Page, view: dict[str, Any], lang: str) -> str:
    """Ask for a hint, check it is the engine's move for this view, staged or picked and said,
    then play it; its kind."""
    texts = TEXTS[lang]
    expected = hint(view)
    page.get_by_role("button", name=texts["hint"], exact=True).click()
    message = page.locator("#message")
    action = expected["action"]
    if action["type"] == "place":
        details = expected["details"]
        expect(message).to_contain_text(
            texts["place"].format(equation=shown(details["equation"]), score=details["score"])
        )
        staged = page.evaluate(
            "() => [...document.querySelectorAll('.summy-plane [data-cell]')]"
            ".filter((cell) => cell.querySelector('.tile.staged'))"
            ".map((cell) => [cell.dataset.cell, cell.textContent])"
        )
        assert sorted(cell for cell, _tile in staged) == sorted(
            f"{tile['row']},{tile['col']}" for tile in action["tiles"]
        )
        play = page.get_by_role("button", name=texts["play"])
    elif action["type"] == "discard":
        expect(message).to_contain_text(texts["discard"])
        picked = page.locator(".rack button.discard-pick")
        expect(picked).to_have_count(len(action["tiles"]))
        assert sorted(picked.evaluate_all("(nodes) => nodes.map((n) => n.dataset.tile)")) == sorted(
            action["tiles"]
        )
        play = page.get_by_role("button", name=texts["confirm_discard"])
    else:
        return "pass"
    expect(play).to_be_enabled()
    return action["type"]


def play_it(page: Page, lang: str, kind: str) -> None:
    """Play the staged or picked move and wait for the table to take it."""
    before = version(page)
    name = TEXTS[lang]["play"] if kind == "place" else TEXTS[lang]["confirm_discard"]
    page.get_by_role("button", name=name).click()
    wait_applied(page, before)


def no_sideways_scroll(page: Page) -> None:
    """Nothing is wider than the screen (the widest elements named if one is)."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    wide = page.evaluate(
        "() => [...document.querySelectorAll('body *')]"
        ".filter((n) => n.getBoundingClientRect().right > innerWidth + 1)"
        ".map((n) => `${n.tagName}#${n.id}.${n.className}`).slice(0, 8)"
    )
    assert width <= page.viewport_size["width"], (width, wide)  # type: ignore[index]


def test_the_tracker_and_a_hint_on_a_laptop_in_english(new_page: NewPage) -> None:
    page = new_page("en-GB", LAPTOP)
    page.on("dialog", lambda dialog: dialog.accept())
    table_id = play_a_bot(page, "en")
    view = my_turn(page)
    assert view is not None
    # Open, at the top of the side column beside the board: the kinds show at once.
    expect(page.locator("aside.side > #summy-tracker")).to_have_attribute("open", "")
    expect(page.locator("#summy-tracker")).to_be_in_viewport()
    check_tracker(page, view, "en")
    kinds: list[str] = []
    # Hints played turn after turn until one was a placement (a first hand often makes none).
    for turn in range(12):
        kind = take_hint(page, view, "en")
        if kind == "place" and "place" not in kinds:
            shot(page, "summy-hint-desktop")
            assert violations(page, "table with a placement hinted, laptop") == []
        if turn == 0:
            assert violations(page, "table with a hint, laptop") == []
            assert untranslated(page) == []
            # A spectator sees the game, never a tracker or a hint. ("Play a bot" opens a
            # private table: the spectator comes by its invite link.)
            invite = page.request.get(f"/api/tables/{table_id}").json()["invite_url"]
            watcher = new_page("en-GB", LAPTOP)
            watcher.goto(invite)
            watcher.wait_for_function("() => window.meeple.view() !== null")
            expect(watcher.locator(".rack")).to_contain_text("You are watching")
            expect(watcher.locator("#summy-tracker")).to_be_hidden()
            expect(watcher.get_by_role("button", name="Hint")).to_have_count(0)
            assert view_of(watcher)["hand"] is None
        kinds.append(kind)
        if kind == "pass" or ("place" in kinds and len(kinds) >= 3):
            break
        play_it(page, "en", kind)
        next_view = my_turn(page)
        if next_view is None:
            break
        view = next_view
        check_tracker(page, view, "en")
    assert "place" in kinds, kinds


def test_the_tracker_on_a_phone_in_italian(new_page: NewPage) -> None:
    page = new_page("it-IT", PHONE, has_touch=True)
    page.on("dialog", lambda dialog: dialog.accept())
    play_a_bot(page, "it")
    view = my_turn(page)
    assert view is not None
    tracker = page.locator("#summy-tracker")
    # Under the play area, above the log: the board keeps the first screen.
    board = page.locator(".summy-viewport").bounding_box()
    panel = tracker.bounding_box()
    assert board is not None and panel is not None and panel["y"] >= board["y"] + board["height"]
    check_tracker(page, view, "it")
    no_sideways_scroll(page)
    tracker.scroll_into_view_if_needed()
    # Nothing hidden, nobody blocked: the chat's filter line is not there (it once read "null").
    expect(page.locator("#chat-filtered")).to_be_hidden()
    expect(page.locator("#chat-filtered")).to_have_text("")
    shot(page, "summy-tracker-phone")
    assert violations(page, "table with the tracker open, phone") == []
    assert untranslated(page) == []
    # Closed, its one-line total stays (and it stays closed on the next turn).
    tracker.locator("summary").click()
    expect(tracker.locator(".tracker-tiles")).to_be_hidden()
    expect(tracker.locator(".tracker-total")).to_be_visible()
    # A hint on the phone too, played; the tracker follows the next view (kept open).
    kind = take_hint(page, view, "it")
    no_sideways_scroll(page)
    assert violations(page, "table with a hint, phone") == []
    if kind != "pass":
        play_it(page, "it", kind)
        view = my_turn(page)
        if view is not None:
            expect(tracker).not_to_have_attribute("open", "")
            tracker.locator("summary").click()
            check_tracker(page, view, "it")
            # The whole page still fits, the takeback button in the tools row included.
            expect(page.locator("#takeback")).to_be_visible()
            no_sideways_scroll(page)
