"""Summy's help when a turn has no equation to make (often the first one): the feedback line
between the rack and the buttons says so in plain words with the reason, the way on (discard,
or pass once the stock is empty) is the marked button, and the greyed Pass says why it cannot
be used; on a turn that has an equation, none of it shows."""

from __future__ import annotations

import re

import pytest
from browser_harness import PHONE, NewPage, shot
from playwright.sync_api import Page, expect
from test_browser_summy import version, view_of, wait_applied

from meeple.games.summy.formats import position_from_json
from meeple.games.summy.movegen import legal_moves

pytestmark = pytest.mark.browser

GAMES = 24
"""New games to look at, until one first turn without an equation and one with have been seen.
A dealt hand makes no equation in 38% of deals (300 seeded deals, either seat); after a bot's
opening equation less often, so about 30% of the page's first turns: eight games once all had
an equation (a CI run); 24 all would about once in 5,000 runs. Most runs stop after a few."""


def french_turn(page: Page) -> bool:
    """Wait for this page's turn in French ("À vous de jouer"); False if the game ended."""
    line = page.locator("#turn-line")
    expect(line).to_have_text(
        re.compile(r"^(À vous de jouer|La partie est terminée\.)$"), timeout=30_000
    )
    if line.inner_text() != "À vous de jouer":
        return False
    expect(page.locator(".rack button")).to_have_count(len(view_of(page)["hand"]))
    return True


def test_a_first_turn_without_an_equation_is_explained_and_discard_offered(
    new_page: NewPage,
) -> None:
    page = new_page("fr-FR", PHONE)
    help_line = page.locator("#message.help")
    seen_stuck = seen_free = False
    for _game in range(GAMES):
        page.goto("/")
        page.locator("#card-summy button[data-bot]").click()
        expect(page.locator("#lobby-error")).to_be_hidden()
        page.wait_for_url("**/table/*")
        table_id = page.url.rsplit("/", 1)[1]
        if not french_turn(page):
            continue
        view = view_of(page)
        if next(iter(legal_moves(position_from_json(view))), None) is not None:
            seen_free = True
            # Nothing to explain: the help stays away (once the count came back).
            page.wait_for_function(
                "() => performance.getEntriesByType('resource')"
                ".some((entry) => entry.name.includes('/api/analysis/summy'))"
            )
            page.wait_for_timeout(200)
            expect(help_line).to_be_hidden()
            # Left to a bot, so the abandoned games do not pile up waiting on the clock.
            assert page.request.post(f"/api/tables/{table_id}/leave").ok
            continue
        seen_stuck = True
        expect(help_line).to_have_text(
            "Aucune égalité possible avec vos tuiles ici. Défaussez-en pour en piocher d’autres :"
            " vous ne pouvez passer que si la pioche est vide."
        )
        pass_button = page.get_by_role("button", name="Passer", exact=True)
        expect(pass_button).to_be_disabled()
        expect(pass_button).to_have_attribute("title", re.compile("seulement quand la pioche"))
        discard_button = page.get_by_role("button", name="Défausser…")
        expect(discard_button).to_have_class(re.compile(r"\bprimary\b"))
        # Everything in sight at once on the phone: the line, the buttons, the rack.
        for shown in (help_line, discard_button, page.locator(".rack")):
            expect(shown).to_be_in_viewport()
        shot(page, "summy-stuck-fr-phone")
        # Tiles staged anyway: the verdict takes the line; taken back, the help is there again.
        page.locator(".rack button").first.click()
        page.locator(".summy-plane .cell.target").first.click()
        expect(help_line).to_have_count(0)
        page.get_by_role("button", name="Tout reprendre").click()
        expect(help_line).to_be_visible()
        # The way on: discard mode, a tile, confirm; the game goes on.
        discard_button.click()
        expect(discard_button).to_have_attribute("aria-pressed", "true")
        expect(help_line).to_have_count(0)
        before = version(page)
        page.locator(".rack button").first.click()
        page.locator(".summy-controls button.primary:visible").click()
        wait_applied(page, before)
        expect(page.locator("#log")).to_contain_text("a défaussé 1 tuile.")
        if seen_free:
            break
    assert seen_stuck, f"no first turn without an equation in {GAMES} games"
