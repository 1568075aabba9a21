"""Slide bots that look no further than now: ``random`` and ``greedy``."""

from __future__ import annotations

from collections.abc import Mapping

from meeple.games.base import JSON, Seat
from meeple.games.kit.bots import SeededBot, view_rng
from meeple.games.slide.bots.evaluate import best_take, mean_unseen, visible_score
from meeple.games.slide.bots.seen import (
    NoActionError,
    legal_action_jsons,
    legal_reveals,
    read_view,
    reveal_json,
    take_json,
)
from meeple.games.slide.grid import Grid


class RandomSlideBot(SeededBot):
    """Beginner: any legal action, uniformly at random."""

    game = "slide"
    level = "random"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """A uniformly random legal action."""
        actions = legal_action_jsons(read_view(view, seat))
        if not actions:
            raise NoActionError(f"seat {seat} has nothing to do in this Slide view")
        return view_rng(self.seed, view, seat).choice(actions)


class GreedySlideBot(SeededBot):
    """Casual: reveals at random, then takes the card and entry that lower the
    grid's visible score most now (cancellations counted, face-down cards at
    the mean of the unseen cards)."""

    game = "slide"
    level = "greedy"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """A random reveal, or the take with the lowest visible score."""
        seen = read_view(view, seat)
        reveals = legal_reveals(seen)
        if reveals:
            return reveal_json(view_rng(self.seed, view, seat).choice(reveals))
        if seen.phase != "draft" or seen.turn != seat:
            raise NoActionError(f"seat {seat} has nothing to do in this Slide view")
        hidden = mean_unseen(seen.unseen())

        def score(grid: Grid) -> float:
            return visible_score(grid, hidden)

        _, value, side = best_take(seen.grid, seen.pool, score)
        return take_json(value, side)
