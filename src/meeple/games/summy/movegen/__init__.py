"""Every legal placement of the player to move, exactly once, fast; and the best few.

``legal_moves(position)`` is a lazy view in the spirit of python-chess's
``board.legal_moves``: iterate it for :class:`~meeple.games.summy.tiles.Move`
values, ``count()`` or ``len()`` it, ask ``placement in moves`` (a direct
legality check through the rules engine, no enumeration).

How: a placement is fully described by its direction and its run (see
:mod:`meeple.games.summy.movegen.windows`), so the generator lists, on every
line holding an old tile, each cell a run may start on with the stretch of
cells such runs may cover, and :func:`meeple.games.summy.movegen.solve.solve`
finds every true equation filling a prefix of that stretch.

Order (deterministic): horizontal moves first, then vertical; by line (row
for ``H``, column for ``V``) ascending; within a line by the run's first cell,
then its last cell; within a run by the placed tiles read in order, compared
as text (by code point: ``+ - 0..9 : = x``).

Discards and pass are not placements: the game engine lists those.

The package: this module (the lazy view, the order, ``best_moves``),
:mod:`.windows` (the stretches of every line), :mod:`.solve` (one search per
stretch), :mod:`.digit` (one search per hand for stretches holding one old
digit or ``=``), :mod:`.stop` (stopping a search), :mod:`.engine` (the
pure-Python search or its compiled core, ``_movegen_c``); docs/summy-movegen.md.

Bounds: a table and hand holding more digits than the bag's 60 cannot happen
in a game, and the search's arithmetic bounds are sized for the bag: such a
position is a :class:`~meeple.games.base.Refusal` (code ``too_many_digits``)
as soon as the moves are asked for. A caller that must stop at some point
passes ``stop`` (asked between stretches and during each search); the moves
then end in :class:`~meeple.games.summy.movegen.solve.SearchStopped`.

>>> from meeple.games.summy.tiles import Position
>>> start = Position({(0, 0): "="}, (), ("1", "1", "+", "2"))
>>> [m.equation_text for m in legal_moves(start)]
['1+1=2', '1+1=2']
>>> [m.placement.dir for m in legal_moves(start)]
['H', 'V']
>>> best_moves(start, 1)[0].score
4
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from meeple.games.base import IllegalAction, Refusal
from meeple.games.summy.movegen.solve import HOLE, solve_until
from meeple.games.summy.movegen.stop import SearchStopped, Stop
from meeple.games.summy.movegen.windows import (
    Stretch,
    cell_at,
    line_stretches,
    lines,
    sealed_by_line,
)
from meeple.games.summy.tiles import (
    BAG,
    DIGITS,
    DIRECTIONS,
    HAND_SIZE,
    Cell,
    Direction,
    Equation,
    Move,
    Placement,
    Position,
)


@dataclass(frozen=True)
class _Candidate:
    """A stretch placed on the table: its direction and line, for turning fillings into moves."""

    direction: Direction
    line: int
    stretch: Stretch

    def order_key(self) -> tuple[int, int, int]:
        """Where this stretch's moves come in the legal-moves order."""
        return (DIRECTIONS.index(self.direction), self.line, self.stretch.start)

    @cached_property
    def _layout(self) -> tuple[tuple[int, ...], tuple[Cell, ...], list[str], Cell]:
        """Where the pattern's holes are, their cells, the old text between them, the first cell."""
        stretch, direction, line = self.stretch, self.direction, self.line
        pattern = stretch.pattern
        holes = tuple(k for k, cell in enumerate(pattern) if cell == HOLE)
        cells = tuple(cell_at(direction, line, stretch.start + k) for k in holes)
        return holes, cells, pattern.split(HOLE), cell_at(direction, line, stretch.start)

    def move(self, end: int, filling: str) -> Move:
        """The move that fills the run ``pattern[:end + 1]`` with ``filling`` (a tile per hole)."""
        holes, cells, between, (row, col) = self._layout
        # The old text before each hole, then its tile; then the old text up to the end.
        text = "".join(map(str.__add__, between, filling))
        text += self.stretch.pattern[holes[len(filling) - 1] + 1 : end + 1]
        score = sum(map(_POINTS.__getitem__, text))
        equation = Equation(row, col, self.direction, end + 1)
        # The holes' cells are in reading order, which is sorted order in both directions.
        placement = Placement.of_sorted(self.direction, tuple(zip(cells, filling, strict=False)))
        return Move(placement, score, text, equation)


_POINTS = {tile: (ord(tile) - 48 if tile in DIGITS else 0) for tile in "0123456789+-x:="}
"""What each tile scores (digits their value, the rest nothing)."""


BAG_DIGITS = sum(BAG[digit] for digit in DIGITS)
"""The most digits a table and hand can hold together (the bag's): 60."""


def check_readable(position: Position) -> None:
    """:class:`Refusal` (``too_many_digits``) if the position holds more digits than the bag.

    >>> check_readable(Position({(0, c): "1" for c in range(61)}, (), ()))
    Traceback (most recent call last):
    ...
    meeple.games.base.Refusal: the table and the hand hold 61 digits; the bag has only 60
    """
    digits = sum(tile in DIGITS for tile in position.tiles.values())
    digits += sum(tile in DIGITS for tile in position.hand)
    if digits > BAG_DIGITS:
        raise Refusal(
            f"the table and the hand hold {digits} digits; the bag has only {BAG_DIGITS}",
            "too_many_digits",
            digits=digits,
            most=BAG_DIGITS,
        )


