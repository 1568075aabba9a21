"""Position and move JSON (docs/summy-position-format.md): reading, writing, refusing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from meeple.games.base import GameRecord, replay
from meeple.games.summy import GAME
from meeple.games.summy.formats import (
    FormatError,
    claimed_score_and_text,
    move_to_json,
    placement_from_json,
    position_from_json,
    position_to_json,
)
from meeple.games.summy.rules import check_move
from meeple.games.summy.tiles import Equation, Placement, Position

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

FORMAT_EXAMPLE: dict[str, Any] = {
    "game": "summy",
    "tiles": [
        {"row": 0, "col": -3, "tile": "1"},
        {"row": 0, "col": -2, "tile": "+"},
        {"row": 0, "col": -1, "tile": "1"},
        {"row": 0, "col": 0, "tile": "="},
        {"row": 0, "col": 1, "tile": "2"},
    ],
    "equations": [{"row": 0, "col": -3, "dir": "H", "length": 5}],
    "hand": ["1", "+", "=", "7", "x", ":", "0", "9"],
}


def with_changes(**changes: Any) -> dict[str, Any]:
    """The format example with some keys replaced."""
    data = copy.deepcopy(FORMAT_EXAMPLE)
    data.update(changes)
    return data


def test_reads_the_format_example() -> None:
    position = position_from_json(FORMAT_EXAMPLE)
    assert position.tiles[(0, -3)] == "1"
    assert len(position.tiles) == 5
    assert position.equations == (Equation(0, -3, "H", 5),)
    assert position.hand == ("1", "+", "=", "7", "x", ":", "0", "9")
    assert position.sealed() == {(0, -4), (0, 2)}


def test_writes_what_it_reads() -> None:
    assert position_to_json(position_from_json(FORMAT_EXAMPLE)) == FORMAT_EXAMPLE


def test_game_may_be_missing_and_extra_keys_are_ignored() -> None:
    data = with_changes(comment="typed by hand")
    del data["game"]
    data["tiles"][0]["note"] = "first"
    assert position_from_json(data) == position_from_json(FORMAT_EXAMPLE)


def test_tiles_in_no_equation_are_accepted() -> None:
    data = with_changes(equations=[])
    assert position_from_json(data).equations == ()


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("summy-*.json")), ids=lambda p: p.name)
def test_the_examples_are_valid(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    if "actions" in data:
        replay(GAME, GameRecord.from_json(data))
    elif "equations" in data:
        position_from_json(data)
    else:
        placement_from_json(data)


def one_tile(row: Any, col: Any, tile: str) -> dict[str, Any]:
    """The format example with a single table tile and no equation."""
    return with_changes(tiles=[{"row": row, "col": col, "tile": tile}], equations=[])


BAD_POSITIONS = [
    ([], "a position must be an object"),
    (with_changes(game="slide"), "'game' is 'slide', not 'summy'"),
    (with_changes(game=None), "'game' is None, not 'summy'"),
    ({"tiles": [], "equations": []}, "the position has no 'hand'"),
    (with_changes(tiles={}), "tiles must be a list"),
    (one_tile(0, 0, "?"), "tiles[0].tile is an unknown tile: '?'"),
    (one_tile(0, 0, "*"), "tiles[0].tile is an unknown tile: '*'"),
    (one_tile(0, 0, "12"), "tiles[0].tile is an unknown tile: '12'"),
    (one_tile("0", 0, "1"), "tiles[0].row must be an integer, not '0'"),
    (one_tile(0, True, "1"), "tiles[0].col must be an integer, not True"),
    (with_changes(tiles=[{"row": 0, "tile": "1"}]), "tiles[0] has no 'col'"),
    (with_changes(tiles=[3]), "tiles[0] must be an object"),
    (
        with_changes(
            tiles=[{"row": 0, "col": 0, "tile": "="}, {"row": 0, "col": 0, "tile": "1"}],
            equations=[],
        ),
        "tiles overlap: the cell (0,0) holds = and 1",
    ),
    (
        with_changes(equations=[{"row": 0, "col": -3, "dir": "H", "length": 6}]),
        "equations[0] does not match the tiles: the cell (0,2) it covers is empty",
    ),
    (
        with_changes(equations=[{"row": 0, "col": -2, "dir": "H", "length": 4}]),
        "equations[0] does not match the tiles: the cell (0,-3) just outside it holds a tile",
    ),
    (
        with_changes(equations=[{"row": 0, "col": -3, "dir": "V", "length": 5}]),
        "equations[0] does not match the tiles: the cell (1,-3) it covers is empty",
    ),
    (with_changes(equations=[{"row": 0, "col": -3, "dir": "D", "length": 5}]),
     "equations[0].dir must be 'H' or 'V', not 'D'"),
    (with_changes(equations=[{"row": 0, "col": -3, "dir": "H", "length": 0}]),
     "equations[0].length must be 1 or more, not 0"),
    (with_changes(equations=None), "equations must be a list"),
    (with_changes(hand=["1"] * 9), "the hand holds 9 tiles; at most 8"),
    (with_changes(hand=["1", "y"]), "hand[1] is an unknown tile: 'y'"),
    (with_changes(hand="12"), "hand must be a list"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), BAD_POSITIONS)
def test_bad_positions_are_refused_in_one_line(data: Any, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        position_from_json(data)
    assert str(caught.value) == message
    assert "\n" not in message


MOVE_JSON = {
    "dir": "H",
    "tiles": [
        {"row": 0, "col": -3, "tile": "1"},
        {"row": 0, "col": -2, "tile": "+"},
        {"row": 0, "col": -1, "tile": "1"},
        {"row": 0, "col": 1, "tile": "2"},
    ],
    "score": 4,
    "equation": "1+1=2",
}


def test_move_json_round_trips_through_the_rules() -> None:
    start = Position({(0, 0): "="}, (), ("1", "+", "1", "2", "x", "3", "7", "="))
    move = check_move(start, placement_from_json(MOVE_JSON))
    written = move_to_json(move)
    assert {key: written[key] for key in MOVE_JSON} == MOVE_JSON
    assert written["run"] == {"row": 0, "col": -3, "dir": "H", "length": 5}
    assert placement_from_json(written) == move.placement
    assert claimed_score_and_text(MOVE_JSON) == (4, "1+1=2")


def test_a_move_without_score_or_equation_is_a_placement() -> None:
    data = {"dir": "V", "tiles": [{"row": 1, "col": 0, "tile": "3"}]}
    assert placement_from_json(data) == Placement("V", (((1, 0), "3"),))
    assert claimed_score_and_text(data) == (None, None)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("H", "a move must be an object"),
        ({"tiles": []}, "the move has no 'dir'"),
        ({"dir": "h", "tiles": []}, "dir must be 'H' or 'V', not 'h'"),
        ({"dir": "H"}, "the move has no 'tiles'"),
        (
            {"dir": "H", "tiles": [{"row": 0, "col": 1, "tile": "%"}]},
            "tiles[0].tile is an unknown tile: '%'",
        ),
    ],
)  # fmt: skip
def test_bad_moves_are_refused(data: Any, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        placement_from_json(data)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"score": "4"}, "score must be an integer, not '4'"),
        ({"equation": 4}, "equation must be a string, not 4"),
    ],
)
def test_bad_claims_are_refused(data: Any, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        claimed_score_and_text(data)
    assert str(caught.value) == message
