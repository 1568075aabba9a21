"""Summy puzzles over REST: daily and next ones without their answer, answers checked, rated.

The answer only to a signed-in player who has answered; anonymous answers change nothing;
answers rate limited; the puzzle rated only by accounts that have played rated games."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from server_harness import Client, LiveServer, make_settings, play_out, running
from sqlalchemy import func, select

from meeple.games.summy.analysis.puzzles import Puzzle, puzzle_from_position
from meeple.games.summy.formats import placed_tiles_to_json
from meeple.games.summy.movegen import legal_moves
from meeple.store import queries
from meeple.store.models import PuzzleAttempt
from meeple.tables.core.ratings import MODEL, starting_rating

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
    skill = (first.mu, first.sigma)
    added = server.services.db.call(queries.save_puzzles, "summy", data, None, 0.0, skill)
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
    # Anyone may answer and learn right or wrong; an anonymous answer is not rated.
    verdict = anyone.post(f"/api/puzzles/summy/{puzzle.id}/answer", move_json(wrong.placement))
    assert verdict["correct"] is False and verdict["rating"] is None
    # A player's first answer rates them (up when right); a second one does not.
    player = server.client("player")
    player.guest()
    right = move_json(puzzle.answer.placement)
    verdict = player.post(f"/api/puzzles/summy/{puzzle.id}/answer", right)
    assert verdict["correct"] is True
    assert verdict["answer"]["equation"] == puzzle.answer.equation_text
    assert verdict["rating"]["after"] > verdict["rating"]["before"]
    again = player.post(f"/api/puzzles/summy/{puzzle.id}/answer", right)
    assert again["correct"] is True and again["rating"] is None
    # The next puzzle for the player is one not tried yet; then there is none.
    other = player.get("/api/puzzles/summy/next")
    assert other["id"] != puzzle.id
    player.post(f"/api/puzzles/summy/{other['id']}/answer", move_json(wrong.placement))
    player.get("/api/puzzles/summy/next", expect=404)


def test_bad_answers_and_unknown_puzzles_are_refused(server: LiveServer) -> None:
    puzzle = stored_puzzles(server)[0]
    anyone = server.client()
    refused = anyone.post(f"/api/puzzles/summy/{puzzle.id}/answer", {"dir": "Q"}, expect=422)
    assert refused["code"] == "bad_move"
    anyone.get("/api/puzzles/summy/nothere", expect=404)
    anyone.post("/api/puzzles/summy/nothere/answer", move_json(puzzle.answer.placement), expect=404)


def puzzle_stats(client: Client, puzzle_id: str) -> tuple[int, int, int]:
    """A puzzle's public rating, attempts and solves."""
    shown = client.get(f"/api/puzzles/summy/{puzzle_id}")
    return shown["rating"], shown["attempts"], shown["solved"]


def wrong_move(puzzle: Puzzle) -> dict[str, object]:
    """A legal move that is not the puzzle's answer."""
    return move_json(
        next(
            m for m in legal_moves(puzzle.position) if m.placement != puzzle.answer.placement
        ).placement
    )


def test_an_anonymous_answer_is_checked_and_nothing_more(server: LiveServer) -> None:
    puzzle = stored_puzzles(server)[0]
    anyone = server.client("anyone")
    before = puzzle_stats(anyone, puzzle.id)
    assert before == (starting_rating(), 0, 0)
    path = f"/api/puzzles/summy/{puzzle.id}/answer"
    for _ in range(5):
        verdict = anyone.post(path, wrong_move(puzzle))
        assert verdict == {
            "correct": False,
            "answer": None,
            "points": puzzle.answer.score,
            "rating": None,
            "puzzle": {"rating": before[0], "attempts": 0, "solved": 0},
        }
    assert anyone.post(path, move_json(puzzle.answer.placement))["correct"] is True
    assert puzzle_stats(anyone, puzzle.id) == before
    kept = server.services.db.call(
        lambda session: session.scalar(select(func.count()).select_from(PuzzleAttempt))
    )
    assert kept == 0


def test_a_players_first_wrong_attempt_shows_them_the_answer(server: LiveServer) -> None:
    puzzle = stored_puzzles(server)[0]
    player = server.client("player")
    player.register("solver")
    path = f"/api/puzzles/summy/{puzzle.id}/answer"
    verdict = player.post(path, wrong_move(puzzle))
    assert verdict["correct"] is False
    assert verdict["answer"] == puzzle.to_json()["answer"]
    assert verdict["rating"]["after"] < verdict["rating"]["before"]
    # The answer seen, the right move now rates nothing.
    again = player.post(path, move_json(puzzle.answer.placement))
    assert again["correct"] is True and again["rating"] is None


