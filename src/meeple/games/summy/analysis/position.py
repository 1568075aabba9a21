"""Analyse one Summy position: every legal move, ranked by score (the analysis board's API).

Checks that the position could happen in a game (every tile within reach of
the start cell, no more of a tile on the table and in the hand than the bag
holds), lists every legal placement, and returns the best ``limit`` of them,
highest score first (ties in the move generator's order), with how many
there are in all.

The position comes from a stranger, so the work is bounded twice: what
cannot happen in a game is refused before anything is built from it (the
reach as the coordinates are read, the bag before equations are looked
for), and the search stops at a deadline, when its caller gives up
(:class:`~meeple.games.summy.movegen.stop.SearchStopped`), instead of
running on for nobody.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.games.base import JSON
from meeple.games.kit.clock import stop_after
from meeple.games.summy.equation import is_true_equation
from meeple.games.summy.formats import FormatError, move_to_json, position_from_json
from meeple.games.summy.movegen import best_moves, legal_moves
from meeple.games.summy.movegen.stop import SearchStopped
from meeple.games.summy.tiles import BAG, DIRECTIONS, Cell, Equation, Position, step

MAX_LISTED = 500
"""The most moves one answer lists (the count covers them all)."""


def checked_position(data: Any) -> Position:
    """The position of ``data`` (the shared position format), if it could happen in a game.

    ``equations`` may be left out (a table set up by hand on the analysis
    board): every maximal run of 5 or more tiles that reads as a true equation
    is then taken as one. Raises :class:`FormatError` naming the problem.
    """
    infer = isinstance(data, dict) and "equations" not in data
    position = position_from_json({**data, "equations": []} if infer else data)
    used = Counter(position.tiles.values()) + Counter(position.hand)
    for tile, count in sorted(used.items()):
        if count > BAG[tile]:
            raise FormatError(
                f"the bag holds {BAG[tile]} of {tile!r}, but the table and the hand hold {count}",
                "over_bag",
                tile=tile,
                bag=BAG[tile],
                count=count,
            )
    if position.tiles and "=" not in position.tiles.values():
        raise FormatError("a table holds the start '=' (or is empty)", "no_start")
    if infer:
        position = Position(position.tiles, inferred_equations(position.tiles), position.hand)
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


def analyse_position(data: Any, limit: int, seconds: float | None = None) -> dict[str, JSON]:
    """Every legal move of the position, ranked: ``{"count", "moves": [best first]}``.

    With ``seconds``, the search gives up that long from now, raising
    :class:`~meeple.games.summy.movegen.stop.SearchStopped` (its caller has
    given up by then: the time is its own wait's).
    """
    position = checked_position(data)
    stop = stop_after(seconds) if seconds is not None else None
    shown = max(0, min(limit, MAX_LISTED))
    return {
        "count": legal_moves(position, stop).count(),
        "moves": [move_to_json(move) for move in best_moves(position, shown, stop)],
    }


class SummyBoard:
    """Summy's analysis board (``FEATURES.analysis``)."""

    max_listed = MAX_LISTED

    def check(self, position: JSON) -> None:
        """:class:`FormatError` (a ``Refusal``) if the position could not happen in a game."""
        checked_position(position)

    def analyse(self, position: JSON, limit: int, seconds: float | None) -> dict[str, JSON]:
        """:func:`analyse_position`; ``TimeoutError`` when the search gives up."""
        try:
            return analyse_position(position, limit, seconds)
        except SearchStopped:
            raise TimeoutError("the search ran out of time") from None


BOARD = SummyBoard()
"""The analysis board Summy's ``FEATURES`` names."""
