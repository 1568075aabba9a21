"""Summy position and move JSON, exactly as ``docs/summy-position-format.md`` says.

Extra keys are ignored on input; a value of the wrong type, an unknown tile,
overlapping tiles, a tile further from the start cell than a game's tiles can
reach, an equation that does not match the tiles or a hand of more than 8
tiles is refused with a :class:`FormatError` whose one-line message names
what is wrong, and whose code names the kind of problem.

>>> position = position_from_json({
...     "tiles": [{"row": 0, "col": 0, "tile": "="}], "equations": [], "hand": ["1", "+"]})
>>> position.hand
('1', '+')
>>> position_to_json(position)["tiles"]
[{'row': 0, 'col': 0, 'tile': '='}]
>>> try:
...     position_from_json({"game": "slide", "tiles": [], "equations": [], "hand": []})
... except FormatError as exc:
...     print(exc)
'game' is 'slide', not 'summy'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.games.base import JSON, Refusal
from meeple.games.summy.tiles import (
    BAG,
    DIRECTIONS,
    HAND_SIZE,
    START_CELL,
    TILES,
    Cell,
    Direction,
    Equation,
    Move,
    Placement,
    Position,
    step,
)


class FormatError(Refusal):
    """JSON that is not a valid Summy position or move; the message names what is wrong."""

    default_code = "bad_position"


REACH = sum(BAG.values()) - 1
"""The furthest a tile can lie from the start cell, in steps along rows plus columns.

Every placement extends a run through a tile already down, so a table is
one connected group grown from the start ``=``: the bag's 94 tiles span at
most 93 steps from it. A tile beyond that cannot happen in a game, and the
move generator's work grows with the span of a line, so such a position is
refused as its coordinates are read, before anything is built from them.
"""


def check_reach(cell: Cell, where: str) -> None:
    """:class:`FormatError` (code ``out_of_reach``) if ``cell`` is beyond :data:`REACH`.

    >>> check_reach((0, 100000000), "tiles[1]")
    Traceback (most recent call last):
    ...
    meeple.games.summy.formats.FormatError: tiles[1] at (0,100000000) is 100000000 steps \
