"""Slide ``expert``: determinized Monte Carlo search over the unseen cards.

The candidate actions are first ranked by the ``strong`` estimates; the best
few then compete in successive halving: each round plays every survivor out
on the same sampled deals (face-down values drawn from the unseen cards,
other seats' pending picks drawn among their face-down cells, the rest of
the deal played with random reveals and greedy takes), and the worse half is
dropped. A play-out's outcome is the viewer's points minus the best other
seat's, so the search aims at winning, not only at a low score.

The work per move is fixed by the budget (play-outs are counted, not timed),
so a choice depends only on the seed, the view and the budget; the clock is
only a safety stop at 80% of the budget on a badly overloaded machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from meeple.games.base import JSON, Seat
from meeple.games.kit.bots import SeededBot, view_rng
from meeple.games.kit.clock import Deadline
from meeple.games.kit.search import best_by_halving
from meeple.games.slide.bots.playout_engine import engine
from meeple.games.slide.bots.seen import SlideSeen, read_view, reveal_or_take
from meeple.games.slide.bots.sim import World, determinize, pick, play_out, take
from meeple.games.slide.bots.strong import reveal_scores, take_scores
from meeple.games.slide.grid import Side

T = TypeVar("T")

TAKES_PER_SECOND = {"python": 25_000, "compiled": 1_000_000}
"""Play-out takes this bot plans per second of budget, per play-out engine
(:mod:`meeple.games.slide.bots.playout_engine`): about half of what one core of the
development machine does, leaving room for a loaded machine."""

PLAYOUT_OVERHEAD = {"python": 12, "compiled": 60}
"""What drawing a deal, copying it and scoring it cost, counted in play-out takes
(with the compiled play-out, drawing the deal in Python costs more than the
play-out itself)."""

SHORTLIST = 8
"""How many of the strong-ranked candidates enter the search."""


class ExpertSlideBot(SeededBot):
    """Expert: determinized Monte Carlo with successive halving."""

    game = "slide"
    level = "expert"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """The candidate with the best mean play-out margin."""
        deadline = Deadline(budget_s)
        seen = read_view(view, seat)
        rng = view_rng(self.seed, view, seat)

        def choose_reveal(reveals: list[int]) -> int:
            cells = shortlist(reveals, reveal_scores(seen, reveals, rng))
            return search(seen, cells, lambda w, c: pick(w, seat, c), budget_s, deadline, rng)

        def choose_take(takes: list[tuple[int, Side]]) -> tuple[int, Side]:
            candidates = shortlist(takes, take_scores(seen, takes))
            return search(
                seen, candidates, lambda w, t: take(w, t[0], t[1]), budget_s, deadline, rng
            )

        return reveal_or_take(seen, choose_reveal, choose_take)


def shortlist(choices: Sequence[T], scores: Sequence[float]) -> list[T]:
    """The ``SHORTLIST`` best-scored choices, best first (stable for equal scores)."""
    order = sorted(range(len(choices)), key=lambda i: scores[i])
    return [choices[i] for i in order[:SHORTLIST]]


def search(
    seen: SlideSeen,
    candidates: list[T],
    apply: Callable[[World, T], None],
    budget_s: float,
    deadline: Deadline,
    rng: random.Random,
) -> T:
    """Successive halving of ``candidates`` over shared determinized play-outs."""
    playouts = max(len(candidates), planned_playouts(seen, budget_s))
    deals: list[tuple[World, int]] = []

    def evaluate(index: int, sample: int) -> float:
        while len(deals) <= sample:
            deal_rng = random.Random(rng.getrandbits(48))
            deals.append((determinize(seen, deal_rng), deal_rng.getrandbits(64)))
        world, seed = deals[sample]
        return -playout_margin(seen, candidates[index], apply, copy_world(world), seed)

    return candidates[best_by_halving(len(candidates), evaluate, playouts, deadline)]


def planned_playouts(seen: SlideSeen, budget_s: float) -> int:
    """How many play-outs fit ``budget_s`` from this point of the deal, with the engine in use."""
    rounds_left = seen.rounds - seen.round + 1
    name = engine()
    takes_per_playout = rounds_left * seen.players + PLAYOUT_OVERHEAD[name]
    return int(budget_s * TAKES_PER_SECOND[name] / takes_per_playout)


def copy_world(world: World) -> World:
    """A copy of a determinized deal that a play-out may use up (grids are tuples)."""
    return replace(
        world,
        grids=list(world.grids),
        pool=list(world.pool),
        to_take=list(world.to_take),
        picks=list(world.picks),
    )


def playout_margin(
    seen: SlideSeen, candidate: T, apply: Callable[[World, T], None], world: World, seed: int
) -> float:
    """The viewer's points minus the best other seat's, after ``candidate`` on the deal
    ``world`` (used up), its reveals drawn from ``seed``."""
    apply(world, candidate)
    points = play_out(world, seed)
    mine = points[seen.seat]
    return mine - min(p for s, p in enumerate(points) if s != seen.seat)
