"""Views never leak: no face-down value, no card left in the box, no other seat's pick."""

from __future__ import annotations

import json
import random

import pytest
from slide_helpers import act, fresh, random_step

from meeple.games.base import Effect
from meeple.games.slide import GAME, State
from meeple.games.slide.hidden import resample_hidden, unseen_cards


def viewers(state: State) -> list[int | None]:
    """Every seat, and a spectator."""
    return [*range(len(state.grids)), None]


def test_view_keys_and_shape() -> None:
    state = act(fresh(3, seed=8), (1, "reveal 2,3"))
    view = GAME.view(state, 1)
    assert set(view) == {
        "game", "seat", "players", "options", "phase", "deal", "round", "rounds",
        "first_player", "turn", "to_act", "picked", "my_pick", "grids", "holes", "pool",
        "totals", "deal_scores", "last_deal", "result",
    }  # fmt: skip
    assert view["picked"] == [False, True, False]
    assert view["my_pick"] == [2, 3]
    assert view["to_act"] == [0, 2]
    assert view["grids"][0] == [[0] * 4] * 4  # all face down, values hidden
    assert view["holes"] == [None, None, None]
    json.dumps(view)


def test_a_pick_is_known_only_to_its_seat() -> None:
    a = act(fresh(3, seed=8), (1, "reveal 2,3"))
    b = act(fresh(3, seed=8), (1, "reveal 0,0"))
    for seat in (0, 2, None):
        assert GAME.view(a, seat) == GAME.view(b, seat)
    assert GAME.view(a, 1)["my_pick"] == [2, 3] and GAME.view(b, 1)["my_pick"] == [0, 0]
    assert GAME.view(a, None)["my_pick"] is None


def test_owner_does_not_see_its_face_down_values() -> None:
    state = fresh(2, seed=8)
    other = state._replace(grids=(tuple(-(1 + i % 10) for i in range(16)), state.grids[1]))
    assert other.grids[0] != state.grids[0]
    assert GAME.view(state, 0) == GAME.view(other, 0)


def test_draft_view_shows_face_up_cards_holes_and_pool() -> None:
    state = act(fresh(2, seed=8), (0, "reveal 1,2"), (1, "reveal 3,0"))
    view = GAME.view(state, 0)
    assert view["holes"] == [[1, 2], [3, 0]]
    assert view["grids"][0][1][2] is None and view["grids"][1][3][0] is None
    assert sorted(view["pool"]) == view["pool"] and len(view["pool"]) == 2
    assert view["turn"] == state.first and view["my_pick"] is None


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_never_leak_hidden_information(players: int) -> None:
    rng = random.Random(100 + players)
    state = fresh(players, seed=players, match_to_100=players == 3)
    resampled_differently = 0
    while True:
        for seat in viewers(state):
            view = GAME.view(state, seat)
            other = resample_hidden(state, seat, rng)
            resampled_differently += other._replace(seed=state.seed) != state
            assert GAME.view(other, seat) == view
            json.dumps(view)
            for row_index, row in enumerate(view["grids"][0]):
                for col, shown in enumerate(row):
                    card = state.grids[0][row_index * 4 + col]
                    assert shown == (None if card == 0 else max(card, 0))
            assert view["my_pick"] is None or (seat is not None and state.picks[seat] >= 0)
        cards_held = sum(1 for g in state.grids for c in g if c != 0) + len(state.pool)
        assert cards_held == 16 * players  # the box's cards are not even stored
        if GAME.result(state) is not None:
            break
        other = resample_hidden(state, None, rng)
        last_pick = len(GAME.to_act(state)) == 1 and state.phase == "reveal"
        before = state
        state, seat, action = random_step(state, rng)
        if not last_pick:  # only the last pick turns cards up, by the rules
            _state, events = GAME.apply(other, seat, action)
            assert public(events) == public(GAME.apply(before, seat, action)[1])
    assert resampled_differently > 0  # the check above had something to catch


def public(events: list[Effect]) -> list[Effect]:
    """Events without the first player of a new deal (drawn from cards nobody has seen)."""
    return [{k: v for k, v in e.items() if e["type"] != "new_deal" or k != "first_player"}
            for e in events]  # fmt: skip


def test_events_before_the_last_pick_say_only_who_picked() -> None:
    rng = random.Random(3)
    state = fresh(4, seed=3)
    for seat in range(3):
        other = resample_hidden(state, None, rng)
        action = GAME.legal_actions(state, seat)[rng.randrange(16)]
        state, events = GAME.apply(state, seat, action)
        assert events == [{"type": "picked", "seat": seat}]
        assert GAME.apply(other, seat, action)[1] == events


def test_unseen_cards_are_the_deck_minus_face_up_cards() -> None:
    state = act(fresh(2, seed=8), (0, "reveal 1,2"), (1, "reveal 3,0"))
    unseen = unseen_cards(state)
    assert len(unseen) == 98
    for value in range(1, 11):
        assert unseen.count(value) == 10 - state.pool.count(value)
