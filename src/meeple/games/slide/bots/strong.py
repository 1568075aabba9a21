"""Slide ``strong``: weighs the reveal, future pairs and what it leaves the next player.

- Reveal: each face-down cell is tried as the hole against the same sampled
  pools of unseen cards; the cell whose hole lets the best card land best,
  on average, is revealed (an interior hole offers four entries, a corner
  two, and where the new card lands decides which pairs it can make).
- Take: the new grid is scored by :func:`pairing_score` (cancellations now,
  plus the chance that a face-up card pairs later given the unseen cards),
  and the best the next taker can do with what is left in the pool is
  counted against the move (fully with two players, where the second taker
  gets the last card; in part with more).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TypeVar

from meeple.games.base import JSON, Seat
from meeple.games.kit.bots import SeededBot, view_rng
from meeple.games.slide.bots.evaluate import (
    best_take,
    mean_unseen,
    pairing_chances,
    pairing_score,
    visible_score,
)
from meeple.games.slide.bots.seen import SlideSeen, read_view, reveal_or_take
from meeple.games.slide.grid import HOLE, Grid, Side, slide_in
from meeple.games.slide.grid import with_hole as grid_with_hole

T = TypeVar("T")

REVEAL_SAMPLES = 12
"""How many sampled pools each candidate hole is tried against."""


class StrongSlideBot(SeededBot):
    """Strong: a one-step look at the reveal, the take and the next taker's reply."""

    game = "slide"
    level = "strong"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """The reveal or take that scores best by this bot's estimate."""
        seen = read_view(view, seat)
        return reveal_or_take(
            seen,
            lambda cells: choose_reveal(seen, cells, view_rng(self.seed, view, seat)),
            lambda takes: choose_take(seen, takes),
        )


def choose_reveal(seen: SlideSeen, cells: Sequence[int], rng: random.Random) -> int:
    """The face-down cell to reveal: the best average landing over sampled pools."""
    return lowest(cells, reveal_scores(seen, cells, rng))


def choose_take(seen: SlideSeen, takes: Sequence[tuple[int, Side]]) -> tuple[int, Side]:
    """The take with the best own score plus the harm left to the next taker."""
    return lowest(takes, take_scores(seen, takes))


def lowest(choices: Sequence[T], scores: Sequence[float]) -> T:
    """The choice with the lowest score (the first of equals)."""
    best = 0
    for index, score in enumerate(scores):
        if score < scores[best] - 1e-9:
            best = index
    return choices[best]


def reveal_scores(seen: SlideSeen, cells: Sequence[int], rng: random.Random) -> list[float]:
    """Per candidate hole, the mean score of the best take over sampled pools."""
    counts = seen.unseen()
    unseen = [v for v, c in enumerate(counts) for _ in range(c)]
    hidden = mean_unseen(counts)
    chances = pairing_chances(counts, seen.players)
    ahead = seen.draft_position()
    pools = []
    for _ in range(REVEAL_SAMPLES):
        pool = sorted(rng.sample(unseen, min(seen.players, len(unseen))))
        # the players ahead in the draft take cards first: assume the lowest
        pools.append(pool[ahead:] or pool[-1:])

    def score(grid: Grid) -> float:
        return pairing_score(grid, hidden, chances)

    return [
        sum(best_take(grid_with_hole(seen.grid, cell), pool, score)[0] for pool in pools)
        / len(pools)
        for cell in cells
    ]


def take_scores(seen: SlideSeen, takes: Sequence[tuple[int, Side]]) -> list[float]:
    """Per take, the new grid's score minus what the next taker can gain from the rest."""
    counts = seen.unseen()
    hidden = mean_unseen(counts)
    chances = pairing_chances(counts, seen.players)
    after = seen.takers_after_me()
    next_grid = seen.grids[after[0]] if after else None
    weight = 1.0 if seen.players == 2 else 1.0 / (seen.players - 1)
    scores = []
    for value, side in takes:
        score = pairing_score(slide_in(seen.grid, value, side), hidden, chances)
        if next_grid is not None and HOLE in next_grid:
            rest = list(seen.pool)
            rest.remove(value)
            if rest:
                before = visible_score(next_grid, hidden)
                reply = best_take(next_grid, rest, lambda g: visible_score(g, hidden))[0]
                score -= weight * (reply - before)
        scores.append(score)
    return scores
