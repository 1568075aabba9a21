"""Analyse one Summy position: every legal move, ranked by score (the analysis board's API).

Checks that the position could happen in a game (no more of a tile on the
table and in the hand than the bag holds), lists every legal placement,
and returns the best ``limit`` of them, highest score first (ties in the
move generator's order), with how many there are in all.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.games.base import JSON
from meeple.games.summy.equation import is_true_equation
from meeple.games.summy.formats import FormatError, move_to_json, position_from_json
from meeple.games.summy.movegen import best_moves, legal_moves
from meeple.games.summy.tiles import BAG, DIRECTIONS, Cell, Equation, Position, step

MAX_LISTED = 500
"""The most moves one answer lists (the count covers them all)."""


def checked_position(data: Any) -> Position:
    """The position of ``data`` (the shared position format), if it could happen in a game.

    ``equations`` may be left out (a table set up by hand on the analysis
    board): every maximal run of 5 or more tiles that reads as a true equation
    is then taken as one. Raises :class:`FormatError` naming the problem.
    """
    if isinstance(data, dict) and "equations" not in data:
        data = {**data, "equations": []}
        position = position_from_json(data)
        position = Position(position.tiles, inferred_equations(position.tiles), position.hand)
    else:
        position = position_from_json(data)
    used = Counter(position.tiles.values()) + Counter(position.hand)
    for tile, count in sorted(used.items()):
        if count > BAG[tile]:
            raise FormatError(
                f"the bag holds {BAG[tile]} of {tile!r}, but the table and the hand hold {count}"
            )
    if position.tiles and "=" not in position.tiles.values():
        raise FormatError("a table holds the start '=' (or is empty)")
    return position


def inferred_equations(tiles: dict[Cell, str]) -> tuple[Equation, ...]:
    """Every maximal run of at least 5 tiles, across then down, that is a true equation."""
    found: list[Equation] = []
    for direction in DIRECTIONS:
        dr, dc = step(direction)
        for row, col in sorted(tiles):
            if (row - dr, col - dc) in tiles:
                continue  # not the first cell of its run
            length = 0
            while (row + length * dr, col + length * dc) in tiles:
                length += 1
            equation = Equation(row, col, direction, length)
            text = "".join(tiles[cell] for cell in equation.cells())
            if length >= 5 and is_true_equation(text):
                found.append(equation)
    return tuple(found)


def analyse_position(data: Any, limit: int) -> dict[str, JSON]:
    """Every legal move of the position, ranked: ``{"count", "moves": [best first]}``."""
    position = checked_position(data)
    shown = max(0, min(limit, MAX_LISTED))
    return {
        "count": legal_moves(position).count(),
        "moves": [move_to_json(move) for move in best_moves(position, shown)],
    }
