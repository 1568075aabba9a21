"""How good a Slide grid looks to a bot: scores that count cancellations.

Grids use the engine's encoding (:mod:`meeple.games.slide.grid`): a face-up
card is its value, the hole is 0 and a face-down card is negative (a bot that
does not know its value stores -1; a simulation knows it).

Every face-down card of a grid is revealed in a later round and replaced by a
card the player takes, so a face-down cell counts as the value of a future
card (``hidden_value``), never as its own.

>>> visible_score((5, 5, 2, -1) + (1, 2, 3, 4) * 3, hidden_value=5.5)
7.5
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from meeple.games.slide.grid import COPIES, ENTRIES, HOLE, SIZE, VALUES, Grid, Side, slide_in

ScoreFn: TypeAlias = Callable[[Grid], float]
"""A grid evaluation: lower is better, like Slide's scores."""

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        r * SIZE + c
        for r, c in (
            (i // SIZE - 1, i % SIZE),
            (i // SIZE + 1, i % SIZE),
            (i // SIZE, i % SIZE - 1),
            (i // SIZE, i % SIZE + 1),
        )
        if 0 <= r < SIZE and 0 <= c < SIZE
    )
    for i in range(SIZE * SIZE)
)
"""``NEIGHBOURS[i]``: the indexes orthogonally next to cell ``i``."""


def unseen_counts(seen: Sequence[int]) -> list[int]:
    """How many cards of each value (index 1..10) nobody has seen yet.

    ``seen`` lists every face-up value in view (grids and pool).
    """
    counts = [0] + [COPIES] * len(VALUES)
    for value in seen:
        counts[value] -= 1
    return [max(0, c) for c in counts]


def mean_unseen(counts: Sequence[int]) -> float:
    """The expected value of an unseen card (5.5 when nothing is seen)."""
    total = sum(counts)
    return sum(v * c for v, c in enumerate(counts)) / total if total else 5.5


def visible_score(grid: Grid, hidden_value: float) -> float:
    """The points the grid would count now: face-up cards that no face-up
    neighbour of the same value cancels, plus ``hidden_value`` per face-down card."""
    total = 0.0
    for i, card in enumerate(grid):
        if card > 0:
            for j in NEIGHBOURS[i]:
                if grid[j] == card:
                    break
            else:
                total += card
        elif card < 0:
            total += hidden_value
    return total


def pairing_score(grid: Grid, hidden_value: float, chances: Sequence[float]) -> float:
    """``visible_score`` refined by the chance of pairing later.

    A face-up card with no partner yet, next to ``k`` face-down cells (each
    one a future card of the owner's choosing), is counted as
    ``value * (1 - chances[value]) ** k``: the more cards of its value remain
    unseen, the likelier a later card cancels it.
    """
    total = 0.0
    for i, card in enumerate(grid):
        if card > 0:
            hidden_next = 0
            for j in NEIGHBOURS[i]:
                other = grid[j]
                if other == card:
                    break
                if other < 0:
                    hidden_next += 1
            else:
                total += card * (1.0 - chances[card]) ** hidden_next
        elif card < 0:
            total += hidden_value
    return total


def pairing_chances(counts: Sequence[int], pool_size: int) -> list[float]:
    """Per value, a rough chance that a later pool offers a card to pair with it."""
    total = sum(counts) or 1
    return [min(0.9, pool_size * c / total) for c in counts]


def best_take(grid: Grid, pool: Sequence[int], score_of: ScoreFn) -> tuple[float, int, Side]:
    """The take (value, side) that gives the lowest ``score_of(new grid)``.

    Ties go to the lowest value, then the first side in ``SIDES`` order.
    """
    sides = ENTRIES[grid.index(HOLE)]
    best: tuple[float, int, Side] | None = None
    for value in sorted(set(pool)):
        for side in sides:
            score = score_of(slide_in(grid, value, side))
            if best is None or score < best[0]:
                best = (score, value, side)
    if best is None:
        raise ValueError("the pool is empty")
    return best
