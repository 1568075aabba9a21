"""Summy's tutorial: every step's expected move is legal by the engine, a wrong one is refused
with the engine's own code and message, and a legal move that is not the lesson with the
step's; the positions hold the whole bag and ask for what they say."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from meeple.games.base import IllegalAction
from meeple.games.summy.game import GAME
from meeple.games.summy.movegen import legal_moves
from meeple.games.summy.tiles import BAG, Discard, Pass
from meeple.games.summy.tutorial import LEAST, SEAT, TUTORIAL
from meeple.i18n import catalog

STEPS = {step.key: index for index, step in enumerate(TUTORIAL.steps)}


def place(direction: str, *tiles: tuple[int, int, str]) -> dict[str, Any]:
    """A placement's JSON from ``(row, col, tile)`` triples."""
    return {
        "type": "place",
        "dir": direction,
        "tiles": [{"row": r, "col": c, "tile": t} for r, c, t in tiles],
    }


def refusal(key: str, action: dict[str, Any]) -> IllegalAction:
    """What the tutorial says to ``action`` at step ``key`` (it must refuse it)."""
    with pytest.raises(IllegalAction) as caught:
        TUTORIAL.attempt(STEPS[key], action)
    return caught.value


def engine_refusal(key: str, action: dict[str, Any]) -> IllegalAction:
    """What the engine alone says to ``action`` in the step's position."""
    state = TUTORIAL.steps[STEPS[key]].state
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, SEAT, GAME.parse_action(action))
    return caught.value


# A wrong move at each step, refused by the rules themselves.
WRONG = [
    # 2+3=4 is false.
    ("place", place("H", (0, -3, "2"), (0, -2, "+"), (0, -1, "3"), (0, 1, "4")), "eq_false"),
    # 1+4 with no = in the line: nothing after it.
    ("place", place("V", (1, 0, "+"), (2, 0, "4")), "eq_starts"),
    # 5=2x1 down from the 5: after the = comes one number alone.
    ("equals", place("V", (1, 1, "="), (2, 1, "2"), (3, 1, "x"), (4, 1, "1")), "eq_right"),
    # Lengthening 2+3=5 on its sealed end.
    ("build", place("H", (0, 2, "1")), "sealed_after"),
    # A 9 the hand does not hold twice.
    ("build", place("V", (5, 1, "9"), (6, 1, "9")), "too_many_of"),
    # Passing with tiles left in the stock.
    ("discard", {"type": "pass"}, "pass_refused"),
    # No equation to make: a lone sign across the table.
    ("pass", place("V", (5, 1, "+")), None),
]


@pytest.mark.parametrize(("key", "action", "code"), WRONG)
def test_a_wrong_move_is_refused_with_the_engines_own_code_and_message(
    key: str, action: dict[str, Any], code: str | None
) -> None:
    said = refusal(key, action)
    engine = engine_refusal(key, action)
    assert (said.code, str(said), said.params) == (engine.code, str(engine), engine.params)
    if code is not None:
        assert said.code == code, str(said)
    assert not said.code.startswith("learn_")


# A legal move that is not what the step teaches, refused by the step with its own code.
NOT_THE_LESSON = [
    ("place", {"type": "discard", "tiles": ["8"]}, "learn_place", {}),
    # 8-2=6 down through the start =: legal, but with no = of one's own.
    (
        "equals",
        place("V", (-3, 0, "8"), (-2, 0, "-"), (-1, 0, "2"), (1, 0, "6")),
        "learn_own_equals",
        {},
    ),
    # 5+4=9 down from the 5: legal, 18 points.
    (
        "build",
        place("V", (1, 1, "+"), (2, 1, "4"), (3, 1, "="), (4, 1, "9")),
        "learn_score",
        {"score": 18, "least": LEAST},
    ),
    ("pass", {"type": "discard", "tiles": ["x"]}, "learn_pass", {}),
]


@pytest.mark.parametrize(("key", "action", "code", "params"), NOT_THE_LESSON)
def test_a_legal_move_that_is_not_the_lesson_is_refused_by_the_step(
    key: str, action: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    state = TUTORIAL.steps[STEPS[key]].state
    GAME.apply(state, SEAT, GAME.parse_action(action))  # legal for the engine
    said = refusal(key, action)
    assert (said.code, said.params) == (code, params)
    # The English text of the code is the refusal's own sentence; every language has one.
    english = catalog("en").gettext(f"engine.{code}", **params)
    assert english.rstrip(".").lower() == str(said).lower()
    for lang in ("fr", "it", "ja"):
        assert catalog(lang).gettext(f"engine.{code}", **params) not in (english, f"engine.{code}")


def test_every_position_holds_the_whole_bag_and_asks_for_what_it_says() -> None:
    for step in TUTORIAL.steps:
        state = step.state
        held = Counter(state.table.values()) + Counter(state.hands[SEAT])
        held += Counter(state.stock) + Counter(state.discards[SEAT])
        assert held == Counter(BAG), step.key
        assert state.players == 1 and state.turn == SEAT
    place_hand = TUTORIAL.steps[STEPS["place"]].state.hands[SEAT]
    assert "=" not in place_hand  # the first equation goes through the start =
    assert "=" in TUTORIAL.steps[STEPS["equals"]].state.hands[SEAT]
    for key in ("discard", "pass"):
        state = TUTORIAL.steps[STEPS[key]].state
        assert next(iter(legal_moves(state.position())), None) is None, key
    discard = TUTORIAL.steps[STEPS["discard"]].state
    assert discard.stock and all(isinstance(a, Discard) for a in GAME.legal_actions(discard, 0))
    last = TUTORIAL.steps[STEPS["pass"]].state
    assert not last.stock and Pass() in GAME.legal_actions(last, SEAT)


def test_the_build_step_can_be_done_many_ways_and_its_example_crosses_for_21() -> None:
    step = TUTORIAL.steps[STEPS["build"]]
    moves = list(legal_moves(step.state.position()))
    enough = [move for move in moves if move.score >= LEAST]
    assert len(enough) >= 20 and len(enough) < len(moves)
    after, effects = TUTORIAL.attempt(STEPS["build"], step.example)
    assert (effects[0]["equation"], effects[0]["score"]) == ("6+9=15", 21)
    assert after.scores[SEAT] - step.state.scores[SEAT] == 21


def test_the_last_step_ends_the_game_after_every_kind_of_move() -> None:
    kinds = {TUTORIAL.game.parse_action(step.example).__class__.__name__ for step in TUTORIAL.steps}
    assert kinds == {"Placement", "Discard", "Pass"}
    after, effects = TUTORIAL.attempt(STEPS["pass"], {"type": "pass"})
    assert after.result is not None and effects[-1]["type"] == "game_over"
    assert after.result.scores == (42,)  # 10 + 11 + 21, the three examples' equations
