"""Stretches of a Summy table's lines: where a placement could make an equation.

A legal placement fills every empty cell of its run (rule 3) and the run holds
an old tile (rule 4), so a placement is fully described by its direction and
the run's first and last cells: the placed cells are exactly the empty cells
in between. The run must not touch an old tile beyond either end (it would be
longer), holds 1 to ``max_holes`` empty cells, none of them sealed (rule 5),
and at least 5 cells (the shortest equation, ``1+1=2``). Runs that start on
the same cell are prefixes of one *stretch*, which the solver searches once.

>>> [(s.start, s.pattern) for s in line_stretches([(0, "="), (3, "7")], frozenset({5}), 3)]
[(-1, '?=??7'), (0, '=??7?')]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from meeple.games.summy.movegen_solve import HOLE
from meeple.games.summy.tiles import Cell, Direction, Position

MIN_RUN = 5
"""The fewest tiles an equation can have (``1+1=2``)."""


@dataclass(frozen=True)
class Stretch:
    """Where runs starting at one cell of a line may lie: cells ``start`` onwards.

    ``pattern`` is the text from ``start`` to the furthest cell a run from
    ``start`` may reach, with ``?`` for each empty cell; ``holes`` are the
    positions along the line of those empty cells, in reading order. Every
    run from ``start`` is a prefix of the pattern.
    """

    start: int
    pattern: str
    holes: tuple[int, ...]


def _blocks(line: Sequence[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """Maximal runs of consecutive old tiles on a line: ``(first, last, text)``."""
    blocks: list[tuple[int, int, str]] = []
    for pos, tile in line:
        if blocks and blocks[-1][1] == pos - 1:
            first, _, text = blocks[-1]
            blocks[-1] = (first, pos, text + tile)
        else:
            blocks.append((pos, pos, tile))
    return blocks


def _furthest_end(
    blocks: list[tuple[int, int, str]], i: int, holes: int, sealed: frozenset[int], max_holes: int
) -> int:
    """The last cell a run may reach that starts ``holes`` empty cells before block ``i``."""
    end = blocks[i][1]
    for j in range(i, len(blocks)):
        if j > i:
            gap = range(blocks[j - 1][1] + 1, blocks[j][0])
            if holes + len(gap) > max_holes or any(pos in sealed for pos in gap):
                break
            holes += len(gap)
            end = blocks[j][1]
        room = blocks[j + 1][0] - blocks[j][1] - 2 if j + 1 < len(blocks) else max_holes
        reach = 0
        while reach < min(room, max_holes - holes) and blocks[j][1] + reach + 1 not in sealed:
            reach += 1
        end = max(end, blocks[j][1] + reach)
    return end


def line_stretches(
    line: Sequence[tuple[int, str]], sealed: frozenset[int], max_holes: int
) -> Iterator[Stretch]:
    """Every stretch of one line, by starting cell.

    ``line`` is the old tiles as ``(position along the line, tile)`` sorted by
    position; ``sealed`` the sealed positions on that line. A run starts on an
    empty cell ``1..max_holes`` before a block of old tiles (no sealed cell in
    between, and not touching the previous block) or on a block's first tile.
    """
    if max_holes <= 0 or not line:
        return
    blocks = _blocks(line)
    old = dict(line)
    for i, (first, _, _) in enumerate(blocks):
        room_before = first - blocks[i - 1][1] - 2 if i else max_holes
        lead = 0
        while lead < min(room_before, max_holes) and first - lead - 1 not in sealed:
            lead += 1
        for holes in range(lead, -1, -1):
            start = first - holes
            end = _furthest_end(blocks, i, holes, sealed, max_holes)
            if end - start + 1 < MIN_RUN:
                continue
            cells = range(start, end + 1)
            yield Stretch(
                start,
                "".join(old.get(pos, HOLE) for pos in cells),
                tuple(pos for pos in cells if pos not in old),
            )


def lines(position: Position, direction: Direction) -> dict[int, list[tuple[int, str]]]:
    """The old tiles of every line in ``direction``: line number -> sorted ``(pos, tile)``.

    For ``H`` a line is a row and positions are columns; for ``V`` a line is a
    column and positions are rows.
    """
    by_line: dict[int, list[tuple[int, str]]] = {}
    for (row, col), tile in position.tiles.items():
        line, pos = (row, col) if direction == "H" else (col, row)
        by_line.setdefault(line, []).append((pos, tile))
    for entries in by_line.values():
        entries.sort()
    return by_line


def sealed_by_line(position: Position, direction: Direction) -> dict[int, frozenset[int]]:
    """Sealed positions of every line in ``direction`` (same numbering as :func:`lines`)."""
    by_line: dict[int, set[int]] = {}
    for row, col in position.sealed():
        line, pos = (row, col) if direction == "H" else (col, row)
        by_line.setdefault(line, set()).add(pos)
    return {line: frozenset(cells) for line, cells in by_line.items()}


def cell_at(direction: Direction, line: int, pos: int) -> Cell:
    """The cell at position ``pos`` along ``line`` in ``direction``."""
    return (line, pos) if direction == "H" else (pos, line)
