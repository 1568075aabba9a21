"""Summy judgement shared by the strong and expert bots, as tables of hands."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from meeple.games.summy import GAME
from meeple.games.summy.bots.seen import read_view
from meeple.games.summy.bots.tactics import should_pass_to_win, useful_discard

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bots"))
from bots_helpers import greedy_states


@pytest.mark.parametrize(
    ("hand", "thrown"),
    [
        # one '=' kept, two different operators kept ('+' before 'x' before ':')
        (("=", "=", "=", "+", "+", "x", ":", "9"), ("+", ":", "=", "=")),
        # the four highest digits kept, the rest of the digits thrown
        (("1", "2", "3", "4", "5", "6", "=", "+"), ("1", "2")),
        # a second '+' is kept only when no other operator is there
        (("+", "+", "+", "=", "7", "8", "9", "0"), ("+",)),
        # nothing to throw by the rule: the whole hand goes
        (("9", "8", "=", "+"), ("+", "8", "9", "=")),
    ],
)
def test_useful_discard(hand: tuple[str, ...], thrown: tuple[str, ...]) -> None:
    assert useful_discard(hand) == thrown


@pytest.mark.parametrize(
    ("stock", "idle_turns", "scores", "expected"),
    [
        (0, 1, (120, 100), True),  # the opponent just passed, the stock is empty, we lead
        (0, 1, (100, 100), False),  # a tie is not a win
        (0, 1, (90, 100), False),  # behind: keep playing
        (0, 0, (120, 100), False),  # the opponent placed last: passing does not end it
        (3, 1, (120, 100), False),  # the stock is not empty: passing is not allowed
    ],
)
def test_pass_to_win(stock: int, idle_turns: int, scores: tuple[int, int], expected: bool) -> None:
    state = greedy_states("summy", 11, 2)[3]
    view = GAME.view(state, state.turn)
    view.update(stock=stock, idle_turns=idle_turns, scores=list(scores))
    seen = read_view(view, state.turn)
    if seen.seat == 1:  # the table's scores are per seat: put ours first in the case
        view["scores"] = list(reversed(scores))
        seen = read_view(view, state.turn)
    assert should_pass_to_win(seen) is expected


def test_solo_never_passes_to_win() -> None:
    state = greedy_states("summy", 11, 1)[3]
    view = GAME.view(state, 0)
    view.update(stock=0, idle_turns=0, scores=[50])
    assert not should_pass_to_win(read_view(view, 0))


@pytest.mark.parametrize("index", [2, 6, 10])
def test_unseen_tiles_are_the_bag_minus_table_hand_and_own_discards(index: int) -> None:
    state = greedy_states("summy", 11, 2)[index]
    seat = state.turn
    view = GAME.view(state, seat)
    seen = read_view(view, seat)
    mine = len(state.table) + len(state.hands[seat]) + len(view["my_discards"])
    hidden = sorted(list(state.stock) + list(state.hands[1 - seat]))
    unseen = seen.unseen()
    assert len(unseen) == 94 - mine
    for tile in set(hidden):  # the other seat's discards are unseen too: at least these
        assert unseen.count(tile) >= hidden.count(tile)
