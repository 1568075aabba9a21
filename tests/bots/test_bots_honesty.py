"""Bots see only their view: same view, same seed -> same choice, whatever is hidden.

For positions of seeded games, the hidden part of the state (Summy: the
other hand and the stock; Slide: every face-down value and the other seats'
pending picks) is redrawn; the view must not change, and neither may any
bot's choice. Two fresh bots with the same seed choose alike; the choice
does not depend on earlier calls.
"""

from __future__ import annotations

import random

import pytest
from bots_helpers import GAMES_AND_LEVELS, no_clock_stop, redraw_hidden, states_to_act

from meeple.bots import get_bot
from meeple.games import get_game

__all__ = ["no_clock_stop"]

BUDGET = {"random": 1.0, "greedy": 1.0, "strong": 1.0, "expert": 0.05}
"""Small budgets keep the expert quick; honesty does not depend on the budget."""

CASES = {"summy": (11, 2, 5), "slide": (12, 3, 9)}
"""Per game: the seed, players and stride of the sampled states."""


@pytest.mark.usefixtures("no_clock_stop")
@pytest.mark.parametrize(("game_name", "level"), GAMES_AND_LEVELS)
def test_choice_ignores_what_the_seat_cannot_see(game_name: str, level: str) -> None:
    game = get_game(game_name)
    seed, players, stride = CASES[game_name]
    rng = random.Random(5)
    checked = 0
    for state, seat in states_to_act(game_name, seed, players, stride):
        other = redraw_hidden(game_name, state, seat, rng)
        view = game.view(state, seat)
        assert game.view(other, seat) == view
        first = get_bot(game_name, level, seed=42).choose(view, seat, BUDGET[level])
        again = get_bot(game_name, level, seed=42).choose(
            game.view(other, seat), seat, BUDGET[level]
        )
        assert first == again
        checked += 1
    assert checked >= 3


@pytest.mark.usefixtures("no_clock_stop")
@pytest.mark.parametrize(("game_name", "level"), GAMES_AND_LEVELS)
def test_same_seed_same_choice_whatever_came_before(game_name: str, level: str) -> None:
    game = get_game(game_name)
    seed, players, stride = CASES[game_name]
    positions = states_to_act(game_name, seed, players, stride)
    fresh = [
        get_bot(game_name, level, seed=9).choose(game.view(s, seat), seat, BUDGET[level])
        for s, seat in positions
    ]
    reused = get_bot(game_name, level, seed=9)
    backwards = [
        reused.choose(game.view(s, seat), seat, BUDGET[level]) for s, seat in reversed(positions)
    ]
    assert fresh == backwards[::-1]
