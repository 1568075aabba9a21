"""A short text notation for Summy placements, for logs and the command line.

A move is written ``DIR ROW,COL RUN``: the direction (``H`` or ``V``), the
first cell of the whole run (row, then column, negative numbers allowed), and
the run's tiles in reading order, with the tiles that were already on the table
in square brackets. Each character of the run is one tile on the next cell, so
the text gives every placed tile's cell, the direction and the equation made:

>>> move = parse_move("H 0,-3 1+1[=]2")
>>> move.placement.tiles
(((0, -3), '1'), ((0, -2), '+'), ((0, -1), '1'), ((0, 1), '2'))
>>> move.equation_text, move.score, move.equation
('1+1=2', 4, Equation(row=0, col=-3, dir='H', length=5))
>>> move_text(move)
'H 0,-3 1+1[=]2'

Consecutive old tiles share one pair of brackets; a one-tile placement names
its direction like any other:

>>> move_text(parse_move("V -2,-3 2x[1]=2"))
'V -2,-3 2x[1]=2'
>>> parse_move("V -4,1 [1+1=]2").placement
Placement(dir='V', tiles=(((0, 1), '2'),))
>>> move_text(parse_move("H 3,0 [2x5]=[10]"))
'H 3,0 [2x5]=[10]'
"""

from __future__ import annotations

import re

from meeple.games.summy.tiles import (
    TILES,
    Cell,
    Direction,
    Equation,
    Move,
    Placement,
    digit_value,
    step,
)


class NotationError(ValueError):
    """Text that is not a move in the notation; the message says what is wrong."""


_MOVE = re.compile(r"([HV]) (-?[0-9]+),(-?[0-9]+) (\S+)")  # \d would match any script's digits


def move_text(move: Move) -> str:
    """A move in the notation: ``H 0,-3 1+1[=]2``."""
    equation = move.equation
    placed = {cell for cell, _ in move.placement.tiles}
    parts: list[str] = []
    inside = False
    for cell, tile in zip(equation.cells(), move.equation_text, strict=True):
        old = cell not in placed
        if old != inside:
            parts.append("[" if old else "]")
            inside = old
        parts.append(tile)
    if inside:
        parts.append("]")
    return f"{equation.dir} {equation.row},{equation.col} {''.join(parts)}"


def parse_move(text: str) -> Move:
    """The move written ``text``; :class:`NotationError` if it is not in the notation.

    The score is the sum of the run's digits. Legality is not checked here
    (see :func:`meeple.games.summy.rules.check_placement`).
    """
    match = _MOVE.fullmatch(text.strip())
    if match is None:
        raise NotationError(f"{text!r} is not a move: write it like 'H 0,-3 1+1[=]2'")
    direction: Direction = "H" if match[1] == "H" else "V"
    row, col = int(match[2]), int(match[3])
    dr, dc = step(direction)
    tiles: list[str] = []
    placed: list[tuple[Cell, str]] = []
    group: int | None = None  # tiles in the open bracket group; None outside brackets
    for char in match[4]:
        if char == "[" and group is None:
            group = 0
        elif char == "]" and group is not None:
            if group == 0:
                raise NotationError(f"{text!r}: empty brackets []")
            group = None
        elif char in TILES:
            cell = (row + len(tiles) * dr, col + len(tiles) * dc)
            tiles.append(char)
            if group is None:
                placed.append((cell, char))
            else:
                group += 1
        else:
            raise NotationError(f"{text!r}: unexpected {char!r} in the run")
    if group is not None:
        raise NotationError(f"{text!r}: a [ is never closed")
    if not placed:
        raise NotationError(f"{text!r}: the move places no tile (every tile is in brackets)")
    run = "".join(tiles)
    return Move(
        placement=Placement(direction, tuple(placed)),
        score=sum(digit_value(tile) for tile in run),
        equation_text=run,
        equation=Equation(row, col, direction, len(run)),
    )
