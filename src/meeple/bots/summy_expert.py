"""Summy ``expert``: Monte Carlo over the tiles it has not seen.

Candidates: the placements the ``strong`` bot rates best (score, tiles kept,
the opponent's best reply for sampled hands) and, while the stock lasts, a
discard of the tiles that are hard to use (so a poor placement competes with
rebuilding the hand).
Each sample draws the opponent's hand and the bot's refill from the unseen
tiles; a candidate's outcome on it is

    its score - the opponent's best reply + the bot's best next placement,

the opponent replying on the table the candidate leaves and the bot then
playing with what it kept plus what it drew (nothing once the stock is
empty, which is how the end of the game is played). Solo there is no reply.
Successive halving (:mod:`meeple.bots.search`) shares the samples between
candidates. With the stock empty, the opponent's last turn idle and the lead
in hand, it passes, which ends the game as a win.

The number of evaluations is fixed by the budget, so the choice depends only
on the seed, the view and the budget; the clock is a safety stop at 80% of
the budget.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from meeple.bots.base import Deadline, SeededBot, view_rng
from meeple.bots.search import best_by_halving
from meeple.bots.summy_strong import sample_hands, weigh
from meeple.bots.summy_tactics import should_pass_to_win, useful_discard
from meeple.bots.summy_view import (
    PASS_JSON,
    SummySeen,
    after_move,
    discard_json,
    kept_after,
    place_json,
    read_view,
    remove_tiles,
)
from meeple.games.base import JSON, Seat
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.tiles import HAND_SIZE, Move, Position

SEARCHES_PER_SECOND = 40
"""Best-move searches planned per second of budget (from 1 ms to a few
hundred each on a loaded machine); an evaluation takes two (the reply and
the next turn), one solo."""

TOP_BY_SCORE = 8
"""How many of the highest-scoring placements are considered at all."""

SHORTLIST = 4

SOLO_TILE_COST = 2.0
"""Solo, while the stock lasts: the points a tile placed or discarded costs,
since every tile used brings the end of the game nearer (about the points a
tile brings in a game)."""
"""How many placements (by score plus leave) enter the Monte Carlo search."""


@dataclass(frozen=True)
class Candidate:
    """A move to try: a placement (``move``) or a discard (``discard``)."""

    move: Move | None
    discard: tuple[str, ...]
    kept: tuple[str, ...]

    def action(self) -> JSON:
        """The candidate as an action JSON."""
        return place_json(self.move) if self.move is not None else discard_json(self.discard)


class ExpertSummyBot(SeededBot):
    """Expert: sampled opponent hands and refills, two moves ahead."""

    game = "summy"
    level = "expert"

    def choose(self, view: dict[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """The candidate with the best mean outcome over the samples."""
        deadline = Deadline(budget_s)
        seen = read_view(view, seat)
        if should_pass_to_win(seen):
            return PASS_JSON
        rng = view_rng(self.seed, view, seat)
        candidates = candidate_moves(seen, rng, Deadline(budget_s, share=0.4))
        if not candidates:
            return PASS_JSON
        samples: list[tuple[tuple[str, ...], list[str]]] = []

        def evaluate(index: int, sample: int) -> float:
            while len(samples) <= sample:
                samples.append(draw_sample(seen, rng))
            return outcome(seen, candidates[index], *samples[sample])

        per_evaluation = 1 if seen.opponent() is None else 2
        evaluations = max(len(candidates), int(budget_s * SEARCHES_PER_SECOND / per_evaluation))
        best = best_by_halving(len(candidates), evaluate, evaluations, deadline)
        return candidates[best].action()


def candidate_moves(seen: SummySeen, rng: random.Random, deadline: Deadline) -> list[Candidate]:
    """The placements worth searching (best guess first), and a discard while it draws.

    The ``strong`` bot's weighing (score, tiles kept, the opponent's best reply
    for sampled hands) picks the ``SHORTLIST`` placements the search refines;
    on a loaded machine the weighing stops at ``deadline`` (the placements
    not weighed by then are left out).
    """
    moves = best_moves(seen.position, TOP_BY_SCORE)
    hands = sample_hands(seen, rng)
    weighed: list[tuple[float, int, Move]] = []
    for order, move in enumerate(moves):  # highest score first; the clock may stop it
        if weighed and deadline.expired():
            break
        weighed.append(
            (-weigh(seen, move, hands) + tile_cost(seen, len(move.placement.tiles)), order, move)
        )
    ranked = [move for _, _, move in sorted(weighed)[:SHORTLIST]]
    candidates = [Candidate(m, (), kept_after(seen.hand, m)) for m in ranked]
    if seen.stock > 0 and seen.hand:
        thrown = useful_discard(seen.hand)
        candidates.append(Candidate(None, thrown, remove_tiles(seen.hand, thrown)))
    return candidates


def draw_sample(seen: SummySeen, rng: random.Random) -> tuple[tuple[str, ...], list[str]]:
    """One guess at the hidden tiles: the opponent's hand, then the stock's order."""
    unseen = seen.unseen()
    rng.shuffle(unseen)
    other = seen.opponent()
    size = 0 if other is None else min(seen.hand_sizes[other], len(unseen))
    return tuple(sorted(unseen[:size])), unseen[size:]


def outcome(
    seen: SummySeen, candidate: Candidate, opponent_hand: tuple[str, ...], stock: list[str]
) -> float:
    """The candidate's score, minus the opponent's best reply, plus the bot's next best."""
    position = seen.position
    gained = 0.0
    if candidate.move is not None:
        gained = candidate.move.score
        position = after_move(position, candidate.move, opponent_hand)
    else:
        position = Position(position.tiles, position.equations, opponent_hand)
    gained -= tile_cost(seen, len(seen.hand) - len(candidate.kept))
    if seen.opponent() is not None:
        reply = best_moves(position, 1)
        if reply:
            gained -= reply[0].score
            position = after_move(position, reply[0], ())
    refill = stock[: min(HAND_SIZE - len(candidate.kept), seen.stock)]
    mine = best_moves(Position(position.tiles, position.equations, (*candidate.kept, *refill)), 1)
    return gained + (mine[0].score if mine else 0)


def tile_cost(seen: SummySeen, tiles: int) -> float:
    """Solo, while the stock lasts: what using ``tiles`` tiles costs (0 otherwise)."""
    return SOLO_TILE_COST * tiles if seen.opponent() is None and seen.stock > 0 else 0.0