def test_answers_are_rate_limited(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, limit_puzzle_answers="4/minute")) as server:
        puzzle = stored_puzzles(server)[0]
        path = f"/api/puzzles/summy/{puzzle.id}/answer"
        anyone = server.client("anyone")
        for _ in range(4):
            anyone.post(path, wrong_move(puzzle))
        refused = anyone.http.post(path, json=wrong_move(puzzle))
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
        # A signed-in player is counted on their own, and limited the same way.
        player = server.client("player")
        player.guest()
        for _ in range(4):
            player.post(path, wrong_move(puzzle))
        player.post(path, wrong_move(puzzle), expect=429)


def test_fresh_accounts_do_not_move_a_puzzles_rating(server: LiveServer) -> None:
    puzzle = stored_puzzles(server)[0]
    watcher = server.client("watcher")
    before = puzzle_stats(watcher, puzzle.id)
    for n in range(5):
        puppet = server.client(f"puppet{n}")
        if n % 2:
            puppet.guest()
        else:
            puppet.register(f"puppet{n}")
        verdict = puppet.post(f"/api/puzzles/summy/{puzzle.id}/answer", wrong_move(puzzle))
        # Their own puzzle rating moves; the puzzle's does not.
        assert verdict["rating"]["after"] < verdict["rating"]["before"]
    assert puzzle_stats(watcher, puzzle.id) == before


def play_rated_summy(first: Client, second: Client) -> None:
    """``first`` and ``second`` play one rated Summy game to its end."""
    table_id = first.create_table(game="summy", seats=2, rated=True)["table"]["id"]
    second.post(f"/api/tables/{table_id}/join", {})
    first.post(f"/api/tables/{table_id}/start")
    seats = {0: first.connect(table_id), 1: second.connect(table_id)}
    for sock in seats.values():
        sock.recv()
    play_out(seats, "summy")


def test_an_account_with_rated_games_moves_a_puzzles_rating(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, puzzle_rater_games=1)) as server:
        puzzle = stored_puzzles(server)[0]
        alice, bob, newcomer = server.client("alice"), server.client("bob"), server.client("new")
        alice.register("alice")
        bob.register("bob")
        newcomer.register("newcomer")
        play_rated_summy(alice, bob)
        assert alice.get("/api/users/alice")["ratings"][0]["games"] == 1
        path = f"/api/puzzles/summy/{puzzle.id}/answer"
        start = puzzle_stats(newcomer, puzzle.id)
        newcomer.post(path, wrong_move(puzzle))
        assert puzzle_stats(newcomer, puzzle.id) == start
        alice.post(path, wrong_move(puzzle))
        rating, attempts, solved = puzzle_stats(newcomer, puzzle.id)
        assert rating > start[0] and (attempts, solved) == (1, 0)
        answered = bob.post(path, move_json(puzzle.answer.placement))
        after_bob = puzzle_stats(newcomer, puzzle.id)
        assert after_bob[0] < rating and after_bob[1:] == (2, 1)
        # The answer itself brings the figures it moved (the page shows them at once).
        assert answered["puzzle"] == dict(
            zip(("rating", "attempts", "solved"), after_bob, strict=True)
        )


def test_the_puzzle_table_keeps_each_games_puzzles_apart(server: LiveServer) -> None:
    """Puzzles are stored with their game: another game's puzzle is never served as Summy's,
    and a game that cuts no puzzles is refused with ``no_feature``."""
    first = MODEL.rating()
    other = {"id": "otherpuzzle1", "answer": {}, "points": 3}
    db = server.services.db
    assert db.call(queries.save_puzzles, "slide", [other], None, 0.0, (first.mu, first.sigma))
    anyone = server.client()
    assert anyone.get("/api/puzzles/summy/daily", expect=404)["code"] == "no_puzzle"
    assert anyone.get("/api/puzzles/summy/next", expect=404)["code"] == "no_puzzle"
    assert anyone.get("/api/puzzles/summy/otherpuzzle1", expect=404)["code"] == "no_puzzle"
    refused = anyone.get("/api/puzzles/slide/daily", expect=404)
    assert refused["code"] == "no_feature"
    assert refused["params"] == {"game": "slide", "feature": "puzzles"}
    assert anyone.get("/api/puzzles/chess/next", expect=404)["code"] == "no_feature"
    analysis = anyone.post("/api/analysis/slide", {"tiles": []}, expect=404)
    assert analysis["code"] == "no_feature"
    summy = stored_puzzles(server)
    assert anyone.get("/api/puzzles/summy/daily")["id"] in {p.id for p in summy}
