"""Summy's value types: tiles, cells, equations on the table, placements.

These are shared by the rules, the move generator, the formats and the bots.

>>> Equation(0, -3, "H", 5).cells()
((0, -3), (0, -2), (0, -1), (0, 0), (0, 1))
>>> Equation(0, -3, "H", 5).sealed_cells()
((0, -4), (0, 2))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeAlias

DIGITS = "0123456789"
OPERATORS = "+-x:"
EQUALS = "="
TILES = DIGITS + OPERATORS + EQUALS
"""Every kind of tile: digits, ``+ - x :`` (``x`` multiplies, ``:`` divides) and ``=``."""

BAG: dict[str, int] = {**{d: 6 for d in DIGITS}, **{o: 5 for o in OPERATORS}, EQUALS: 14}
"""How many of each tile the game has: 94 in all, one ``=`` of which starts on the table."""

Cell: TypeAlias = tuple[int, int]
"""``(row, col)``: rows grow downward, columns to the right; no edge."""

Direction: TypeAlias = Literal["H", "V"]
"""``H`` reads left to right along a row, ``V`` top to bottom along a column."""

DIRECTIONS: tuple[Direction, Direction] = ("H", "V")
HAND_SIZE = 8
START_CELL: Cell = (0, 0)


def step(direction: Direction) -> Cell:
    """The ``(drow, dcol)`` of one step along ``direction``."""
    return (0, 1) if direction == "H" else (1, 0)


def digit_value(tile: str) -> int:
    """The points a tile scores: its digit value, 0 for operators and ``=``."""
    return ord(tile) - 48 if tile in DIGITS else 0


@dataclass(frozen=True, order=True)
class Equation:
    """An equation made on the table: first cell, direction and number of tiles."""

    row: int
    col: int
    dir: Direction
    length: int

    def cells(self) -> tuple[Cell, ...]:
        """The cells the equation covers, in reading order."""
        dr, dc = step(self.dir)
        return tuple((self.row + i * dr, self.col + i * dc) for i in range(self.length))

    def sealed_cells(self) -> tuple[Cell, Cell]:
        """The cell just before its first tile and just after its last: sealed forever."""
        dr, dc = step(self.dir)
        before = (self.row - dr, self.col - dc)
        after = (self.row + self.length * dr, self.col + self.length * dc)
        return before, after


def sealed_cells(equations: Iterable[Equation]) -> frozenset[Cell]:
    """Every cell sealed by the given equations."""
    return frozenset(cell for eq in equations for cell in eq.sealed_cells())


@dataclass(frozen=True)
class Placement:
    """Tiles put from the hand onto empty cells, read in direction ``dir``.

    ``tiles`` is kept sorted by cell, so two placements of the same tiles on
    the same cells in the same direction are equal (and hash equal).
    """

    dir: Direction
    tiles: tuple[tuple[Cell, str], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))

    @classmethod
    def of_sorted(cls, direction: Direction, tiles: tuple[tuple[Cell, str], ...]) -> Placement:
        """A placement from tiles already sorted by cell (the move generator's, in bulk)."""
        placement = object.__new__(cls)
        object.__setattr__(placement, "dir", direction)
        object.__setattr__(placement, "tiles", tiles)
        return placement

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells the tiles go to, sorted."""
        return tuple(cell for cell, _ in self.tiles)


@dataclass(frozen=True)
class Discard:
    """Tiles from the hand put out of the game face down (1 or more)."""

    tiles: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))


@dataclass(frozen=True)
class Pass:
    """Do nothing this turn: allowed only while the stock is empty."""


Action: TypeAlias = Placement | Discard | Pass


@dataclass(frozen=True)
class Position:
    """What the player to move faces: the table, the equations made, their hand.

    This is the unit that the move generator, the position JSON format
    (``docs/summy-position-format.md``) and the analyser work on.
    """

    tiles: dict[Cell, str]
    equations: tuple[Equation, ...]
    hand: tuple[str, ...]

    def sealed(self) -> frozenset[Cell]:
        """Every sealed cell of this table."""
        return sealed_cells(self.equations)


@dataclass(frozen=True)
class Move:
    """A legal placement with what it makes: its score, its text, its equation."""

    placement: Placement
    score: int
    equation_text: str
    equation: Equation
