"""The move generator is exact: it lists what a slow, obviously correct brute force finds.

The brute force tries, for each direction and each line holding an old tile,
every segment between two empty, unsealed cells within 8 of that line's
tiles (rule 3: the placed cells are then exactly the empty cells of the
segment), and every distinct arrangement of hand tiles on them; it keeps the
ones the rules engine's ``check_placement`` accepts. Two necessary conditions
taken straight from the rules skip the engine call for most arrangements: the
run holds an old tile (rule 4) and reads as ``NUMBER (OP NUMBER)+ = NUMBER``
(rule 6).
"""

from __future__ import annotations

import contextlib
import random
import re
from collections import Counter
from collections.abc import Iterator

import pytest

from meeple.games.base import IllegalAction
from meeple.games.summy.movegen import best_moves, legal_moves
from meeple.games.summy.rules import check_placement
from meeple.games.summy.tiles import (
    BAG,
    DIRECTIONS,
    Cell,
    Direction,
    Equation,
    Move,
    Placement,
    Position,
    step,
)

WELL_FORMED = re.compile(r"(0|[1-9][0-9]*)([-+x:](0|[1-9][0-9]*))+=(0|[1-9][0-9]*)")
REACH = 8
"""A run holds an old tile and at most 8 placed ones: no placed cell is further from the tiles."""
PLAY_HAND = 6
"""Tiles held while building a table by random play (fewer than 8 keeps the tests quick)."""


def arrangements(hand: Counter[str], length: int) -> Iterator[tuple[str, ...]]:
    """Every distinct sequence of ``length`` tiles drawn from the multiset ``hand``."""
    if length == 0:
        yield ()
        return
    for tile in sorted(hand):
        if hand[tile]:
            hand[tile] -= 1
            for rest in arrangements(hand, length - 1):
                yield (tile, *rest)
            hand[tile] += 1


def brute_force(position: Position) -> set[Move]:
    """Every legal placement, found the slow way (see the module docstring)."""
    tiles, sealed = position.tiles, position.sealed()
    hand = Counter(position.hand)
    found: set[Move] = set()
    for direction in DIRECTIONS:
        dr, dc = step(direction)
        for line in {(row if direction == "H" else col) for row, col in tiles}:

            def cell(pos: int, line: int = line, direction: Direction = direction) -> Cell:
                return (line, pos) if direction == "H" else (pos, line)

            along = [pos for pos in range(-1000, 1000) if cell(pos) in tiles]
            span = range(min(along) - REACH, max(along) + REACH + 1)
            empty = [pos for pos in span if cell(pos) not in tiles]
            for a in empty:
                for b in empty:
                    placed = [cell(pos) for pos in empty if a <= pos <= b]
                    if b < a or len(placed) > len(position.hand) or sealed & set(placed):
                        continue
                    first, last = cell(a), cell(b)
                    while (first[0] - dr, first[1] - dc) in tiles:
                        first = (first[0] - dr, first[1] - dc)
                    while (last[0] + dr, last[1] + dc) in tiles:
                        last = (last[0] + dr, last[1] + dc)
                    length = max(last[0] - first[0], last[1] - first[1]) + 1
                    run = Equation(first[0], first[1], direction, length).cells()
                    if not any(c in tiles for c in run):
                        continue
                    for tiles_placed in arrangements(hand, len(placed)):
                        put = dict(zip(placed, tiles_placed, strict=True))
                        text = "".join(put.get(c) or tiles[c] for c in run)
                        if not WELL_FORMED.fullmatch(text):
                            continue
                        placement = Placement(direction, tuple(put.items()))
                        with contextlib.suppress(IllegalAction):
                            found.add(
                                check_placement(tiles, position.equations, position.hand, placement)
                            )
    return found


