"""Slide's 4x4 grid: the cell encoding, sliding a card in, cancelling, scoring.

A grid is a tuple of 16 small ints, cell ``(row, col)`` at index
``row * 4 + col`` (row 0 on top). A face-up card is its value ``1..10``, a
face-down card is its value negated (``-10..-1``) and the hole is ``0``. The
encoding keeps a grid hashable, cheap to copy and fast to slide.

>>> grid = (-3, 4, -5, 6) + (1,) * 12
>>> face_down_cells(grid)
(0, 2)
>>> slide_in(with_hole(grid, 2), 9, "left")[:4]
(9, -3, 4, 6)
"""

from __future__ import annotations

from operator import itemgetter
from typing import Literal, TypeAlias

SIZE = 4
CELLS = SIZE * SIZE
HOLE = 0
VALUES = range(1, 11)
COPIES = 10
"""Ten copies of each value 1..10: 100 cards."""

Grid: TypeAlias = tuple[int, ...]
Cell: TypeAlias = tuple[int, int]
Side = Literal["left", "right", "top", "bottom"]
SIDES: tuple[Side, ...] = ("left", "right", "top", "bottom")

_AXIS: dict[str, str] = {"left": "column", "right": "column", "top": "row", "bottom": "row"}
_EDGE: dict[str, int] = {"left": 0, "right": SIZE - 1, "top": 0, "bottom": SIZE - 1}


def cell_index(cell: Cell) -> int:
    """The index of ``(row, col)`` in a grid tuple."""
    return cell[0] * SIZE + cell[1]


def index_cell(index: int) -> Cell:
    """The ``(row, col)`` of a grid index."""
    return divmod(index, SIZE)


def landing_index(hole: int, side: Side) -> int:
    """Where a card entering from ``side`` lands, for a hole at index ``hole``.

    >>> index_cell(landing_index(cell_index((1, 1)), "bottom"))
    (3, 1)
    """
    row, col = divmod(hole, SIZE)
    if side == "left":
        return row * SIZE
    if side == "right":
        return row * SIZE + SIZE - 1
    if side == "top":
        return col
    return (SIZE - 1) * SIZE + col


def _source_map(hole: int, side: Side) -> tuple[int, ...]:
    """For each cell after the slide, the index it comes from (``CELLS``: the new card)."""
    row, col = divmod(hole, SIZE)
    source = list(range(CELLS))
    if side == "left":  # cells left of the hole move one step right
        for c in range(col, 0, -1):
            source[row * SIZE + c] = row * SIZE + c - 1
    elif side == "right":  # cells right of the hole move one step left
        for c in range(col, SIZE - 1):
            source[row * SIZE + c] = row * SIZE + c + 1
    elif side == "top":  # cells above the hole move one step down
        for r in range(row, 0, -1):
            source[r * SIZE + col] = (r - 1) * SIZE + col
    else:  # cells below the hole move one step up
        for r in range(row, SIZE - 1):
            source[r * SIZE + col] = (r + 1) * SIZE + col
    source[landing_index(hole, side)] = CELLS
    return tuple(source)


def _allowed(hole: int, side: Side) -> bool:
    return landing_index(hole, side) != hole


ENTRIES: tuple[tuple[Side, ...], ...] = tuple(
    tuple(side for side in SIDES if _allowed(hole, side)) for hole in range(CELLS)
)
"""``ENTRIES[hole]``: the sides a card may enter from when the hole is at that index."""

_SLIDERS: dict[tuple[int, Side], itemgetter[tuple[int, ...]]] = {
    (hole, side): itemgetter(*_source_map(hole, side))
    for hole in range(CELLS)
    for side in ENTRIES[hole]
}


def entry_refusal(hole: int, side: Side) -> str | None:
    """Why a card may not enter from ``side`` (it would land in the hole), else None.

    >>> print(entry_refusal(cell_index((0, 2)), "top"))  # doctest: +NORMALIZE_WHITESPACE
    you cannot slide a card straight into the hole: the hole is in row 0, so the card cannot
    enter from the top
    >>> entry_refusal(cell_index((0, 2)), "left") is None
    True
    """
    if _allowed(hole, side):
        return None
    axis = _AXIS[side]
    return (
        "you cannot slide a card straight into the hole: the hole is in "
        f"{axis} {_EDGE[side]}, so the card cannot enter from the {side}"
    )


def with_hole(grid: Grid, hole: int) -> Grid:
    """The grid with the card at index ``hole`` taken out."""
    return (*grid[:hole], HOLE, *grid[hole + 1 :])


def slide_in(grid: Grid, value: int, side: Side) -> Grid:
    """Slide a face-up ``value`` into ``grid`` from ``side``, closing its hole.

    Cards between the edge and the hole move one step toward the hole and keep
    their side; the new card lands face up on the edge. ``KeyError`` if the
    grid has no hole or the card would land in the hole (check
    :func:`entry_refusal` first).
    """
    slider = _SLIDERS[(grid.index(HOLE), side)]
    slid: Grid = slider((*grid, value))
    return slid


def face_down_cells(grid: Grid) -> tuple[int, ...]:
    """The indexes of the face-down cards, in cell order."""
    return tuple(i for i, card in enumerate(grid) if card < 0)


def cancelled(values: Grid) -> tuple[bool, ...]:
    """For each cell of a final grid, whether its card cancels.

    A card cancels when at least one orthogonal neighbour has the same value;
    every card is judged on the same final grid, all at once.

    >>> cancelled((5, 5, 5, 2) + (1, 3) * 2 + (3, 1) * 2 + (1, 3) * 2)[:4]
    (True, True, True, False)
    """
    out = []
    for i, value in enumerate(values):
        row, col = divmod(i, SIZE)
        out.append(
            (col > 0 and values[i - 1] == value)
            or (col < SIZE - 1 and values[i + 1] == value)
            or (row > 0 and values[i - SIZE] == value)
            or (row < SIZE - 1 and values[i + SIZE] == value)
        )
    return tuple(out)


def final_tally(values: Grid) -> tuple[int, int, tuple[int | None, ...]]:
    """``(points, cards left, grid after cancelling)`` of a final grid of face-up values.

    Removed cards are ``None`` in the returned grid.

    >>> final_tally((5, 5, 5, 2) + (1, 3) * 2 + (3, 1) * 2 + (1, 3) * 2)[:2]
    (26, 13)
    """
    gone = cancelled(values)
    left = tuple(None if g else v for v, g in zip(values, gone, strict=True))
    kept = [v for v in left if v is not None]
    return sum(kept), len(kept), left


def rows(cells: tuple[int | None, ...] | list[int | None]) -> list[list[int | None]]:
    """A flat 16-cell grid as 4 lists of 4 (the JSON shape of a grid)."""
    return [list(cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
