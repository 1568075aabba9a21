"""Quick play alone: the page says it is searching, then bots take the free seats and it starts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import NewPage, ServerProcess, own_server
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WAIT_S = 3


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose quick-play tables get bots after a short wait."""
    env = {"MEEPLE_QUICK_PLAY_BOTS_AFTER_S": str(WAIT_S)}
    with own_server(Path(tmp_path_factory.mktemp("meeple-quick")), env) as server:
        yield server


def test_quick_play_alone_reaches_a_started_game_within_the_wait(new_page: NewPage) -> None:
    page = new_page("en-GB")
    page.goto("/")
    page.locator("#card-summy").get_by_role("button", name="Quick play").click()
    page.wait_for_url("**/table/*")
    expect(page.locator("#quick-search")).to_contain_text("Looking for players")
    expect(page.locator("#quick-search")).to_contain_text("Bots take the free seats in")
    # Within the wait (and a margin for a busy machine) the game is on, with a bot.
    expect(page.locator(".rack button")).to_have_count(8, timeout=(WAIT_S + 20) * 1000)
    expect(page.locator("#quick-search")).to_be_hidden()
    expect(page.locator("#players")).to_contain_text("casual bot")


def test_play_with_bots_now_starts_at_once(new_page: NewPage) -> None:
    page = new_page("fr-FR")
    page.goto("/")
    page.locator("#card-slide").get_by_role("button", name="Partie rapide").click()
    page.wait_for_url("**/table/*")
    page.get_by_role("button", name="Jouer avec des robots maintenant").click()
    expect(page.locator("#players li")).to_have_count(4)
    expect(page.locator("#quick-search")).to_be_hidden()
