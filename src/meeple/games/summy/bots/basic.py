"""Summy bots that look no further than now: ``random`` and ``greedy``."""

from __future__ import annotations

from collections.abc import Mapping

from meeple.games.base import JSON, Seat
from meeple.games.kit.bots import SeededBot, view_rng
from meeple.games.summy.bots.seen import PASS_JSON, discard_json, place_json, read_view
from meeple.games.summy.movegen import best_moves, legal_moves


class RandomSummyBot(SeededBot):
    """Beginner: a uniformly random legal placement; with none, a random discard
    (or a pass once the stock is empty)."""

    game = "summy"
    level = "random"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """A random placement, else a random non-empty discard, else a pass."""
        seen = read_view(view, seat)
        rng = view_rng(self.seed, view, seat)
        moves = list(legal_moves(seen.position))
        if moves:
            return place_json(rng.choice(moves))
        if seen.stock == 0 or not seen.hand:
            return PASS_JSON
        return discard_json(rng.sample(list(seen.hand), rng.randint(1, len(seen.hand))))


class GreedySummyBot(SeededBot):
    """Casual: the highest-scoring placement now (ties: the move generator's
    order); with none, it discards its whole hand to draw afresh (or passes
    once the stock is empty)."""

    game = "summy"
    level = "greedy"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """The best-scoring placement, else a whole-hand discard, else a pass."""
        seen = read_view(view, seat)
        best = best_moves(seen.position, 1)
        if best:
            return place_json(best[0])
        if seen.stock == 0 or not seen.hand:
            return PASS_JSON
        return discard_json(seen.hand)
