"""Summy ``strong``: score now, plus the tiles kept, minus what the move opens.

The best few placements by score are re-ranked by
``score + leave_value(kept) - OPENING_WEIGHT * reply``, where ``reply`` is the
mean best score the opponent could make on the new table with a hand drawn
from the tiles the bot has not seen (four sampled hands): a move that
leaves high digits within reach pays for it (weighed highest score first; the
clock, at 80% of the budget, is only a safety stop). Solo, there is nobody to open
for, so only the score and the tiles kept count. With no placement it throws
out the tiles that are hard to use (:func:`useful_discard`).
"""

from __future__ import annotations

import random

from meeple.bots.base import Deadline, SeededBot, view_rng
from meeple.bots.summy_tactics import leave_value, should_pass_to_win, useful_discard
from meeple.bots.summy_view import (
    PASS_JSON,
    SummySeen,
    after_move,
    discard_json,
    kept_after,
    place_json,
    read_view,
)
from meeple.games.base import JSON, Seat
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.tiles import Move

CANDIDATES = 10
"""How many of the highest-scoring placements are weighed."""

OPPONENT_HANDS = 4
"""How many sampled opponent hands each candidate's opening is measured with."""

OPENING_WEIGHT = 1.0


class StrongSummyBot(SeededBot):
    """Strong: a one-move look at the opponent's best reply and the tiles kept."""

    game = "summy"
    level = "strong"

    def choose(self, view: dict[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """The placement with the best weighed value; else a discard or a pass."""
        deadline = Deadline(budget_s)
        seen = read_view(view, seat)
        if should_pass_to_win(seen):
            return PASS_JSON
        moves = best_moves(seen.position, CANDIDATES)
        if moves:
            hands = sample_hands(seen, view_rng(self.seed, view, seat))
            best, best_value = moves[0], float("-inf")
            for move in moves:  # highest score first: the clock stops the least promising
                if deadline.expired():
                    break
                value = weigh(seen, move, hands)
                if value > best_value:
                    best, best_value = move, value
            return place_json(best)
        if seen.stock == 0 or not seen.hand:
            return PASS_JSON
        return discard_json(useful_discard(seen.hand))


def sample_hands(seen: SummySeen, rng: random.Random) -> list[tuple[str, ...]]:
    """A few hands the opponent may hold, drawn from the unseen tiles."""
    other = seen.opponent()
    if other is None:
        return []
    unseen = seen.unseen()
    size = min(seen.hand_sizes[other], len(unseen))
    return [tuple(sorted(rng.sample(unseen, size))) for _ in range(OPPONENT_HANDS)]


def weigh(seen: SummySeen, move: Move, hands: list[tuple[str, ...]]) -> float:
    """``score + leave - opening`` of ``move`` (no opening term solo)."""
    value = move.score + leave_value(kept_after(seen.hand, move))
    if hands:
        replies = []
        for hand in hands:
            best = best_moves(after_move(seen.position, move, hand), 1)
            replies.append(best[0].score if best else 0)
        value -= OPENING_WEIGHT * sum(replies) / len(replies)
    return value