from the start cell (0,0); a game's tiles reach at most 93
    """
    steps = abs(cell[0] - START_CELL[0]) + abs(cell[1] - START_CELL[1])
    if steps > REACH:
        raise FormatError(
            f"{where} at ({cell[0]},{cell[1]}) is {steps} steps from the start cell "
            f"({START_CELL[0]},{START_CELL[1]}); a game's tiles reach at most {REACH}",
            "out_of_reach",
            row=cell[0],
            col=cell[1],
            reach=REACH,
        )


def _int(value: Any, where: str) -> int:
    """``value`` if it is an integer (not a bool), else :class:`FormatError`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(f"{where} must be an integer, not {value!r}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    """``value`` if it is a list, else :class:`FormatError`."""
    if not isinstance(value, list):
        raise FormatError(f"{where} must be a list")
    return value


def _object(value: Any, where: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else :class:`FormatError`."""
    if not isinstance(value, dict):
        raise FormatError(f"{where} must be an object")
    return value


def _field(data: Mapping[str, Any], key: str, where: str) -> Any:
    """``data[key]``, or :class:`FormatError` saying that ``where`` lacks it."""
    if key not in data:
        raise FormatError(f"{where} has no {key!r}")
    return data[key]


def tile_from_json(value: Any, where: str) -> str:
    """A tile name (``0``..``9``, ``+ - x :``, ``=``), else :class:`FormatError`."""
    if not isinstance(value, str) or len(value) != 1 or value not in TILES:
        raise FormatError(f"{where} is an unknown tile: {value!r}")
    return value


def direction_from_json(value: Any, where: str) -> Direction:
    """``H`` or ``V``, else :class:`FormatError`."""
    for direction in DIRECTIONS:
        if value == direction:
            return direction
    raise FormatError(f"{where} must be 'H' or 'V', not {value!r}")


def placed_tiles_from_json(value: Any, where: str) -> list[tuple[Cell, str]]:
    """A list of ``{"row", "col", "tile"}`` objects as ``(cell, tile)`` pairs."""
    pairs: list[tuple[Cell, str]] = []
    for index, item in enumerate(_list(value, where)):
        at = f"{where}[{index}]"
        obj = _object(item, at)
        row = _int(_field(obj, "row", at), f"{at}.row")
        col = _int(_field(obj, "col", at), f"{at}.col")
        pairs.append(((row, col), tile_from_json(_field(obj, "tile", at), f"{at}.tile")))
    return pairs


def placed_tiles_to_json(pairs: Any) -> list[dict[str, JSON]]:
    """``(cell, tile)`` pairs as a list of ``{"row", "col", "tile"}`` objects."""
    return [{"row": row, "col": col, "tile": tile} for (row, col), tile in pairs]


def equation_from_json(value: Any, where: str) -> Equation:
    """An equation ``{"row", "col", "dir", "length"}`` (length 1 or more)."""
    obj = _object(value, where)
    length = _int(_field(obj, "length", where), f"{where}.length")
    if length < 1:
        raise FormatError(f"{where}.length must be 1 or more, not {length}")
    return Equation(
        _int(_field(obj, "row", where), f"{where}.row"),
        _int(_field(obj, "col", where), f"{where}.col"),
        direction_from_json(_field(obj, "dir", where), f"{where}.dir"),
        length,
    )


def equation_to_json(equation: Equation) -> dict[str, JSON]:
    """An equation as ``{"row", "col", "dir", "length"}``."""
    return {
        "row": equation.row,
        "col": equation.col,
        "dir": equation.dir,
        "length": equation.length,
    }


def _check_matches(tiles: Mapping[Cell, str], equation: Equation, where: str) -> None:
    """Every cell the equation covers holds a tile and the two cells just outside are empty.

    Only the first ``len(tiles) + 1`` cells are walked: one of them is empty if
    the equation is longer than the table holds, so an absurd length (``10**12``)
    is refused at once instead of walked.
    """
    dr, dc = step(equation.dir)
    for i in range(min(equation.length, len(tiles) + 1)):
        cell = (equation.row + i * dr, equation.col + i * dc)
        if cell not in tiles:
            raise FormatError(
                f"{where} does not match the tiles: "
                f"the cell ({cell[0]},{cell[1]}) it covers is empty"
            )
    for cell in equation.sealed_cells():
        if cell in tiles:
            raise FormatError(
                f"{where} does not match the tiles: the cell ({cell[0]},{cell[1]}) "
                "just outside it holds a tile"
            )


def position_from_json(data: JSON) -> Position:
    """A :class:`Position` from its JSON form; :class:`FormatError` naming what is wrong."""
    obj = _object(data, "a position")
    if "game" in obj and obj["game"] != "summy":
        raise FormatError(f"'game' is {obj['game']!r}, not 'summy'")
    tiles: dict[Cell, str] = {}
    pairs = placed_tiles_from_json(_field(obj, "tiles", "the position"), "tiles")
    for index, (cell, _tile) in enumerate(pairs):
        check_reach(cell, f"tiles[{index}]")
    for cell, tile in pairs:
        if cell in tiles:
            raise FormatError(
                f"tiles overlap: the cell ({cell[0]},{cell[1]}) holds {tiles[cell]} and {tile}"
            )
        tiles[cell] = tile
    equations = []
    for index, item in enumerate(_list(_field(obj, "equations", "the position"), "equations")):
        equation = equation_from_json(item, f"equations[{index}]")
        _check_matches(tiles, equation, f"equations[{index}]")
        equations.append(equation)
    hand_items = _list(_field(obj, "hand", "the position"), "hand")
    if len(hand_items) > HAND_SIZE:
        raise FormatError(f"the hand holds {len(hand_items)} tiles; at most {HAND_SIZE}")
    hand = tuple(tile_from_json(item, f"hand[{index}]") for index, item in enumerate(hand_items))
    return Position(tiles, tuple(equations), hand)


def position_to_json(position: Position) -> dict[str, JSON]:
    """A position's JSON form: tiles sorted by cell, equations in the order made."""
    return {
        "game": "summy",
        "tiles": placed_tiles_to_json(sorted(position.tiles.items())),
        "equations": [equation_to_json(equation) for equation in position.equations],
        "hand": list(position.hand),
    }


def placement_from_json(data: JSON) -> Placement:
    """The placement of a move's JSON form (``dir`` and ``tiles``; other keys ignored)."""
    obj = _object(data, "a move")
    direction = direction_from_json(_field(obj, "dir", "the move"), "dir")
    pairs = placed_tiles_from_json(_field(obj, "tiles", "the move"), "tiles")
    return Placement(direction, tuple(pairs))


def claimed_score_and_text(data: JSON) -> tuple[int | None, str | None]:
    """The ``score`` and ``equation`` a move's JSON claims, if it gives them."""
    obj = _object(data, "a move")
    score = _int(obj["score"], "score") if "score" in obj else None
    text = obj.get("equation")
    if text is not None and not isinstance(text, str):
        raise FormatError(f"equation must be a string, not {text!r}")
    return score, text


def move_to_json(move: Move) -> dict[str, JSON]:
    """A move's JSON form: the placed tiles only, its score, the whole run as text.

    The equation's first cell, direction and length are written too under
    ``"run"`` (an extra key, which readers of the format ignore).
    """
    return {
        "dir": move.placement.dir,
        "tiles": placed_tiles_to_json(move.placement.tiles),
        "score": move.score,
        "equation": move.equation_text,
        "run": equation_to_json(move.equation),
    }