def _candidates(position: Position, stop: Stop | None = None) -> Iterator[_Candidate]:
    """Every stretch of the table, in legal-moves order (``stop`` asked before each)."""
    check_readable(position)
    max_holes = min(HAND_SIZE, len(position.hand))
    if max_holes == 0:
        return
    for direction in DIRECTIONS:
        by_line = lines(position, direction)
        sealed = sealed_by_line(position, direction)
        for line in sorted(by_line):
            for stretch in line_stretches(by_line[line], sealed.get(line, frozenset()), max_holes):
                if stop is not None and stop():
                    raise SearchStopped
                yield _Candidate(direction, line, stretch)


def _hand_key(position: Position) -> str:
    """The hand as a sorted string: the solver's cache key."""
    return "".join(sorted(position.hand))


class LegalMoves:
    """A lazy view over every legal placement of the player to move in ``position``.

    With ``stop``, listing or counting asks it as it goes and raises
    :class:`SearchStopped` once it says so.
    """

    def __init__(self, position: Position, stop: Stop | None = None) -> None:
        self.position = position
        self.stop = stop

    def __iter__(self) -> Iterator[Move]:
        """Every legal move, each once, in the documented order."""
        hand, stop = _hand_key(self.position), self.stop
        for candidate in _candidates(self.position, stop):
            for end, filling in solve_until(candidate.stretch.pattern, hand, stop):
                yield candidate.move(end, filling)

    def count(self) -> int:
        """How many legal moves there are (without building them)."""
        hand, stop = _hand_key(self.position), self.stop
        return sum(
            len(solve_until(c.stretch.pattern, hand, stop))
            for c in _candidates(self.position, stop)
        )

    def __len__(self) -> int:
        """Same as :meth:`count`."""
        return self.count()

    def __bool__(self) -> bool:
        """Whether there is at least one legal move."""
        hand, stop = _hand_key(self.position), self.stop
        return any(
            solve_until(c.stretch.pattern, hand, stop) for c in _candidates(self.position, stop)
        )

    def __contains__(self, item: object) -> bool:
        """Whether a :class:`Placement` is legal (or a :class:`Move` is one, exactly).

        Checked directly by the rules engine, without listing the moves.
        """
        from meeple.games.summy.rules import check_placement

        placement = item.placement if isinstance(item, Move) else item
        if not isinstance(placement, Placement):
            return False
        position = self.position
        try:
            move = check_placement(position.tiles, position.equations, position.hand, placement)
        except IllegalAction:
            return False
        return move == item if isinstance(item, Move) else True

    def __repr__(self) -> str:
        """A short description, e.g. ``<LegalMoves: 12 moves>``."""
        return f"<LegalMoves: {self.count()} moves>"


def legal_moves(position: Position, stop: Stop | None = None) -> LegalMoves:
    """Every legal placement of the player to move, as a lazy :class:`LegalMoves` view."""
    return LegalMoves(position, stop)


def _upper_bound(pattern: str, hand_digits: list[int]) -> int:
    """The most points any equation in a prefix of ``pattern`` could score with these digits.

    ``hand_digits`` is sorted, highest first. A hole must hold the ``=`` if the
    pattern has none, and one must hold an operator if it has none.
    """
    digit_holes = pattern.count(HOLE)
    if "=" not in pattern:
        digit_holes -= 1
    if not any(op in pattern for op in "+-x:"):
        digit_holes -= 1
    fixed = sum(ord(t) - 48 for t in pattern if t in DIGITS)
    return fixed + sum(hand_digits[: max(digit_holes, 0)])


def best_moves(position: Position, n: int, stop: Stop | None = None) -> list[Move]:
    """The ``n`` highest-scoring legal placements, best first.

    Ties are broken by the legal-moves order (earlier first), so the result is
    the first ``n`` of the legal moves sorted by score, stably. Stretches are
    visited from the highest score bound down; one whose bound cannot beat
    the ``n``-th best found so far is never solved. ``stop`` as for
    :class:`LegalMoves`.
    """
    check_readable(position)
    if n <= 0:
        return []
    hand = _hand_key(position)
    hand_digits = sorted((ord(t) - 48 for t in position.hand if t in DIGITS), reverse=True)
    ranked = sorted(
        (
            (_upper_bound(c.stretch.pattern, hand_digits), c.order_key(), c)
            for c in _candidates(position, stop)
        ),
        key=lambda entry: (-entry[0], entry[1]),
    )
    # A min-heap of the best n so far: the worst (lowest score, then latest in
    # the legal-moves order) is on top, so order parts are negated.
    best: list[tuple[int, tuple[int, ...], int, tuple[int, ...], str, _Candidate]] = []
    for bound, key, candidate in ranked:
        if len(best) == n:
            worst_score, worst_key = best[0][0], tuple(-k for k in best[0][1])
            if bound < worst_score or (bound == worst_score and key > worst_key):
                continue
        pattern = candidate.stretch.pattern
        fixed = {end: _points(pattern[: end + 1]) for end in range(len(pattern))}
        negated_key = tuple(-k for k in key)
        for end, filling in solve_until(pattern, hand, stop):
            score = fixed[end] + _points(filling)
            entry = (score, negated_key, -end, tuple(-ord(c) for c in filling), filling, candidate)
            if len(best) < n:
                heapq.heappush(best, entry)
            elif entry[:4] > best[0][:4]:
                heapq.heapreplace(best, entry)
    best.sort(key=lambda e: e[:4], reverse=True)
    return [candidate.move(-neg_end, filling) for _, _, neg_end, _, filling, candidate in best]


def _points(text: str) -> int:
    """The sum of the digit values in ``text`` (holes and operators count 0)."""
    return sum(ord(t) - 48 for t in text if t in DIGITS)
