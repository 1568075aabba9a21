"""``resample_hidden`` redraws everything a seat cannot see, and nothing it can.

The leak tests trust it: a view that does not change when the hidden part of
the state is redrawn cannot hold that hidden part. So it must redraw all of
it: face-down values, others' pending picks and, in a match to 100, the deals
still to come.
"""

from __future__ import annotations

import random
from collections import Counter

from slide_helpers import act, fresh, last_round

from meeple.games.slide import GAME, Take
from meeple.games.slide.hidden import resample_hidden, unseen_cards

TRIES = 30


def test_face_down_values_and_other_picks_are_redrawn_own_pick_kept() -> None:
    state = act(fresh(3, seed=8), (0, "reveal 1,2"), (1, "reveal 3,0"))
    rng = random.Random(1)
    values: dict[tuple[int, int], set[int]] = {}
    other_picks: set[int] = set()
    for _ in range(TRIES):
        other = resample_hidden(state, 0, rng)
        assert other.picks[0] == state.picks[0]  # seat 0 knows where it picked
        assert other.picks[2] == state.picks[2]  # seat 2 has not picked: nothing to move
        other_picks.add(other.picks[1])
        for owner, cells in enumerate(other.grids):
            for index, card in enumerate(cells):
                values.setdefault((owner, index), set()).add(card)
    assert len(other_picks) > 1
    assert all(len(seen) > 1 for seen in values.values())


def test_redrawn_values_come_from_the_unseen_cards() -> None:
    state = act(fresh(2, seed=8), (0, "reveal 1,2"), (1, "reveal 3,0"))
    state = act(state, (state.first, f"take {state.pool[0]} right"))
    unseen = Counter(unseen_cards(state))
    for _ in range(TRIES):
        other = resample_hidden(state, None, random.Random(_))
        down = Counter(-card for cells in other.grids for card in cells if card < 0)
        assert not down - unseen
        face_up = [[c if c >= 0 else None for c in cells] for cells in other.grids]
        assert face_up == [[c if c >= 0 else None for c in cells] for cells in state.grids]
        assert other.pool == state.pool


def test_a_resampled_match_does_not_know_the_next_deal() -> None:
    """The next deal is dealt from cards nobody has seen: it must be redrawn too."""
    final = "1 2 3 _  4 5 6 7  8 9 10 1  2 3 4 5"
    state = last_round([final, final], [9, 9], options={"match_to_100": True})
    state = act(state, (0, "take 9 left"))
    dealt = GAME.apply(state, 1, Take(9, "left"))[0]
    assert dealt.deal == 2
    rng = random.Random(2)
    next_deals = {
        GAME.apply(resample_hidden(state, seat, rng), 1, Take(9, "left"))[0].grids
        for seat in (0, 1, None)
        for _ in range(3)
    }
    assert dealt.grids not in next_deals
    assert len(next_deals) == 9
