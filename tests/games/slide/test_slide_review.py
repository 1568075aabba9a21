"""The Slide review: every option of every decision valued by play-outs from the decider's view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple.arena.runner import GameSpec, play_game
from meeple.cli import main
from meeple.games.base import GameRecord, RecordError, replay
from meeple.games.slide import GAME
from meeple.games.slide.review import review_decision, review_slide_game


def bot_game(seed: int) -> GameRecord:
    """A 2-player game of a greedy bot against a random one (through the arena)."""
    spec = GameSpec(0, "slide", GAME.default_options(2), seed, ("greedy", "random"), 0.05)
    return play_game(spec).record


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """One seeded game."""
    return bot_game(3)


def test_every_decision_lists_its_options_best_first(record: GameRecord) -> None:
    review = review_slide_game(record, playouts=8)
    assert [d.index for d in review] == list(range(len(record.actions)))
    for decision, (seat, data) in zip(review, record.actions, strict=True):
        line = decision.to_json()
        assert line["seat"] == seat and line["kind"] == data["type"]
        points = [option["points"] for option in line["options"]]
        assert points == sorted(points) and len(points) >= 1
        assert line["chosen"] in [option["action"] for option in line["options"]]
        assert line["best"] == line["options"][0]["action"]
        assert line["best_points"] == points[0]
        assert line["given_away"] == pytest.approx(line["chosen_points"] - points[0], abs=0.02)
        assert line["given_away"] >= 0
        assert all(option["se"] >= 0 for option in line["options"])
    kinds = {decision.kind for decision in review}
    assert kinds == {"reveal", "take"}


def test_the_review_is_fixed_by_the_record_and_the_seed(record: GameRecord) -> None:
    first = [d.to_json() for d in review_slide_game(record, playouts=2, seed=1)]
    again = [d.to_json() for d in review_slide_game(record, playouts=2, seed=1)]
    assert first == again


def test_more_playouts_shrink_the_error(record: GameRecord) -> None:
    index = len(record.actions) - 6
    state = replay(GAME, record)[index]
    seat, data = record.actions[index]
    few = review_decision(index, state, seat, data, playouts=8, seed=0)
    many = review_decision(index, state, seat, data, playouts=128, seed=0)
    assert len(few.options) == len(many.options) > 1
    assert many.options[0].error < few.options[0].error or few.options[0].error == 0


def test_the_cli_prints_json_lines_and_refuses_bad_input(
    record: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    assert main(["slide", "analyse", str(path), "--json", "--playouts", "2"]) == 0
    lines = json.loads(capsys.readouterr().out)
    assert len(lines) == len(record.actions)
    with pytest.raises(SystemExit) as exited:
        main(["slide", "analyse", str(tmp_path / "missing.json")])
    assert exited.value.code == 2
    with pytest.raises(RecordError, match="not 'slide'"):
        review_slide_game(GameRecord("summy", {"players": 2}, 1, ()))