def random_position(seed: int) -> Position:
    """A table after 0-12 turns of random legal play, and a hand small enough for the brute force.

    Every few seeds the hand repeats tiles on purpose, or lacks ``=``, or lacks digits,
    or holds digits, an operator and an ``=`` (many moves).
    """
    rng = random.Random(seed)
    stock = [tile for tile, n in BAG.items() for _ in range(n)]
    stock.remove("=")
    rng.shuffle(stock)
    tiles: dict[Cell, str] = {(0, 0): "="}
    equations: tuple[Equation, ...] = ()
    hand: list[str] = []
    for _ in range(rng.randint(0, 12)):
        while len(hand) < PLAY_HAND and stock:
            hand.append(stock.pop())
        moves = list(legal_moves(Position(tiles, equations, tuple(hand))))
        if moves:
            move = rng.choice(moves)
            tiles = {**tiles, **dict(move.placement.tiles)}
            equations = (*equations, move.equation)
            for _, tile in move.placement.tiles:
                hand.remove(tile)
        else:
            del hand[: rng.randint(1, len(hand))]
    size = rng.choice((3, 4, 5, 5, 5, 6))
    final = [stock.pop() for _ in range(size)]
    kind = seed % 10
    if kind == 1:
        final = [final[0], final[0], *final[2:]]
    elif kind == 2:
        final = [t for t in final if t != "="] or ["1"]
    elif kind == 3:
        final = [t for t in final if not t.isdigit()] or ["+"]
    elif kind == 4:
        final = ["1", "1", "+", "=", "2", "2"][:size]
    elif kind in (5, 6, 7):
        digits = [t for t in stock if t.isdigit()][:4]
        final = [*digits, next(t for t in stock if t in "+-x:"), "="][-max(size, 5) :]
    return Position(tiles, equations, tuple(final))


SEEDS = range(200)


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    """The seeded random positions the exactness test runs on."""
    return [random_position(seed) for seed in SEEDS]


@pytest.fixture(scope="module")
def brute_forced(positions: list[Position]) -> list[set[Move]]:
    """Every legal move of each position, by the brute force (once for both engines)."""
    return [brute_force(position) for position in positions]


def test_legal_moves_equal_the_brute_force_on_random_positions(
    positions: list[Position], brute_forced: list[set[Move]], summy_engine: str
) -> None:
    for seed, position, truth in zip(SEEDS, positions, brute_forced, strict=True):
        listed = list(legal_moves(position))
        assert len(listed) == len(set(listed)), f"seed {seed}: a move is listed twice"
        assert set(listed) == truth, f"seed {seed} ({summy_engine})"
        assert legal_moves(position).count() == len(listed)


def test_random_positions_cover_the_hard_cases(positions: list[Position]) -> None:
    """The exactness test sees crossings, parallel lines, sealed cells, repeats, no move."""

    def crossings(p: Position) -> bool:
        horizontal = {c for e in p.equations if e.dir == "H" for c in e.cells()}
        return any(c in horizontal for e in p.equations if e.dir == "V" for c in e.cells())

    def parallels(p: Position) -> bool:
        covered = {(c, e.dir) for e in p.equations for c in e.cells()}
        return any(
            ((r + 1, c) if e.dir == "H" else (r, c + 1), e.dir) in covered
            for e in p.equations
            for r, c in e.cells()
        )

    def sealed_next_to_a_line_with_moves(p: Position) -> bool:
        return any(
            (r + dr, c + dc) in p.tiles or (r - dr, c - dc) in p.tiles
            for r, c in p.sealed()
            for dr, dc in ((0, 1), (1, 0))
        )

    assert sum(crossings(p) for p in positions) >= 50
    assert sum(parallels(p) for p in positions) >= 20
    assert sum(sealed_next_to_a_line_with_moves(p) for p in positions) >= 100
    assert sum(len(set(p.hand)) < len(p.hand) for p in positions) >= 50
    assert sum(not legal_moves(p) for p in positions) >= 30
    assert sum(legal_moves(p).count() >= 5 for p in positions) >= 30
    assert max(legal_moves(p).count() for p in positions) >= 40


def test_best_moves_are_the_top_of_the_sorted_list(
    positions: list[Position], summy_engine: str
) -> None:
    for seed, position in zip(SEEDS, positions, strict=True):
        ranked = sorted(legal_moves(position), key=lambda m: -m.score)
        for n in (1, 3, 10):
            assert best_moves(position, n) == ranked[:n], f"seed {seed}, n={n}"
