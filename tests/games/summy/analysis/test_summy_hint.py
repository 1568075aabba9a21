"""Summy's hint (meeple.games.summy.analysis.hint): the analysis board's best placement for the
seat to move, from its view alone; with none, the discard a strong bot would make, or a pass
once the stock is empty. Every hint is a legal action of the seat."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from summy_helpers import play_random_game

from meeple.analysis.features import hint_for, hinter_of
from meeple.games.summy import GAME, SummyState
from meeple.games.summy.analysis.hint import HINTER, hint
from meeple.games.summy.analysis.position import analyse_position
from meeple.games.summy.bots.tactics import useful_discard
from meeple.games.summy.movegen import legal_moves
from meeple.games.summy.state import Table


def to_move(count: int) -> list[SummyState]:
    """``count`` states of seeded random games with a seat to move, spread over the games."""
    found: list[SummyState] = []
    seed = 100
    while len(found) < count:
        seed += 1
        states = [s for s in play_random_game(seed).states if s.result is None]
        found.extend(states[:: max(1, len(states) // 4)][:4])
    return found[:count]


@pytest.mark.parametrize("state", to_move(24), ids=lambda s: f"turn{s.turns_taken}")
def test_the_hint_is_a_legal_move_and_the_best_placement(state: SummyState) -> None:
    view = GAME.view(state, state.turn)
    answer = hint(view)
    action = GAME.parse_action(answer["action"])
    GAME.apply(state, state.turn, action)  # legal: raises otherwise
    best = analyse_position(view, 1)
    if best["count"]:
        assert answer["details"] == {
            "kind": "place",
            "score": best["moves"][0]["score"],
            "equation": best["moves"][0]["equation"],
            "notation": answer["details"]["notation"],
        }
        assert answer["text"].startswith(f"{best['moves'][0]['equation']} for ")
    else:
        assert answer["details"]["kind"] in {"discard", "pass"}


@pytest.mark.parametrize("state", to_move(8)[::2], ids=lambda s: f"turn{s.turns_taken}")
def test_the_hint_reads_only_the_seats_view(state: SummyState) -> None:
    """The tiles the seat cannot see, dealt again: the same hint."""
    answer = hint(GAME.view(state, state.turn))
    rng = random.Random(state.turns_taken)
    for _ in range(3):
        redealt = GAME.resample_hidden(state, state.turn, rng)
        assert hint(GAME.view(redealt, state.turn)) == answer


def stuck(stock: tuple[str, ...]) -> SummyState:
    """A table holding only the start ``=`` and a hand of eights and ``=``: no equation."""
    state = GAME.setup({"players": 2}, seed=5)
    hands = (("8", "8", "8", "8", "=", "=", "=", "="), state.hands[1])
    return replace(state, table=Table({(0, 0): "="}), hands=hands, stock=stock, turn=0)


def test_a_hand_without_an_equation_is_told_to_discard_or_to_pass() -> None:
    state = stuck(("1", "2"))
    assert legal_moves(state.position()).count() == 0
    answer = hint(GAME.view(state, 0))
    assert answer["action"] == {"type": "discard", "tiles": list(useful_discard(state.hands[0]))}
    assert answer["details"] == {"kind": "discard"}
    assert answer["text"] == "no equation can be made: discard = = = to draw new tiles"
    empty = stuck(())
    assert hint(GAME.view(empty, 0))["action"] == {"type": "pass"}
    GAME.apply(empty, 0, GAME.parse_action(hint(GAME.view(empty, 0))["action"]))


def test_a_spectator_gets_no_hint_and_the_game_names_its_hint() -> None:
    state = stuck(("1",))
    with pytest.raises(ValueError, match="spectator"):
        hint(GAME.view(state, None))
    assert hinter_of("summy") is HINTER and hinter_of("slide") is None
    assert hint_for("summy", GAME.view(state, 0)) == hint(GAME.view(state, 0))
    with pytest.raises(KeyError):
        hint_for("slide", {})


def test_a_search_out_of_time_is_a_timeout() -> None:
    state = to_move(1)[0]
    with pytest.raises(TimeoutError):
        HINTER.hint(GAME.view(state, state.turn), 0.0)
