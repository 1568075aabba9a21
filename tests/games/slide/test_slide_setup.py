"""Setup: options, the seeded deal and the first player."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from slide_helpers import act, fresh, last_round

from meeple.games.base import BadOptions
from meeple.games.slide import GAME, Take
from meeple.games.slide.state import NO_SEAT, deal_grids, parse_options


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_default_options_are_accepted(players: int) -> None:
    options = GAME.default_options(players)
    assert options == {"players": players, "lowest_reveal_starts": False, "match_to_100": False}
    assert len(GAME.setup(options, 1).grids) == players


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "'players' must be an integer"),
        ({"players": 1}, "Slide is for 2 to 6 players, not 1"),
        ({"players": 7}, "Slide is for 2 to 6 players, not 7"),
        ({"players": "4"}, "'players' must be an integer"),
        ({"players": True}, "'players' must be an integer"),
        ({"players": 4, "match_to_100": 1}, "'match_to_100' must be true or false"),
        ({"players": 4, "lowest_reveal_starts": "yes"}, "'lowest_reveal_starts' must be true"),
        ({"players": 4, "jokers": True}, "unknown option 'jokers'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        GAME.setup(options, 1)


def test_variant_flags_default_to_off() -> None:
    assert parse_options({"players": 3}) == parse_options(GAME.default_options(3))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_each_grid_is_sixteen_face_down_cards_from_the_hundred(players: int) -> None:
    state = fresh(players, seed=11)
    dealt = Counter(-card for grid in state.grids for card in grid)
    assert all(card < 0 for grid in state.grids for card in grid)
    assert sum(dealt.values()) == 16 * players
    assert set(dealt) <= set(range(1, 11))
    assert max(dealt.values()) <= 10


def test_deal_is_the_shuffled_deck_from_the_seeded_generator() -> None:
    rng = random.Random(5)
    deck = [v for v in range(1, 11) for _ in range(10)]
    rng.shuffle(deck)
    state = fresh(3, seed=5)
    assert [-c for c in state.grids[1]] == deck[16:32]
    assert state.first == rng.randrange(3)


def test_same_seed_same_game_other_seed_other_deal() -> None:
    assert fresh(4, seed=9) == fresh(4, seed=9)
    assert fresh(4, seed=9).grids != fresh(4, seed=10).grids


def test_first_player_is_drawn_by_the_seeded_generator() -> None:
    firsts = {fresh(4, seed=seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_later_deals_use_derived_seeds() -> None:
    options = parse_options({"players": 2, "match_to_100": True})
    rng = random.Random("8:2")
    deck = [-v for v in range(1, 11) for _ in range(10)]
    rng.shuffle(deck)
    grids, first = deal_grids(options, 8, 2)
    assert grids[0] == tuple(deck[:16]) and first == rng.randrange(2)


def _lowest_start(values: list[int]) -> int:
    """Seat given the token when seats reveal ``values`` (one cell each, all at (0,0))."""
    state = fresh(len(values), seed=3, lowest_reveal_starts=True)
    grids = tuple((-v, *grid[1:]) for v, grid in zip(values, state.grids, strict=True))
    state = state._replace(grids=grids)
    assert state.first == NO_SEAT and GAME.view(state, 0)["first_player"] is None
    state = act(state, *[(seat, "reveal 0,0") for seat in range(len(values))])
    assert state.phase == "draft" and state.turn == state.first
    return state.first


@pytest.mark.parametrize(
    ("revealed", "first"),
    [
        ([5, 2, 9], 1),
        ([1, 4, 1], 0),  # tie on the lowest: the earliest seat
        ([8, 3, 3, 7], 1),
        ([10, 10], 0),
        ([6, 6, 6, 6, 6, 2], 5),
    ],
)
def test_lowest_reveal_starts_gives_the_token_to_the_lowest_card(
    revealed: list[int], first: int
) -> None:
    assert _lowest_start(revealed) == first


def test_lowest_reveal_starts_only_in_round_one() -> None:
    state = fresh(2, seed=3, lowest_reveal_starts=True)
    state = act(state, (0, "reveal 0,0"), (1, "reveal 0,0"))
    first = state.first
    for seat in (first, 1 - first):
        state = act(state, (seat, f"take {state.pool[0]} right"))
    assert state.round == 2 and state.first == 1 - first  # the token simply passes left


def test_lowest_reveal_starts_again_in_each_deal_of_a_match() -> None:
    final = "1 2 3 _  4 5 6 7  8 9 10 1  2 3 4 5"
    options = {"match_to_100": True, "lowest_reveal_starts": True}
    state = last_round([final, final], [9, 9], first=1, options=options)
    state = act(state, (1, "take 9 left"))
    state, events = GAME.apply(state, 0, Take(9, "left"))
    assert (state.deal, state.round, state.first) == (2, 1, NO_SEAT)
    assert events[-1] == {"type": "new_deal", "deal": 2, "first_player": None}
    assert GAME.view(state, None)["first_player"] is None
    grids = ((-7, *state.grids[0][1:]), (-4, *state.grids[1][1:]))
    state = act(state._replace(grids=grids), (0, "reveal 0,0"), (1, "reveal 0,0"))
    assert (state.first, state.turn, state.pool) == (1, 1, (4, 7))
