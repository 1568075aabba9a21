"""Summy puzzles over REST: daily and next ones without their answer, answers checked, rated."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from server_harness import LiveServer

from meeple.analysis.puzzles import Puzzle, puzzle_from_position
from meeple.games.summy.formats import placed_tiles_to_json
from meeple.games.summy.movegen import legal_moves
from meeple.store import queries
from meeple.tables.ratings import MODEL

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "summy"))
from summy_positions import fresh_hand_position

PUZZLE_SEEDS = (205, 225)
"""Fresh-hand positions that make puzzles with a second-best move (found by search)."""


def stored_puzzles(server: LiveServer) -> list[Puzzle]:
    """Two puzzles put in the server's store."""
    found = [puzzle_from_position(fresh_hand_position(seed)) for seed in PUZZLE_SEEDS]
    puzzles = [p for p in found if p is not None]
    first = MODEL.rating()
    data = [p.to_json() for p in puzzles]
    added = server.services.db.call(queries.save_puzzles, data, None, 0.0, (first.mu, first.sigma))
    assert added == len(puzzles) == 2
    return puzzles


def move_json(placement: object) -> dict[str, object]:
    """A placement's JSON (dir and tiles)."""
    return {"dir": placement.dir, "tiles": placed_tiles_to_json(placement.tiles)}  # type: ignore[attr-defined]


def test_no_puzzle_yet_says_so(server: LiveServer) -> None:
    anyone = server.client()
    refused = anyone.get("/api/puzzles/summy/daily", expect=404)
    assert refused["code"] == "no_puzzle"
    anyone.get("/api/puzzles/summy/next", expect=404)


def test_puzzles_are_given_without_answers_and_answers_are_rated(server: LiveServer) -> None:
    puzzles = {p.id: p for p in stored_puzzles(server)}
    anyone = server.client("anyone")
    daily = anyone.get("/api/puzzles/summy/daily")
    assert daily["id"] in puzzles and anyone.get("/api/puzzles/summy/daily") == daily
    for shown in (daily, anyone.get("/api/puzzles/summy/next")):
        assert "answer" not in json.dumps(shown)
        puzzle = puzzles[shown["id"]]
        assert shown["points"] == puzzle.answer.score
        assert shown["view"]["hand"] == list(puzzle.position.hand)
        assert shown["view"]["turn"] == shown["view"]["seat"] == 0
    puzzle = puzzles[daily["id"]]
    wrong = next(m for m in legal_moves(puzzle.position) if m.placement != puzzle.answer.placement)
    # Anyone may answer; an anonymous answer is not rated.
    verdict = anyone.post(f"/api/puzzles/summy/{puzzle.id}/answer", move_json(wrong.placement))
    assert verdict["correct"] is False and verdict["rating"] is None
    assert verdict["answer"]["equation"] == puzzle.answer.equation_text
    # A player's first answer rates them (up when right); a second one does not.
    player = server.client("player")
    player.guest()
    right = move_json(puzzle.answer.placement)
    verdict = player.post(f"/api/puzzles/summy/{puzzle.id}/answer", right)
    assert verdict["correct"] is True
    assert verdict["rating"]["after"] > verdict["rating"]["before"]
    again = player.post(f"/api/puzzles/summy/{puzzle.id}/answer", right)
    assert again["correct"] is True and again["rating"] is None
    # The next puzzle for the player is one not tried yet; then there is none.
    other = player.get("/api/puzzles/summy/next")
    assert other["id"] != puzzle.id
    player.post(f"/api/puzzles/summy/{other['id']}/answer", move_json(wrong.placement))
    player.get("/api/puzzles/summy/next", expect=404)
    stats = anyone.get(f"/api/puzzles/summy/{puzzle.id}")
    assert (stats["attempts"], stats["solved"]) == (3, 2)


def test_bad_answers_and_unknown_puzzles_are_refused(server: LiveServer) -> None:
    puzzle = stored_puzzles(server)[0]
    anyone = server.client()
    refused = anyone.post(f"/api/puzzles/summy/{puzzle.id}/answer", {"dir": "Q"}, expect=422)
    assert refused["code"] == "bad_move"
    anyone.get("/api/puzzles/summy/nothere", expect=404)
    anyone.post("/api/puzzles/summy/nothere/answer", move_json(puzzle.answer.placement), expect=404)
