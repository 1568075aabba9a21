"""The Summy analysis board: a typed position, every legal move listed, previewed on the board."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from browser_harness import PHONE, NewPage, shot
from playwright.sync_api import expect

from meeple.games.summy.formats import position_from_json
from meeple.games.summy.movegen import legal_moves

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_position_set_by_hand_lists_every_move_and_previews_one(new_page: NewPage) -> None:
    page = new_page("en-GB")
    page.goto("/analysis/summy")
    expect(page.locator("#analysis-status")).to_contain_text("No legal move")
    # Type 1+1=2 across, starting two cells left of the start "=".
    page.locator('#board [data-cell="0,-3"]').click()
    page.keyboard.type("1+1")
    page.locator('#board [data-cell="0,1"]').click()
    page.keyboard.type("2")
    # Put a 3 under the 2 from the palette: pick it, click the cell.
    page.locator('#palette [data-tile="3"]').click()
    page.locator('#board [data-cell="1,1"]').click()
    expect(page.locator("#board .tile:not(.ghost)")).to_have_count(6)
    page.locator("#hand").fill("12+=4x")
    expected = legal_moves(
        position_from_json(
            {
                "tiles": [
                    {"row": 0, "col": c, "tile": t}
                    for c, t in zip(range(-3, 2), "1+1=2", strict=True)
                ]
                + [{"row": 1, "col": 1, "tile": "3"}],
                "equations": [{"row": 0, "col": -3, "dir": "H", "length": 5}],
                "hand": list("12+=4x"),
            }
        )
    )
    count = expected.count()
    assert count > 3
    expect(page.locator("#analysis-status")).to_contain_text(f"{count} legal moves")
    expect(page.locator("#moves li")).to_have_count(count)
    best = max(move.score for move in expected)
    expect(page.locator("#moves li").first).to_contain_text(f"{best} points")
    # Equations as the board writes them (× not x); where a move goes is shown on the board,
    # not as grid coordinates such as "across 0,-5".
    listed = page.locator("#moves").inner_text()
    assert "x" not in listed and "×" in listed, listed
    assert re.search(r"\d,-?\d", listed) is None, listed
    # Hover a move: its tiles appear faded on the board; select it: they stay.
    first = page.locator(".move-choice").first
    first.hover()
    tiles_used = int(first.inner_text().rsplit("(", 1)[1].split()[0])
    expect(page.locator("#board .tile.ghost")).to_have_count(tiles_used)
    first.click()
    page.mouse.move(0, 0)
    expect(page.locator("#board .tile.ghost")).to_have_count(tiles_used)
    # The filter by tiles used keeps only those moves.
    page.locator("#tiles-used").select_option("4")
    listed = page.locator("#moves li")
    expect(listed).to_have_count(sum(len(m.placement.tiles) == 4 for m in expected))
    for text in listed.all_inner_texts():
        assert "(4 tiles)" in text
    shot(page, "analysis-board")


def test_a_position_in_the_address_opens_on_the_board_on_a_phone(new_page: NewPage) -> None:
    data = json.loads((EXAMPLES / "summy-midgame.json").read_text(encoding="utf-8"))
    count = legal_moves(position_from_json(data)).count()
    page = new_page("fr-FR", PHONE)
    page.goto(f"/analysis/summy#position={quote(json.dumps(data))}")
    expect(page.locator("#analysis-status")).to_contain_text(f"{count} coups légaux")
    expect(page.locator("#board .tile")).to_have_count(len(data["tiles"]))
    expect(page.locator("#hand")).to_have_value("".join(data["hand"]))
    shot(page, "analysis-board-phone-fr")
    page.locator("#hand").fill("==")
    expect(page.locator("#analysis-status")).to_contain_text("Aucun coup légal")
    page.locator("#hand").fill("123456789")
    expect(page.locator("#analysis-status")).to_contain_text("jusqu'à 8 tuiles")
