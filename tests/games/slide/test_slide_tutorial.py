"""Slide's tutorial: the reveal, the draft after it, the last take of the game; every expected
move legal by the engine, a wrong one refused with the engine's message, and a legal last take
that does not cancel refused by the step."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from meeple.games.base import IllegalAction
from meeple.games.slide.game import GAME
from meeple.games.slide.grid import COPIES, HOLE
from meeple.games.slide.state import DRAFT, REVEAL, ROUNDS
from meeple.games.slide.tutorial import LAST_CARD, SEAT, TUTORIAL
from meeple.i18n import catalog

STEPS = {step.key: index for index, step in enumerate(TUTORIAL.steps)}


def refused(key: str, action: dict[str, Any]) -> tuple[IllegalAction, IllegalAction | None]:
    """What the tutorial says to ``action`` at step ``key``, and what the engine alone says
    (``None``: the engine takes it)."""
    state = TUTORIAL.steps[STEPS[key]].state
    with pytest.raises(IllegalAction) as said:
        TUTORIAL.attempt(STEPS[key], action)
    try:
        GAME.apply(state, SEAT, GAME.parse_action(action))
    except IllegalAction as engine:
        return said.value, engine
    return said.value, None


@pytest.mark.parametrize(
    ("key", "action", "code"),
    [
        ("reveal", {"type": "take", "value": 7, "side": "left"}, "reveal_first"),
        ("take", {"type": "take", "value": 9, "side": "left"}, "not_in_pool"),
        # The reveal is over: it is the draft.
        ("take", {"type": "reveal", "cell": [0, 0]}, "reveal_over"),
        # The pool holds only the 7.
        ("cancel", {"type": "take", "value": 3, "side": "left"}, "not_in_pool"),
    ],
)
def test_a_wrong_move_is_refused_with_the_engines_own_code_and_message(
    key: str, action: dict[str, Any], code: str
) -> None:
    said, engine = refused(key, action)
    assert engine is not None
    assert (said.code, str(said), said.params) == (engine.code, str(engine), engine.params)
    assert said.code == code


@pytest.mark.parametrize("side", ["right", "top", "bottom"])
def test_a_last_take_that_does_not_cancel_is_refused_by_the_step(side: str) -> None:
    said, engine = refused("cancel", {"type": "take", "value": LAST_CARD, "side": side})
    assert engine is None  # a legal move, which ends the game
    assert (said.code, said.params) == ("learn_cancel", {"value": LAST_CARD})
    english = catalog("en").gettext("engine.learn_cancel", value=LAST_CARD)
    assert english.rstrip(".").lower() == str(said).lower()
    for lang in ("fr", "it", "ja"):
        assert catalog(lang).gettext("engine.learn_cancel", value=LAST_CARD) != english


def test_the_positions_are_the_round_they_say() -> None:
    reveal = TUTORIAL.steps[STEPS["reveal"]].state
    assert (reveal.phase, reveal.round, sorted(reveal.waiting)) == (REVEAL, 1, [SEAT])
    take = TUTORIAL.steps[STEPS["take"]].state
    assert (take.phase, take.turn, take.pool) == (DRAFT, SEAT, (3, 7))
    last = TUTORIAL.steps[STEPS["cancel"]].state
    assert (last.phase, last.round, last.turn, last.pool) == (DRAFT, ROUNDS, SEAT, (LAST_CARD,))
    # Round 16: every card face up, no value more often than the deck has it.
    assert all(card >= 0 for grid in last.grids for card in grid)
    counts = Counter(card for grid in last.grids for card in grid if card != HOLE)
    counts.update(last.pool)
    assert max(counts.values()) <= COPIES
    assert GAME.view(last, SEAT)["grids"][1][0] == [4, 4, 9, 1]


def test_the_last_take_ends_the_game_with_the_twins_cancelled() -> None:
    step = TUTORIAL.steps[STEPS["cancel"]]
    after, effects = TUTORIAL.attempt(STEPS["cancel"], step.example)
    assert after.result is not None and effects[-1]["type"] == "game_over"
    final = after.final_grids[SEAT]
    assert final[4] is None and final[8] is None  # the new 7 at (1,0) and the 7 under it
    assert after.result.winners == (SEAT,)
