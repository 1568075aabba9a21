"""Slide actions: JSON and text forms round-trip; malformed input is refused plainly."""

from __future__ import annotations

import json

import pytest

from meeple.games.base import IllegalAction
from meeple.games.slide import GAME, Reveal, Take
from meeple.games.slide.actions import Action, action_from_text


@pytest.mark.parametrize(
    ("action", "data", "text"),
    [
        (Reveal((0, 0)), {"type": "reveal", "cell": [0, 0]}, "reveal 0,0"),
        (Reveal((3, 2)), {"type": "reveal", "cell": [3, 2]}, "reveal 3,2"),
        (Take(1, "left"), {"type": "take", "value": 1, "side": "left"}, "take 1 left"),
        (Take(10, "bottom"), {"type": "take", "value": 10, "side": "bottom"}, "take 10 bottom"),
        (Take(7, "top"), {"type": "take", "value": 7, "side": "top"}, "take 7 top"),
        (Take(4, "right"), {"type": "take", "value": 4, "side": "right"}, "take 4 right"),
    ],
)
def test_json_and_text_forms(action: Action, data: dict[str, object], text: str) -> None:
    assert GAME.action_json(action) == data
    assert GAME.parse_action(json.loads(json.dumps(data))) == action
    assert action.to_text() == text
    assert action_from_text(text) == action
    assert type(action).from_text(text) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("reveal 1,1", "an action must be a JSON object"),
        ({"cell": [0, 0]}, "unknown action type None"),
        ({"type": "place"}, "unknown action type 'place'"),
        ({"type": "reveal"}, "a reveal needs 'cell': [row, col]"),
        ({"type": "reveal", "cell": [1]}, "a reveal needs 'cell': [row, col]"),
        ({"type": "reveal", "cell": [4, 0]}, "a row must be an integer from 0 to 3, not 4"),
        ({"type": "reveal", "cell": [0, -1]}, "a column must be an integer from 0 to 3, not -1"),
        ({"type": "reveal", "cell": [True, 0]}, "a row must be an integer from 0 to 3"),
        ({"type": "take", "value": 0, "side": "left"}, "a card value must be an integer from 1"),
        ({"type": "take", "value": 11, "side": "left"}, "from 1 to 10, not 11"),
        ({"type": "take", "value": "7", "side": "left"}, "from 1 to 10, not '7'"),
        ({"type": "take", "value": 7, "side": "up"}, "the side must be one of left, right"),
        ({"type": "take", "value": 7}, "the side must be one of"),
    ],
)
def test_malformed_json_is_refused(data: object, message: str) -> None:
    with pytest.raises(IllegalAction, match=message.replace("[", r"\[").replace("(", r"\(")):
        GAME.parse_action(data)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "reveal",
        "reveal 1 2",
        "reveal 1,2,3",
        "take 7",
        "take seven left",
        "take 7 up",
        "take \u00b2 left",  # a superscript two: str.isdigit() says yes, int() says no
        "reveal \u00b2,1",
        "take \u0667 left",  # an Arabic-Indic seven: the text form is ASCII
    ],
)
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(IllegalAction):
        action_from_text(text)


def test_text_of_the_other_kind_is_refused() -> None:
    with pytest.raises(IllegalAction, match="is not a take"):
        Take.from_text("reveal 1,2")
    with pytest.raises(IllegalAction, match="is not a reveal"):
        Reveal.from_text("take 3 left")
