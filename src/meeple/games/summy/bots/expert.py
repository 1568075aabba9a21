"""Summy ``expert``: Monte Carlo over the tiles it has not seen, on top of ``strong``.

Candidates: the ``SHORTLIST`` moves the ``strong`` bot values best (score
plus the expected next turn of the tiles kept, discards included while the
stock lasts). Each sample deals the hidden tiles: the opponent's hand, then
the stock's order; after an opponent's placement, the tiles it kept are
drawn from guesses weighed by how well they explain that placement
(:mod:`meeple.games.summy.bots.infer`). A candidate's outcome on a sample is

    its score - REPLY_WEIGHT x the opponent's best reply + the bot's next turn,

the opponent replying on the table the candidate leaves, with the sampled
hand. While a full refill is ahead, the reply weighs ``REPLY_WEIGHT`` (fitted
on held-out games) and the bot's next turn is the ``strong`` estimate of the
tiles kept; near the end of the stock and after it, it is
searched (one turn deeper when few tiles are left): the best placement on
the table after the reply, with the tiles kept and the sample's refill (none
once the stock is empty, which is how the end of the game is played). Solo
there is no reply; while the stock lasts every tile placed or discarded
costs ``SOLO_TILE_COST`` points, as each one brings the end nearer, and the
next turn is always searched.

Successive halving (:mod:`meeple.games.kit.search`) shares the samples between
candidates. The number of evaluations is fixed by the budget, so the choice
depends only on the seed, the view and the budget; the clock is a safety
stop at 80% of the budget.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from meeple.games.base import JSON, Seat
from meeple.games.kit.bots import SeededBot, view_rng
from meeple.games.kit.clock import Deadline
from meeple.games.kit.search import best_by_halving
from meeple.games.summy.bots.endgame import DEPTH, line_value
from meeple.games.summy.bots.infer import PROPOSALS, draw_with_kept, kept_guesses, last_placement
from meeple.games.summy.bots.seen import (
    PASS_JSON,
    SummySeen,
    after_move,
    kept_after,
    place_json,
    read_view,
)
from meeple.games.summy.bots.strong import Candidate, rank_candidates
from meeple.games.summy.bots.tactics import should_pass_to_win
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.tiles import HAND_SIZE, Move, Position

SEARCHES_PER_SECOND = 320
"""Best-move searches planned per second of budget; an evaluation takes one
or two. With the compiled move generator a search takes 1-5 ms, so the plan
fills about half the budget on average and leaves room for a slow one."""

SHORTLIST = 6
"""How many of the ``strong`` bot's best candidates enter the Monte Carlo search."""

SOLO_SHORTLIST = 4
"""The same, solo, where every evaluation searches the bot's own next turn."""

SOLO_SEARCHES_PER_SECOND = 160
"""Solo, the searches planned per second of budget: each searches a full hand's
next turn (slower than a reply), which measured 532 ms mean and 780 ms p95 a
move at this rate (see docs/bots.md)."""

MARGIN = 6.0
"""Two players, while the stock lasts: only the candidates valued within this
many points of the best by ``strong`` are searched; a clear best is played
at once (the reply term moves a value by a few points, not more)."""

REPLY_WEIGHT = 0.75
"""How much the opponent's sampled best reply counts against a move, while a
full refill is ahead. Fitted on held-out strong-against-strong games
(``bench/summy_eval_study.py``): the final score difference regressed on a
move's score, its leave and the mean reply of 6 sampled hands gives the
reply -0.27; a 6-sample mean is a third signal (its reliability measured
0.36), so the expected reply, which the search estimates from many samples,
weighs about -0.75. A full -1 over-counts it: the opponent does not always
take its best-scoring reply, and it too keeps tiles for later."""

GUESS_SHARE = 0.075
"""The share of the planned searches spent guessing the tiles the opponent kept
(:mod:`meeple.games.summy.bots.infer`): 24 of 320 at 1 s, fewer at a shorter budget."""

ENDGAME_SAMPLES = 4
"""Opponent hands searched per second of budget once the stock is empty (when
the opponent's discards leave its hand uncertain)."""

DEEPER_END_TILES = 8
"""Once the stock is empty and both hands together hold at most this many
tiles, the end is searched one turn deeper (few tiles, few moves: affordable)."""

SOLO_TILE_COST = 2.0
"""Solo, while the stock lasts: the points a tile placed or discarded costs,
since every tile used brings the end of the game nearer (about the points a
tile brings in a game)."""


