"""The end of a two-player Summy game: the negamax of ``games/summy/bots/endgame.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from meeple.bots import get_bot
from meeple.games.summy import GAME
from meeple.games.summy.bots.endgame import WIDTH, line_value
from meeple.games.summy.bots.seen import after_move, kept_after, read_view
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.tiles import Position

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bots"))
from bots_helpers import greedy_states


def end_positions(seed: int) -> list[Position]:
    """Positions of a greedy game once its stock is empty, seen by the player to move."""
    found = []
    for state in greedy_states("summy", seed, 2):
        if not state.stock and GAME.result(state) is None:
            found.append(read_view(GAME.view(state, state.turn), state.turn).position)
    return found


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_with_a_silent_opponent_the_search_adds_up_the_bots_two_best_turns(seed: int) -> None:
    positions = end_positions(seed)
    assert positions, "the game has an end phase"
    for position in positions:
        expected = 0  # passing twice in a row ends the game
        for move in best_moves(position, WIDTH):
            after = after_move(position, move, kept_after(position.hand, move))
            nxt = best_moves(after, 1)
            expected = max(expected, move.score + max(0, nxt[0].score if nxt else 0))
        assert line_value(position, (), idle=0, depth=3) == expected


def test_one_turn_deep_is_the_best_score_or_a_pass() -> None:
    for position in end_positions(3):
        best = best_moves(position, 1)
        assert line_value(position, ("1", "2"), idle=0, depth=1) == max(
            0, best[0].score if best else 0
        )


def test_two_idle_turns_end_the_game() -> None:
    position = end_positions(3)[0]
    assert line_value(position, ("1", "+", "1", "2"), idle=2, depth=3) == 0


@pytest.mark.parametrize("seed", [3, 8])
def test_the_expert_plays_a_legal_end(seed: int) -> None:
    bot = get_bot("summy", "expert", 5)
    for state in greedy_states("summy", seed, 2):
        if state.stock or GAME.result(state) is not None:
            continue
        view = GAME.view(state, state.turn)
        action = bot.choose(view, state.turn, 0.3)
        GAME.apply(state, state.turn, GAME.parse_action(action))  # raises if illegal
