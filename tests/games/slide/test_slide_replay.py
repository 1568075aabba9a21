"""Game records: a played game replays exactly; a bad record names its first bad action."""

from __future__ import annotations

import json
import random

import pytest
from slide_helpers import act, fresh, random_step

from meeple.games.base import JSON, GameRecord, RecordError, replay
from meeple.games.slide import GAME, State


def played(players: int, seed: int, **options: bool) -> tuple[GameRecord, list[State]]:
    """A random game to the end: its record and every state."""
    rng = random.Random(seed)
    state = fresh(players, seed=seed, **options)
    states = [state]
    actions: list[tuple[int, JSON]] = []
    while GAME.result(state) is None:
        state, seat, action = random_step(state, rng)
        actions.append((seat, GAME.action_json(action)))
        states.append(state)
    opts = {**GAME.default_options(players), **options}
    return GameRecord("slide", opts, seed, tuple(actions)), states


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"lowest_reveal_starts": True}), (4, {"match_to_100": True}), (6, {})],
)
def test_records_replay_every_state_exactly(players: int, options: dict[str, bool]) -> None:
    record, states = played(players, 40 + players, **options)
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record
    assert replay(GAME, again) == states


def _record(actions: list[list[JSON]], **options: JSON) -> GameRecord:
    data = {"game": "slide", "options": {"players": 2, **options}, "seed": 5, "actions": actions}
    return GameRecord.from_json(data)


def _opening(seat: int) -> list[JSON]:
    return [seat, {"type": "reveal", "cell": [0, 0]}]


def _first_seat() -> int:
    return int(fresh(2, seed=5).first)


@pytest.mark.parametrize(
    ("record", "index", "reason"),
    [
        (GameRecord("summy", {"players": 2}, 5), None, "this is a 'summy' record, not 'slide'"),
        (_record([], players=9), None, "bad options: Slide is for 2 to 6 players, not 9"),
        (_record([_opening(0), _opening(0)]), 1, "seat 0 may not act now"),
        (_record([_opening(2)]), 0, "seat 2 may not act now"),
        (_record([[0, {"type": "reveal", "cell": [0, 9]}]]), 0, "a column must be an integer"),
        (_record([[1, {"type": "jump"}]]), 0, "unknown action type 'jump'"),
        (  # in the draft only the first player may act
            _record([_opening(0), _opening(1), _opening(1 - _first_seat())]),
            2,
            f"seat {1 - _first_seat()} may not act now",
        ),
    ],
)
def test_bad_records_name_the_action_and_the_reason(
    record: GameRecord, index: int | None, reason: str
) -> None:
    with pytest.raises(RecordError) as caught:
        replay(GAME, record)
    assert caught.value.index == index
    assert reason in caught.value.reason


def test_a_take_into_the_hole_is_refused_with_its_reason() -> None:
    first = _first_seat()
    value = act(fresh(2, seed=5), (0, "reveal 0,0"), (1, "reveal 0,0")).pool[0]
    take: JSON = {"type": "take", "value": value, "side": "left"}
    record = _record([_opening(0), _opening(1), [first, take]])
    with pytest.raises(RecordError) as caught:
        replay(GAME, record)
    assert caught.value.index == 2
    assert caught.value.reason == (
        "you cannot slide a card straight into the hole: the hole is in column 0, "
        "so the card cannot enter from the left"
    )
    assert str(caught.value).startswith("action 2: you cannot slide")


def test_an_action_after_the_end_is_refused() -> None:
    record, _states = played(2, 9)
    extra = GameRecord("slide", record.options, record.seed, (*record.actions, (0, {})))
    with pytest.raises(RecordError) as caught:
        replay(GAME, extra)
    assert caught.value.index == len(record.actions)
    assert caught.value.reason == "the game is already over"