class ExpertSummyBot(SeededBot):
    """Expert: sampled opponent hands and refills, the reply and the next turn."""

    game = "summy"
    level = "expert"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """The candidate with the best mean outcome over the samples."""
        deadline = Deadline(budget_s)
        seen = read_view(view, seat)
        if should_pass_to_win(seen):
            return PASS_JSON
        rng = view_rng(self.seed, view, seat)
        ranked = rank_candidates(seen, rng, Deadline(budget_s, share=0.3))
        if not ranked:
            return PASS_JSON
        used = len(seen.hand)  # solo, the shortlist already counts what the tiles used cost
        ranked.sort(key=lambda entry: -(entry[0] - tile_cost(seen, used - len(entry[1].kept))))
        solo = seen.opponent() is None
        shortlist = ranked[: SOLO_SHORTLIST if solo else SHORTLIST]
        if seen.opponent() is not None and seen.stock > 0:
            shortlist = [entry for entry in shortlist if entry[0] >= ranked[0][0] - MARGIN]
        if len(shortlist) == 1:
            return shortlist[0][1].action(seen.hand)
        samples: list[tuple[tuple[str, ...], list[str]]] = []
        last = last_placement(view, seen) if seen.stock >= HAND_SIZE else None
        guesses = []
        if last is not None:
            proposals = min(PROPOSALS, int(budget_s * SEARCHES_PER_SECOND * GUESS_SHARE))
            guesses = kept_guesses(seen, last, rng, proposals, deadline)

        def evaluate(index: int, sample: int) -> float:
            while len(samples) <= sample:
                drawn = draw_with_kept(seen, guesses, rng) if guesses else draw_sample(seen, rng)
                samples.append(drawn)
            value, candidate = shortlist[index]
            return outcome(seen, candidate, value - candidate.score, *samples[sample])

        if seen.opponent() is not None and seen.stock == 0:
            return play_the_end(seen, shortlist, rng, budget_s, deadline)
        # two players: an evaluation takes one search (the reply) or two (and the next turn)
        rate = SOLO_SEARCHES_PER_SECOND if solo else SEARCHES_PER_SECOND / 2
        # the guesses at the opponent's kept tiles took one search each
        evaluations = max(len(shortlist), int(budget_s * rate) - len(guesses) // 2)
        best = best_by_halving(len(shortlist), evaluate, evaluations, deadline)
        return shortlist[best][1].action(seen.hand)


def play_the_end(
    seen: SummySeen,
    shortlist: list[tuple[float, Candidate]],
    rng: random.Random,
    budget_s: float,
    deadline: Deadline,
) -> JSON:
    """With the stock empty: the shortlist and the pass, searched to the end (negamax)."""
    moves = [candidate.move for _, candidate in shortlist if candidate.move is not None]
    options: list[Move | None] = [*moves, None]
    hands: list[tuple[str, ...]] = []
    exact = len(seen.unseen()) == seen.hand_sizes[1 - seen.seat]

    other = seen.opponent()
    tiles_left = len(seen.hand) + (seen.hand_sizes[other] if other is not None else 0)
    depth = DEPTH + 1 if tiles_left <= DEEPER_END_TILES else DEPTH

    def evaluate(index: int, sample: int) -> float:
        while len(hands) <= sample:
            hands.append(draw_sample(seen, rng)[0])
        return end_outcome(seen, options[index], hands[0 if exact else sample], depth)

    evaluations = len(options) * (1 if exact else max(1, int(budget_s * ENDGAME_SAMPLES)))
    best = options[best_by_halving(len(options), evaluate, evaluations, deadline)]
    return PASS_JSON if best is None else place_json(best)


def end_outcome(
    seen: SummySeen, move: Move | None, opponent_hand: tuple[str, ...], depth: int = DEPTH
) -> float:
    """Points of the bot minus the opponent's to the end (searched ``depth`` turns, this one
    included), after ``move`` or a pass."""
    if move is None:
        position = Position(seen.position.tiles, seen.position.equations, opponent_hand)
        return -line_value(position, seen.hand, seen.idle_turns + 1, depth - 1)
    after = after_move(seen.position, move, opponent_hand)
    return move.score - line_value(after, kept_after(seen.hand, move), 0, depth - 1)


def draw_sample(seen: SummySeen, rng: random.Random) -> tuple[tuple[str, ...], list[str]]:
    """One guess at the hidden tiles: the opponent's hand, then the stock's order."""
    unseen = seen.unseen()
    rng.shuffle(unseen)
    other = seen.opponent()
    size = 0 if other is None else min(seen.hand_sizes[other], len(unseen))
    return tuple(sorted(unseen[:size])), unseen[size:]


def outcome(
    seen: SummySeen,
    candidate: Candidate,
    next_estimate: float,
    opponent_hand: tuple[str, ...],
    stock: list[str],
) -> float:
    """The candidate's score, minus the opponent's best reply, plus the bot's next turn.

    ``next_estimate`` is the ``strong`` estimate of the next turn, used as it
    is while a full refill is ahead in a two-player game, where the reply
    weighs ``REPLY_WEIGHT``. What the table then offers a sampled hand of the
    bot's is not counted: it added no held-out prediction of the final
    difference (``bench/summy_eval_study.py``, docs/bots.md) and doubled the
    spread of a sample's outcome.
    """
    position = seen.position
    if candidate.move is not None:
        position = after_move(position, candidate.move, opponent_hand)
    else:
        position = Position(position.tiles, position.equations, opponent_hand)
    gained = candidate.score - tile_cost(seen, len(seen.hand) - len(candidate.kept))
    if seen.opponent() is not None:
        reply = best_moves(position, 1)
        if seen.stock >= HAND_SIZE:
            return gained - REPLY_WEIGHT * (reply[0].score if reply else 0) + next_estimate
        if reply:
            gained -= reply[0].score
            position = after_move(position, reply[0], ())
    refill = stock[: min(HAND_SIZE - len(candidate.kept), seen.stock)]
    mine = best_moves(Position(position.tiles, position.equations, (*candidate.kept, *refill)), 1)
    return gained + (mine[0].score if mine else 0)


def tile_cost(seen: SummySeen, tiles: int) -> float:
    """Solo, while the stock lasts: what using ``tiles`` tiles costs (0 otherwise)."""
    return SOLO_TILE_COST * tiles if seen.opponent() is None and seen.stock > 0 else 0.0
