"""Share and export in a real browser (docs/notation.md): a finished Summy game's text downloaded
from its replay, imported into the analysis board (the file on a laptop in English at 1280x800,
pasted on a phone in French at 390x844), stepped through move by move, the position's link
copied and opened in a fresh browser, where the board shows that exact position; a bad text is
refused naming its line in the page's language. axe-core finds nothing, no key shows, nothing is
wider than the screen."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from browser_harness import NewPage, ServerProcess, guest, shot, untranslated
from playwright.sync_api import Page, ViewportSize, expect
from test_browser_axe import violations
from test_browser_phone_replay import overflowing

from meeple.games import get_game
from meeple.games.kit.notation import ImportedGame, read_text
from meeple.games.summy.movegen import legal_moves

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
CLIPBOARD = ["clipboard-read", "clipboard-write"]


@pytest.fixture(scope="module")
def finished(live: ServerProcess) -> str:
    """A finished public Summy game between a casual and a strong bot."""
    with live.client() as client:
        guest(client)
        body = {"game": "summy", "seats": 2, "bots": {"0": "greedy", "1": "strong"}, "sit": False}
        table_id: str = client.post("/api/tables", json=body).json()["table"]["id"]
        client.post(f"/api/tables/{table_id}/start").raise_for_status()
        deadline = time.monotonic() + 120
        while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.2)
    return table_id


def clean(page: Page, where: str) -> None:
    """axe-core finds nothing, no catalog key shows, nothing reaches past the screen's sides."""
    assert violations(page, where) == []
    assert untranslated(page) == []
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert overflowing(page) == []


def board_shows(page: Page, game: ImportedGame, step: int) -> None:
    """The board holds the table before move ``step + 1`` and its mover's hand (after the last
    move: the table, and the hand of nobody)."""
    state = game.states[step]
    expect(page.locator("#board .tile:not(.ghost)")).to_have_count(len(state.table))
    mover = game.moves[step].seat if step < len(game.moves) else None
    hand = "" if mover is None else "".join(state.hands[mover])
    expect(page.locator("#hand")).to_have_value(hand)


def placement_step(game: ImportedGame, after: int = 2) -> int:
    """The first step from ``after`` on whose next move is a placement (its mover had one)."""
    return next(
        index
        for index, move in enumerate(game.moves)
        if index >= after and move.action["type"] == "place"
    )


def shared_position(link: str) -> dict[str, Any]:
    """The position a board's link carries in its address."""
    position: dict[str, Any] = json.loads(unquote(link.split("#position=", 1)[1]))
    return position


def opens_at(new_page: NewPage, link: str, game: ImportedGame, step: int, **page: Any) -> Page:
    """Open ``link`` in a fresh browser: the board shows the position of ``step``, equations
    and all, and lists as many moves as its mover had."""
    fresh = new_page(**page)
    fresh.goto(link)
    board_shows(fresh, game, step)
    position = game.states[step].position()
    shared = shared_position(link)
    assert len(shared["equations"]) == len(position.equations)
    count = legal_moves(position).count()
    assert count > 0
    expect(fresh.locator("#moves li")).to_have_count(min(count, 500))
    return fresh


