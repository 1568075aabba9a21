"""The learned Summy hand model and the tiles kept after a move."""

from __future__ import annotations

import json
import random
import sys
from importlib import resources
from pathlib import Path

import pytest

from meeple.bots import get_bot
from meeple.games.summy import GAME
from meeple.games.summy.bots.leave import (
    HandModel,
    draw_refills,
    fitted_model,
    hand_value,
    keep_options,
    leave_value,
)
from meeple.games.summy.bots.seen import read_view
from meeple.games.summy.movegen import best_moves

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bots"))
from bots_helpers import greedy_states


def hand(text: str) -> tuple[str, ...]:
    return tuple(text)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("987654=+", "111111=+"),  # higher digits score more
        ("555555=+", "5555555+"),  # without an '=' the hand needs an old one
        ("555555=+", "5555555="),  # without an operator it cannot make an equation
        ("55555=+x", "555=+x-:"),  # operators beyond two crowd out digits
        ("555555=+", "5555===+"),  # '=' beyond one crowd out digits
    ],
)
def test_hand_model_orders_hands_as_a_player_would(better: str, worse: str) -> None:
    assert hand_value(hand(better)) > hand_value(hand(worse))


def test_keeping_an_equals_and_an_operator_is_worth_more_than_two_operators() -> None:
    unseen = list("0123456789" * 5 + "+-x:" * 4 + "=" * 10)
    refills = draw_refills(unseen, 200, random.Random(1))
    assert leave_value(("=", "+"), refills) > leave_value(("+", "+"), refills)
    assert leave_value(("9", "8"), refills) > leave_value(("1", "0"), refills)


def test_refills_are_full_hands_from_the_unseen_tiles() -> None:
    unseen = list("123=+")
    refills = draw_refills(unseen, 3, random.Random(2))
    assert len(refills) == 3
    assert all(sorted(r) == sorted(unseen) for r in refills)  # fewer than 8 unseen: all of them


def test_keep_options_throw_at_least_one_tile_and_keep_one_equals_at_most() -> None:
    options = keep_options(hand("==+x:965"))
    assert () in options  # throwing the whole hand
    assert tuple(sorted("=+x96")) in options  # one '=', two kinds of operator, top digits
    for kept in options:
        assert len(kept) < 8
        assert kept.count("=") <= 1
        assert sum(kept.count(op) for op in "+-x:") <= 2


def test_the_shipped_model_says_how_it_was_fitted() -> None:
    text = resources.files("meeple.games.summy.bots").joinpath("leave.json").read_text("utf-8")
    data = json.loads(text)
    assert data["fitted"]["turns"] > 5000
    assert 0.3 < data["fitted"]["r2_held_out"] < 1.0
    assert HandModel.from_json(data["model"]) == fitted_model()


def test_a_model_with_a_missing_term_is_refused() -> None:
    data = fitted_model().to_json()
    del data["digits"][3]  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="every mix, operator and digit"):
        HandModel.from_json(data)


@pytest.mark.parametrize("seed", range(6))  # seed 4's opening hand can place, the others not
def test_strong_plays_the_opening_when_it_can_rather_than_fish_for_a_better_hand(
    seed: int,
) -> None:
    state = greedy_states("summy", seed, 2)[0]
    view = GAME.view(state, state.turn)
    can_place = bool(best_moves(read_view(view, state.turn).position, 1))
    action = get_bot("summy", "strong", 1).choose(view, state.turn, 1.0)
    assert isinstance(action, dict)
    assert (action["type"] == "place") is can_place
