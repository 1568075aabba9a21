"""Candidate runs ("windows") of a Summy table: where a placement could make an equation.

A legal placement fills every empty cell of its run (rule 3) and the run holds
an old tile (rule 4), so a placement is fully described by its direction and
the run's first and last cells: the placed cells are exactly the empty cells
in between. A window is such a run: on one line, it spans whole blocks of old
tiles ``i..j`` (filling the gaps between them), reaches ``left`` empty cells
before block ``i`` and ``right`` after block ``j``, and must not touch an old
tile beyond its ends (the run would be longer). It holds 1 to ``max_holes``
empty cells, none of them sealed (rule 5), and at least 5 cells (the shortest
equation, ``1+1=2``).

>>> windows = list(line_windows([(0, "=")], frozenset(), 2))
>>> [(w.start, w.end, w.pattern) for w in windows if len(w.pattern) == 5]
[]
>>> [(w.start, w.end, w.pattern) for w in line_windows([(0, "=")], frozenset(), 4)][:2]
[(-4, 0, '????='), (-3, 1, '???=?')]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from meeple.games.summy.movegen_solve import HOLE
from meeple.games.summy.tiles import DIGITS, Cell, Direction, Position

MIN_RUN = 5
"""The fewest tiles an equation can have (``1+1=2``)."""


@dataclass(frozen=True)
class Window:
    """A candidate run on one line: cells ``start..end`` (inclusive) along the line.

    ``pattern`` is its text with ``?`` for each empty cell; ``holes`` are the
    positions along the line of those empty cells, in reading order;
    ``fixed_points`` is the sum of the digit values of its old tiles.
    """

    start: int
    end: int
    pattern: str
    holes: tuple[int, ...]
    fixed_points: int


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


def _points(text: str) -> int:
    """The sum of the digit values in ``text``."""
    return sum(ord(c) - 48 for c in text if c in DIGITS)


def line_windows(
    line: Sequence[tuple[int, str]], sealed: frozenset[int], max_holes: int
) -> Iterator[Window]:
    """Every window of one line, ordered by first cell then last cell.

    ``line`` is the old tiles as ``(position along the line, tile)`` sorted by
    position; ``sealed`` the sealed positions on that line.
    """
    if max_holes <= 0 or not line:
        return
    blocks = _blocks(line)
    found: list[Window] = []
    for i, (first_i, _, _) in enumerate(blocks):
        room_before = first_i - blocks[i - 1][1] - 2 if i else max_holes
        left_max = 0
        while left_max < min(room_before, max_holes) and first_i - left_max - 1 not in sealed:
            left_max += 1
        inner_holes = 0
        inner_pattern = ""
        inner_hole_cells: list[int] = []
        inner_points = 0
        for j in range(i, len(blocks)):
            first_j, last_j, text_j = blocks[j]
            if j > i:
                gap = range(blocks[j - 1][1] + 1, first_j)
                if any(pos in sealed for pos in gap):
                    break
                inner_holes += len(gap)
                if inner_holes > max_holes:
                    break
                inner_pattern += HOLE * len(gap)
                inner_hole_cells.extend(gap)
            inner_pattern += text_j
            inner_points += _points(text_j)
            room_after = blocks[j + 1][0] - last_j - 2 if j + 1 < len(blocks) else max_holes
            right_max = 0
            while right_max < min(room_after, max_holes) and last_j + right_max + 1 not in sealed:
                right_max += 1
            for left in range(min(left_max, max_holes - inner_holes), -1, -1):
                for right in range(min(right_max, max_holes - inner_holes - left) + 1):
                    holes = left + inner_holes + right
                    start, end = first_i - left, last_j + right
                    if holes == 0 or end - start + 1 < MIN_RUN:
                        continue
                    found.append(
                        Window(
                            start,
                            end,
                            HOLE * left + inner_pattern + HOLE * right,
                            (
                                *range(start, first_i),
                                *inner_hole_cells,
                                *range(last_j + 1, end + 1),
                            ),
                            inner_points,
                        )
                    )
    found.sort(key=lambda w: (w.start, w.end))
    yield from found


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