def test_a_games_text_goes_from_its_replay_to_the_board_and_a_shared_link_on_a_laptop(
    new_page: NewPage, live: ServerProcess, finished: str, tmp_path: Path
) -> None:
    page = new_page("en-GB", LAPTOP, permissions=CLIPBOARD)
    page.goto(f"/replay/{finished}")
    download_link = page.get_by_role("link", name="Download the moves (text)")
    expect(download_link).to_be_visible()
    clean(page, "replay with its download")
    shot(page, "share-replay-laptop")
    with page.expect_download() as caught:
        download_link.click()
    download = caught.value
    assert download.suggested_filename == f"summy-{finished}.txt"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    game = read_text(get_game("summy"), text)
    assert len(game.moves) > 4 and game.names == ("casual bot", "strong bot")

    page.goto("/analysis/summy")
    page.get_by_text("Import a game").click()
    page.locator("#import-file").set_input_files(str(saved))
    total = len(game.moves)
    expect(page.locator("#import-status")).to_have_text(
        f"Game read: {total} moves. Step through them with the arrows."
    )
    expect(page.locator("#game-step")).to_have_text(f"Move 0 of {total}")
    board_shows(page, game, 0)
    first = game.moves[0]
    expect(page.locator("#game-next")).to_have_text(
        f"Next: {game.names[first.seat]} plays {first.text}"
    )
    # Step on with the buttons and the arrow keys; each step is that position.
    step = placement_step(game)
    forward = page.get_by_role("button", name="Next move")
    for _ in range(step):
        forward.click()
    board_shows(page, game, step)
    expect(page.locator("#game-step")).to_have_text(f"Move {step} of {total}")
    placed = len(game.moves[step].action["tiles"])
    expect(page.locator("#board .tile.ghost.played")).to_have_count(placed)
    page.keyboard.press("ArrowRight")
    board_shows(page, game, step + 1)
    page.keyboard.press("ArrowLeft")
    board_shows(page, game, step)
    expect(page.locator("#analysis-status")).to_contain_text("legal move")
    clean(page, "analysis board with an imported game")
    shot(page, "share-import-laptop")

    page.get_by_role("button", name="Copy the link").click()
    expect(page.locator("#share-status")).to_have_text("Link copied.")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == page.locator("#share-url").input_value() == page.url
    fresh = opens_at(new_page, link, game, step, lang="en-GB", viewport=LAPTOP)
    expect(fresh.locator("#game-steps")).to_be_hidden()  # a position, not the game
    shot(fresh, "share-link-opened-laptop")

    # The end of the game: the last position, and the game over.
    page.get_by_role("button", name="Last move", exact=True).click()
    expect(page.locator("#game-next")).to_have_text("The game is over.")
    board_shows(page, game, total)

    # A bad text: refused naming its line, in the engine's words.
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[at] = f"1. seat {game.moves[0].seat + 1}: pass"
    expect(page.locator("#import-text")).to_be_hidden()  # the box closed on the game read
    page.get_by_text("Import a game").click()
    page.locator("#import-text").fill("\n".join(lines))
    page.get_by_role("button", name="Show the game").click()
    expect(page.locator("#import-status")).to_have_text(
        f"Line {at + 1}: You may pass only when the stock is empty: discard instead."
    )


def test_a_pasted_text_is_stepped_through_and_shared_on_a_phone_in_french(
    new_page: NewPage, live: ServerProcess, finished: str
) -> None:
    with live.client() as client:
        text = client.get(f"/api/tables/{finished}/text").text
    game = read_text(get_game("summy"), text)
    total = len(game.moves)
    phone = {"lang": "fr-FR", "viewport": PHONE, "has_touch": True, "is_mobile": True}
    page = new_page(**phone, permissions=CLIPBOARD)
    page.goto(f"/replay/{finished}")
    expect(page.get_by_role("link", name="Télécharger les coups (texte)")).to_be_visible()
    clean(page, "replay on a phone in French")

    page.goto("/analysis/summy")
    page.get_by_text("Importer une partie").tap()
    page.get_by_label("Le texte de la partie").fill(text)
    page.get_by_role("button", name="Afficher la partie").tap()
    expect(page.locator("#game-step")).to_have_text(f"Coup 0 sur {total}")
    step = placement_step(game, 3)
    for _ in range(step):
        page.get_by_role("button", name="Coup suivant").tap()
    expect(page.locator("#game-step")).to_have_text(f"Coup {step} sur {total}")
    board_shows(page, game, step)
    name = game.names[game.moves[step].seat]
    expect(page.locator("#game-next")).to_have_text(
        f"Ensuite : {name} joue {game.moves[step].text}"
    )
    clean(page, "analysis board on a phone in French")
    shot(page, "share-import-phone-fr")

    page.get_by_role("button", name="Copier le lien").tap()
    expect(page.locator("#share-status")).to_have_text("Lien copié.")
    link = page.locator("#share-url").input_value()
    assert link == page.url and re.search(r"#position=", link)
    fresh = opens_at(new_page, link, game, step, **phone)
    clean(fresh, "a shared position on a phone in French")
    shot(fresh, "share-link-opened-phone-fr")

    # A move out of its place: refused naming the line, in French.
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[at] = lines[at].replace("1. ", "2. ", 1)
    page.get_by_text("Importer une partie").tap()
    page.locator("#import-text").fill("\n".join(lines))
    page.get_by_role("button", name="Afficher la partie").tap()
    expect(page.locator("#import-status")).to_have_text(
        f"Ligne {at + 1} : C'est le coup 1 qui vient ensuite, pas le coup 2."
    )
    clean(page, "a refused text on a phone in French")
