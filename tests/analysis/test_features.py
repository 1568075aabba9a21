"""A game's optional features are found through the registry, the toy Nim's as the built-ins'."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple import games
from meeple.analysis.features import board_of, cutter_of, reviewer_of
from meeple.analysis.review import puzzles_in_record, review_chunk, summary_of
from meeple.games import features_of, games_with, get_game
from meeple.games.base import GameRecord

TOY = Path(__file__).resolve().parents[1] / "toy"


def test_the_built_in_games_declare_their_features() -> None:
    assert games_with("reviewer") == ["summy", "slide"]
    assert games_with("puzzles") == games_with("analysis") == ["summy"]
    assert games_with("commands") == ["summy", "slide"]
    assert reviewer_of("summy") is not None and cutter_of("summy") is not None
    assert board_of("summy") is not None and board_of("slide") is None
    assert cutter_of("slide") is None


def test_an_unknown_game_offers_nothing() -> None:
    assert reviewer_of("chess") is None and cutter_of("chess") is None
    assert board_of("chess") is None
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        features_of("chess")


def test_a_game_registered_from_outside_is_reviewed_through_its_features(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The toy Nim of tests/toy, registered for this test only.
    monkeypatch.syspath_prepend(str(TOY))
    monkeypatch.setitem(games._MODULES, "nim", "meeple_nim")
    assert features_of("nim").reviewer == "meeple_nim:REVIEWER"
    assert cutter_of("nim") is None and board_of("nim") is None
    # 3 4 5 (nim-sum 2): the winning take is 2 from the first pile. Taking 1 leaves
    # 2 4 5 (nim-sum 3), won by taking 1 from the first pile again (1 4 5: nim-sum 0).
    actions = [
        {"type": "take", "pile": 0, "count": 1},  # misses the win
        {"type": "take", "pile": 0, "count": 1},  # takes it
    ]
    record = GameRecord("nim", {"players": 2}, 0, tuple((i % 2, a) for i, a in enumerate(actions)))
    text = json.dumps(record.to_json())
    get_game("nim")  # the module imports
    lines = review_chunk(text, 0, 50)
    assert [line["best"] for line in lines] == [
        {"type": "take", "pile": 0, "count": 2},
        {"type": "take", "pile": 0, "count": 1},
    ]
    assert [line["found"] for line in lines] == [False, True]
    summary = summary_of("nim", lines, 2)
    assert [(s["seat"], s["turns"], s["best_played"]) for s in summary] == [(0, 1, 0), (1, 1, 1)]
    assert puzzles_in_record(text) == []  # Nim cuts no puzzles
