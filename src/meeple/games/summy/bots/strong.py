"""Summy ``strong``: the score now plus what the tiles kept are worth next turn.

Candidates: the ``CANDIDATES`` highest-scoring placements and, while the
stock lasts, discards that keep the most useful tiles
(:func:`~meeple.games.summy.bots.leave.keep_options`). Each is valued

    its score + the expected best score of the next turn,

the second term depending on how much the stock still holds:

- **a full refill ahead** (the stock holds a hand's worth): the learned
  hand model (:mod:`meeple.games.summy.bots.leave`) over the tiles kept topped up
  by ``REFILLS`` sampled refills, the same refills for every candidate;
- **the last draws** (a few tiles left): the best placement, searched on the
  table the candidate leaves, with the tiles kept plus ``LAST_DRAWS`` sampled
  refills (the model knows only full hands);
- **the stock empty**: the best placement with the tiles kept alone, so the
  last tiles are split into as many equations as pay best.

With the stock empty, the opponent's last turn idle and the lead in hand,
it passes, which ends the game as its win. The work is fixed (no clock in
the choice); the clock at 80% of the budget is only a safety stop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from meeple.games.base import JSON, Seat
from meeple.games.kit.bots import SeededBot, view_rng
from meeple.games.kit.clock import Deadline
from meeple.games.summy.bots.leave import draw_refills, keep_options, leave_value
from meeple.games.summy.bots.seen import (
    PASS_JSON,
    SummySeen,
    after_move,
    discard_json,
    kept_after,
    place_json,
    read_view,
    remove_tiles,
)
from meeple.games.summy.bots.tactics import should_pass_to_win, useful_discard
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.tiles import HAND_SIZE, Move, Position

CANDIDATES = 10
"""How many of the highest-scoring placements are weighed."""

REFILLS = 40
"""Sampled refills the hand model averages over (it costs microseconds each)."""

LAST_DRAWS = 4
"""Sampled refills for the last draws, each needing a best-move search."""
"""Sampled refills for the last draws, each needing a best-move search."""


@dataclass(frozen=True)
class Candidate:
    """A move to weigh: a placement (``move``) or a discard (``move`` is ``None``)."""

    move: Move | None
    kept: tuple[str, ...]

    @property
    def score(self) -> int:
        """The points the move scores now."""
        return self.move.score if self.move is not None else 0

    def action(self, hand: tuple[str, ...]) -> JSON:
        """The candidate as an action JSON, for the player holding ``hand``."""
        if self.move is not None:
            return place_json(self.move)
        return discard_json(remove_tiles(hand, self.kept))


class StrongSummyBot(SeededBot):
    """Strong: the score now plus the expected next turn of the tiles kept."""

    game = "summy"
    level = "strong"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """The candidate with the best value; a pass when there is none."""
        deadline = Deadline(budget_s)
        seen = read_view(view, seat)
        if should_pass_to_win(seen):
            return PASS_JSON
        ranked = rank_candidates(seen, view_rng(self.seed, view, seat), deadline)
        if not ranked:
            return PASS_JSON
        return ranked[0][1].action(seen.hand)


def candidates(seen: SummySeen) -> list[Candidate]:
    """The placements worth weighing, highest score first, then the discards."""
    found = [Candidate(m, kept_after(seen.hand, m)) for m in best_moves(seen.position, CANDIDATES)]
    # The hand model knows mid-game tables: at the opening (only the start '=' on
    # the table) a placement is always played rather than thrown for a better hand.
    opening = len(seen.position.tiles) == 1
    if seen.stock >= HAND_SIZE and (not opening or not found):
        found += [Candidate(None, kept) for kept in keep_options(seen.hand)]
    elif seen.stock > 0 and not found and seen.hand:
        found.append(Candidate(None, remove_tiles(seen.hand, useful_discard(seen.hand))))
    return found


def next_turn_estimate(seen: SummySeen, rng: random.Random) -> Callable[[Candidate], float]:
    """How a candidate's next turn is estimated at this point of the game."""
    if seen.stock >= HAND_SIZE:
        refills = draw_refills(seen.unseen(), REFILLS, rng)
        return lambda candidate: leave_value(candidate.kept, refills)
    stocks = [] if seen.stock == 0 else draw_refills(seen.unseen(), LAST_DRAWS, rng)

    def searched(candidate: Candidate) -> float:
        position = seen.position
        if candidate.move is not None:
            position = after_move(position, candidate.move, ())
        draws = [refill[: seen.stock] for refill in stocks] or [[]]
        total = 0
        for drawn in draws:
            need = min(HAND_SIZE - len(candidate.kept), len(drawn))
            hand = (*candidate.kept, *drawn[:need])
            best = best_moves(Position(position.tiles, position.equations, hand), 1)
            total += best[0].score if best else 0
        return total / len(draws)

    return searched


def rank_candidates(
    seen: SummySeen, rng: random.Random, deadline: Deadline
) -> list[tuple[float, Candidate]]:
    """Every candidate with its value, best first (ties: highest score first).

    The clock (``deadline``) stops the weighing early only on a machine too
    loaded for the fixed work; the candidates not weighed by then are left out.
    """
    estimate = next_turn_estimate(seen, rng)
    weighed: list[tuple[float, int, Candidate]] = []
    for order, candidate in enumerate(candidates(seen)):
        if weighed and deadline.expired():
            break
        weighed.append((candidate.score + estimate(candidate), -order, candidate))
    weighed.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
    return [(value, candidate) for value, _, candidate in weighed]
