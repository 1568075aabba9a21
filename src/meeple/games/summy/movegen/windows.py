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
from functools import cached_property

from meeple.games.summy.movegen.solve import HOLE
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

    @cached_property
    def holes(self) -> tuple[int, ...]:
        """The positions along the line of the pattern's empty cells (only built for moves)."""
        start = self.start
        return tuple(start + k for k, cell in enumerate(self.pattern) if cell == HOLE)


def _blocks(line: Sequence[tuple[int, str]]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive old tiles on a line: ``(first, last)``."""
    blocks: list[tuple[int, int]] = []
    for pos, _tile in line:
        if blocks and blocks[-1][1] == pos - 1:
            blocks[-1] = (blocks[-1][0], pos)
        else:
            blocks.append((pos, pos))
    return blocks


def _free_run(first: int, step: int, limit: int, sealed: frozenset[int]) -> int:
    """How many cells from ``first`` on (by ``step``), up to ``limit``, are not sealed."""
    count = 0
    while count < limit and first + step * count not in sealed:
        count += 1
    return count


def line_stretches(
    line: Sequence[tuple[int, str]], sealed: frozenset[int], max_holes: int
) -> Iterator[Stretch]:
    """Every stretch of one line, by starting cell.

    ``line`` is the old tiles as ``(position along the line, tile)`` sorted by
    position; ``sealed`` the sealed positions on that line. A run starts on an
    empty cell ``1..max_holes`` before a block of old tiles (no sealed cell in
    between, and not touching the previous block) or on a block's first tile.
    A run from there reaches on through the gaps between blocks while it has
    empty cells to spare and meets no sealed cell, and may end up to its
    spare empty cells after a block (stopping one cell short of the next).
    """
    if max_holes <= 0 or not line:
        return
    blocks = _blocks(line)
    count = len(blocks)
    # The line as text, with room for max_holes empty cells at both ends.
    low = line[0][0] - max_holes - 1
    cells = [HOLE] * (line[-1][0] - low + max_holes + 2)
    for pos, tile in line:
        cells[pos - low] = tile
    text = "".join(cells)
    # gap[j]: empty cells between blocks j-1 and j (None if one is sealed);
    # after[j]: empty cells a run may add after block j (not touching block j+1).
    gap: list[int | None] = [None] * count
    after: list[int] = [0] * count
    for j, (first, last) in enumerate(blocks):
        if j:
            cells_between = range(blocks[j - 1][1] + 1, first)
            closed = any(pos in sealed for pos in cells_between)
            gap[j] = None if closed else len(cells_between)
        room = blocks[j + 1][0] - last - 2 if j + 1 < count else max_holes
        after[j] = _free_run(last + 1, 1, min(room, max_holes), sealed)
    for i, (first, _last) in enumerate(blocks):
        room_before = first - blocks[i - 1][1] - 2 if i else max_holes
        lead = _free_run(first - 1, -1, min(room_before, max_holes), sealed)
        for holes in range(lead, -1, -1):
            start = first - holes
            end, used = blocks[i][1], holes
            for j in range(i, count):
                if j > i:
                    between = gap[j]
                    if between is None or used + between > max_holes:
                        break
                    used += between
                    end = blocks[j][1]
                end = max(end, blocks[j][1] + min(after[j], max_holes - used))
            if end - start + 1 >= MIN_RUN:
                yield Stretch(start, text[start - low : end + 1 - low])


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
