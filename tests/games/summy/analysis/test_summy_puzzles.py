"""Summy puzzles: one clearly best move, checked unique against the full list of moves."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from meeple.cli import main
from meeple.games.base import GameRecord
from meeple.games.summy.analysis.puzzles import (
    MIN_POINTS,
    RATIO,
    puzzle_from_position,
    puzzles_from_record,
    unique_puzzles,
)
from meeple.games.summy.movegen import legal_moves
from meeple.games.summy.tiles import Placement

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from summy_helpers import play_random_game
from summy_positions import fresh_hand_position

PUZZLE_SEED = 10
"""A fresh-hand position that makes a puzzle (found by searching seeds 0-199)."""


def test_a_puzzle_has_one_clearly_best_move() -> None:
    position = fresh_hand_position(PUZZLE_SEED)
    puzzle = puzzle_from_position(position)
    assert puzzle is not None
    scores = sorted((m.score for m in legal_moves(position)), reverse=True)
    assert scores[0] == puzzle.answer.score >= MIN_POINTS
    assert scores.count(scores[0]) == 1
    second = next((s for s in scores if s < scores[0]), 0)
    assert puzzle.second == second and scores[0] >= RATIO * second
    assert puzzle.solved_by(puzzle.answer.placement)
    wrong = [m.placement for m in legal_moves(position) if m.placement != puzzle.answer.placement]
    assert not any(puzzle.solved_by(placement) for placement in wrong)
    assert len(puzzle.id) == 12 and puzzle.id == puzzle_from_position(position).id  # type: ignore[union-attr]


def test_positions_without_a_clear_best_are_not_puzzles() -> None:
    for seed in range(30):
        position = fresh_hand_position(seed, hand_size=5)
        moves = sorted((m.score for m in legal_moves(position)), reverse=True)
        puzzle = puzzle_from_position(position)
        clear = (
            bool(moves)
            and moves[0] >= MIN_POINTS
            and moves.count(moves[0]) == 1
            and moves[0] >= RATIO * next((s for s in moves if s < moves[0]), 0)
        )
        assert (puzzle is not None) == clear, seed


def test_puzzles_from_records_and_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [play_random_game(seed).record for seed in range(6)]
    found = unique_puzzles(p for record in records for p in puzzles_from_record(record))
    paths = []
    for index, record in enumerate(records):
        path = tmp_path / f"game{index}.json"
        path.write_text(json.dumps(record.to_json()), encoding="utf-8")
        paths.append(str(path))
    assert main(["summy", "puzzles", *paths, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [p["id"] for p in printed] == [p.id for p in found]
    for item in printed:
        assert item["points"] >= MIN_POINTS and item["points"] >= RATIO * item["second"]
        assert set(item) == {"id", "position", "answer", "points", "second"}
    assert main(["summy", "puzzles", *paths]) == 0
    assert f"{len(found)} puzzle(s) from 6 record(s)" in capsys.readouterr().out
    bad = GameRecord("summy", {"players": 2}, 1, ((1, {"type": "pass"}),))
    (tmp_path / "bad.json").write_text(json.dumps(bad.to_json()), encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["summy", "puzzles", str(tmp_path / "bad.json")])
    assert isinstance(found, list) and all(isinstance(p.answer.placement, Placement) for p in found)
