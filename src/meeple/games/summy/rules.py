"""Summy placement rules 1-7 (``docs/rules-summy.md``, "Placing"), each with its own message.

>>> table = {(0, 0): "="}
>>> move = check_placement(
...     table, (), "1+12x37",
...     Placement("H", (((0, -3), "1"), ((0, -2), "+"), ((0, -1), "1"), ((0, 1), "2"))),
... )
>>> move.equation_text, move.score, move.equation
('1+1=2', 4, Equation(row=0, col=-3, dir='H', length=5))
>>> try:
...     check_placement(table, (), "1+12x37", Placement("H", (((0, 1), "9"),)))
... except IllegalAction as exc:
...     print(exc)
tile 9 is not in your hand
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from meeple.games.base import IllegalAction
from meeple.games.summy.equation import check_equation
from meeple.games.summy.tiles import (
    HAND_SIZE,
    TILES,
    Cell,
    Equation,
    Move,
    Placement,
    Position,
    digit_value,
    step,
)


def cell_text(cell: Cell) -> str:
    """A cell as the messages write it: ``(0,2)``."""
    return f"({cell[0]},{cell[1]})"


def equation_text(tiles: Mapping[Cell, str], equation: Equation) -> str:
    """The tiles an equation covers, read in its direction (``?`` for a missing tile)."""
    return "".join(tiles.get(cell, "?") for cell in equation.cells())


def run_cells(tiles: Mapping[Cell, str], through: Cell, direction: str) -> list[Cell]:
    """The longest unbroken line of occupied cells through ``through`` along ``direction``.

    ``tiles`` must already hold a tile on ``through``. Cells come in reading order.
    """
    dr, dc = step("H" if direction == "H" else "V")
    row, col = through
    while (row - dr, col - dc) in tiles:
        row, col = row - dr, col - dc
    cells: list[Cell] = []
    while (row, col) in tiles:
        cells.append((row, col))
        row, col = row + dr, col + dc
    return cells


def _check_tiles_and_hand(
    tiles: Mapping[Cell, str], hand: Sequence[str], placement: Placement
) -> None:
    """Rule 1: 1 to 8 tiles, all from the hand as a multiset, on distinct empty cells."""
    count = len(placement.tiles)
    if count == 0:
        raise IllegalAction("a placement puts at least one tile on the table", "no_tiles")
    if count > HAND_SIZE:
        raise IllegalAction(
            f"a placement puts at most {HAND_SIZE} tiles; this one puts {count}",
            "too_many_tiles",
            most=HAND_SIZE,
            count=count,
        )
    seen: set[Cell] = set()
    for cell, tile in placement.tiles:
        if tile not in TILES:
            raise IllegalAction(f"{tile!r} is not a Summy tile", "eq_bad_tile", tile=tile)
        if cell in seen:
            raise IllegalAction(
                f"the cell {cell_text(cell)} is given two tiles",
                "two_tiles_one_cell",
                cell=cell_text(cell),
            )
        seen.add(cell)
        if cell in tiles:
            raise IllegalAction(
                f"the cell {cell_text(cell)} already holds {tiles[cell]}",
                "occupied",
                cell=cell_text(cell),
                tile=tiles[cell],
            )
    take_from_hand(hand, [tile for _, tile in placement.tiles], "place", "too_many_of")


def take_from_hand(
    hand: Iterable[str], tiles: Iterable[str], verb: str, too_many_code: str
) -> Counter[str]:
    """What is left of ``hand`` without ``tiles`` (as multisets); :class:`IllegalAction` if the
    hand lacks some.

    The refusal for a tile held too few times says "you ``verb`` 2 tiles 5 ...", with the code
    ``too_many_code``: placing and discarding refuse in their own words.
    """
    left = Counter(hand)
    for tile, wanted in sorted(Counter(tiles).items()):
        if left[tile] == 0:
            raise IllegalAction(f"tile {tile} is not in your hand", "not_in_hand", tile=tile)
        if left[tile] < wanted:
            raise IllegalAction(
                f"you {verb} {wanted} tiles {tile} but your hand holds only {left[tile]}",
                too_many_code,
                count=wanted,
                tile=tile,
                held=left[tile],
            )
        left[tile] -= wanted
    return left


def _check_one_line(placement: Placement) -> None:
    """Rule 2: every placed cell in one row (``H``) or one column (``V``)."""
    if placement.dir not in ("H", "V"):
        raise IllegalAction(f"the direction must be H or V, not {placement.dir!r}", "bad_direction")
    cells = placement.cells
    if placement.dir == "H" and len({row for row, _ in cells}) > 1:
        raise IllegalAction("the placed tiles are not all in one row", "not_one_row")
    if placement.dir == "V" and len({col for _, col in cells}) > 1:
        raise IllegalAction("the placed tiles are not all in one column", "not_one_column")


def _check_not_sealed(
    tiles: Mapping[Cell, str], equations: Iterable[Equation], placement: Placement
) -> None:
    """Rule 5: no tile on a cell just before or just after an equation made earlier."""
    placed = set(placement.cells)
    for equation in equations:
        before, after = equation.sealed_cells()
        for cell, where in ((before, "before"), (after, "after")):
            if cell in placed:
                text = equation_text(tiles, equation)
                raise IllegalAction(
                    f"the cell {cell_text(cell)} is sealed: it is just {where} the equation {text}",
                    f"sealed_{where}",
                    cell=cell_text(cell),
                    equation=text,
                )


def check_placement(
    tiles: Mapping[Cell, str],
    equations: Sequence[Equation],
    hand: Sequence[str],
    placement: Placement,
) -> Move:
    """The move ``placement`` makes on this table, or :class:`IllegalAction` saying why not.

    ``tiles`` is every tile on the table, ``equations`` every equation made so
    far (their end cells are sealed), ``hand`` the tiles of the player placing.
    The rules are checked in this order: 1 (tiles from the hand, on distinct
    empty cells), 2 (one line), 5 (no sealed cell), 3 (no gap), 4 (an old tile
    in the run), 6 and 7 (a well-formed, true equation). The score is the sum
    of the digits of the whole run, old tiles included.
    """
    _check_tiles_and_hand(tiles, hand, placement)
    _check_one_line(placement)
    _check_not_sealed(tiles, equations, placement)
    after = dict(tiles)
    after.update(placement.tiles)
    run = run_cells(after, placement.tiles[0][0], placement.dir)
    in_run = set(run)
    for cell in placement.cells:
        if cell not in in_run:
            gap = _first_gap(after, placement)
            raise IllegalAction(
                f"there is an empty cell {cell_text(gap)} between placed tiles",
                "gap",
                cell=cell_text(gap),
            )
    if not any(cell in tiles for cell in run):
        raise IllegalAction(
            "the equation must use at least one tile already on the table", "no_old_tile"
        )
    text = "".join(after[cell] for cell in run)
    check_equation(text)
    first_row, first_col = run[0]
    return Move(
        placement=placement,
        score=sum(digit_value(tile) for tile in text),
        equation_text=text,
        equation=Equation(first_row, first_col, placement.dir, len(run)),
    )


def _first_gap(after: Mapping[Cell, str], placement: Placement) -> Cell:
    """The first empty cell between the first and last placed cells (rule 3's culprit)."""
    dr, dc = step(placement.dir)
    row, col = placement.cells[0]
    while (row, col) in after:
        row, col = row + dr, col + dc
    return row, col


def check_move(position: Position, placement: Placement) -> Move:
    """:func:`check_placement` for the player to move in ``position``."""
    return check_placement(position.tiles, position.equations, position.hand, placement)


def is_legal(position: Position, placement: Placement) -> bool:
    """Whether ``placement`` is a legal move in ``position``."""
    try:
        check_move(position, placement)
    except IllegalAction:
        return False
    return True
