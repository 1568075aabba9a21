"""Game records: replaying reproduces every state and score; a bad record names its action."""

from __future__ import annotations

import json
from typing import Any

import pytest
from summy_helpers import play_random_game

from meeple.games.base import GameRecord, RecordError, replay
from meeple.games.summy import GAME


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (4, 2), (3, 1)])
def test_replay_reproduces_every_state(seed: int, players: int) -> None:
    game = play_random_game(seed, players)
    record = GameRecord.from_json(json.loads(json.dumps(game.record.to_json())))
    states = replay(GAME, record)
    assert states == game.states
    assert states[-1].scores == game.states[-1].scores
    assert GAME.result(states[-1]) == GAME.result(game.states[-1])


def tampered(index: int, seat: int | None = None, action: Any = None) -> GameRecord:
    """Game (1, 2)'s record with the action at ``index`` changed."""
    record = play_random_game(1, 2).record
    actions = list(record.actions)
    old_seat, old_action = actions[index]
    actions[index] = (old_seat if seat is None else seat, old_action if action is None else action)
    return GameRecord(record.game, record.options, record.seed, tuple(actions))


def refusal(record: GameRecord) -> RecordError:
    """The error with which the record is refused."""
    with pytest.raises(RecordError) as caught:
        replay(GAME, record)
    return caught.value


def test_a_wrong_seat_is_refused_with_its_index() -> None:
    seat = play_random_game(1, 2).record.actions[3][0]
    error = refusal(tampered(3, seat=1 - seat))
    assert (error.index, error.reason) == (3, f"seat {1 - seat} may not act now")


def test_an_illegal_action_is_refused_with_its_index_and_rule() -> None:
    error = refusal(tampered(2, action={"type": "pass"}))
    assert error.index == 2
    assert error.reason.startswith("you may pass only when the stock is empty")


def test_a_malformed_action_is_refused() -> None:
    error = refusal(tampered(0, action={"type": "swap"}))
    assert (error.index, str(error)) == (
        0,
        "action 0: unknown action type 'swap': use 'place', 'discard' or 'pass'",
    )


def test_actions_after_the_end_are_refused() -> None:
    record = play_random_game(1, 2).record
    last_seat, last_action = record.actions[-1]
    longer = GameRecord(
        "summy", record.options, record.seed, (*record.actions, (1 - last_seat, last_action))
    )
    error = refusal(longer)
    assert (error.index, error.reason) == (len(record.actions), "the game is already over")


def test_bad_options_are_refused() -> None:
    error = refusal(GameRecord("summy", {"players": 3}, 1, ()))
    assert (error.index, error.reason) == (None, "bad options: Summy is for 1 or 2 players, not 3")
