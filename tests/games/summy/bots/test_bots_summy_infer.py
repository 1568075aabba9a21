"""The Summy expert's guesses at the tiles its opponent kept, on real games."""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from pathlib import Path

from meeple.games.summy import GAME
from meeple.games.summy.bots.infer import draw_with_kept, kept_guesses, kept_weight, last_placement
from meeple.games.summy.bots.seen import read_view

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bots"))
from bots_helpers import greedy_states

SEEDS = (3, 11, 29)


def after_placements() -> list[tuple[object, object, int]]:
    """(state before, state after, seat to move next) for every placement of greedy games
    that leaves the other seat to move."""
    found = []
    for seed in SEEDS:
        states = greedy_states("summy", seed, 2)
        for before, after in itertools.pairwise(states):
            last = after.last
            if last is not None and last.kind == "place" and after.result is None:
                found.append((before, after, after.turn))
    return found


def test_the_table_before_the_opponents_placement_is_rebuilt_from_the_view() -> None:
    cases = after_placements()
    assert len(cases) > 20
    for before, after, seat in cases:
        seen = read_view(GAME.view(after, seat), seat)
        last = last_placement(GAME.view(after, seat), seen)
        assert last is not None
        assert last.before.tiles == dict(before.table)
        assert sorted(last.before.equations, key=repr) == sorted(before.equations, key=repr)
        mover = 1 - seat
        placed = Counter(last.placed)
        kept = Counter(before.hands[mover]) - placed
        assert sum(placed.values()) + last.kept == len(before.hands[mover])
        assert last.kept == sum(kept.values())
        assert last.score == after.last.move.score


def test_the_tiles_truly_kept_explain_a_greedy_placement_fully() -> None:
    # greedy places its best-scoring move: no placement with its real hand scored more
    for before, after, seat in after_placements():
        seen = read_view(GAME.view(after, seat), seat)
        last = last_placement(GAME.view(after, seat), seen)
        assert last is not None
        truly_kept = Counter(before.hands[1 - seat]) - Counter(last.placed)
        assert kept_weight(last, tuple(sorted(truly_kept.elements()))) == 1.0


def test_a_kept_hand_that_offered_much_more_weighs_little() -> None:
    seen_weights = []
    for _before, after, seat in after_placements()[:12]:
        view = GAME.view(after, seat)
        seen = read_view(view, seat)
        last = last_placement(view, seen)
        assert last is not None
        guesses = kept_guesses(seen, last, random.Random(5), proposals=16)
        unseen = Counter(seen.unseen())
        for kept, weight in guesses:
            assert len(kept) == last.kept
            assert not Counter(kept) - unseen  # only tiles the bot has not seen
            assert 0.0 < weight <= 1.0
        seen_weights.extend(weight for _, weight in guesses)
    # the weights tell guesses apart: some explain the move, some hardly
    assert max(seen_weights) == 1.0
    assert min(seen_weights) < 0.05


def test_a_drawn_hand_holds_a_guess_and_the_rest_is_the_stock() -> None:
    rng = random.Random(8)
    for _before, after, seat in after_placements()[:12]:
        view = GAME.view(after, seat)
        seen = read_view(view, seat)
        last = last_placement(view, seen)
        assert last is not None
        guesses = kept_guesses(seen, last, rng, proposals=6)
        hand, stock = draw_with_kept(seen, guesses, rng)
        assert len(hand) == seen.hand_sizes[1 - seat]
        assert Counter(hand) + Counter(stock) == Counter(seen.unseen())
        assert any(not Counter(kept) - Counter(hand) for kept, _ in guesses)


def test_no_placement_to_read_after_a_discard_or_the_bots_own_move() -> None:
    for seed in SEEDS:
        for state in greedy_states("summy", seed, 2)[1:]:
            if state.result is not None or state.last is None:
                continue
            if state.last.kind == "place":
                own = state.last.seat  # the seat that just placed reads no opponent placement
                view = GAME.view(state, own)
                assert last_placement(view, read_view(view, own)) is None
            else:
                view = GAME.view(state, state.turn)
                assert last_placement(view, read_view(view, state.turn)) is None
