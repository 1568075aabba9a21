"""Summy puzzles: the daily one, the next one for a player, an answer checked and rated.

A puzzle's answer leaves the server only for a signed-in player (guests
included) who has answered it: their first answer is kept, so seeing the
answer costs them that attempt. An anonymous answer is checked and nothing
more (not stored, not rated, no answer shown). Answers are rate limited per
user, or per address when anonymous. A player's first answer rates them
(openskill, as a game the solver wins by finding the move); it rates the
puzzle, and counts in its attempts and solves, only when the player has
finished ``MEEPLE_PUZZLE_RATER_GAMES`` rated games of the puzzle's game.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Query, Request

from meeple.analysis.puzzles import puzzle_view
from meeple.games.summy.formats import FormatError, placement_from_json, position_from_json
from meeple.store import queries
from meeple.store.models import StoredPuzzle
from meeple.tables.errors import TableError
from meeple.tables.ratings import MODEL, puzzle_match, shown_rating
from meeple.web.deps import OptionalUser, ServicesDep, client_address
from meeple.web.schemas import ERRORS, PuzzleAnswerOut, PuzzleOut

router = APIRouter(prefix="/api/puzzles/summy", tags=["puzzles"], responses=ERRORS)

DAY_S = 86_400


def no_puzzle() -> TableError:
    """The refusal when there is no puzzle to give (none cut yet, or all tried)."""
    return TableError("no_puzzle", "there is no puzzle to give yet: they come from finished games")


def shown(puzzle: StoredPuzzle) -> dict[str, Any]:
    """What a solver gets: the position as a view, the points to find, the puzzle's rating."""
    position = position_from_json(puzzle.data["position"])
    return {
        "id": puzzle.id,
        "view": puzzle_view(position),
        "points": puzzle.data["points"],
        "rating": shown_rating(puzzle.mu, puzzle.sigma),
        "attempts": puzzle.attempts,
        "solved": puzzle.solved,
    }


@router.get("/daily", response_model=PuzzleOut)
async def daily(services: ServicesDep) -> dict[str, Any]:
    """Today's puzzle (server clock, UTC days): the same for everyone all day."""
    day = int(services.clock.now() // DAY_S)
    puzzle = await services.db.run(queries.daily_puzzle, day)
    if puzzle is None:
        raise no_puzzle()
    return shown(puzzle)


@router.get("/next", response_model=PuzzleOut)
async def next_one(
    services: ServicesDep,
    user: OptionalUser,
    after: str | None = Query(None, max_length=16, description="the puzzle just seen: not it"),
) -> dict[str, Any]:
    """A puzzle for the player: not tried yet, rated nearest to their puzzle rating."""
    user_id = None if user is None else user.id
    puzzle = await services.db.run(queries.next_puzzle, user_id, after, MODEL.rating().mu)
    if puzzle is None:
        raise no_puzzle()
    return shown(puzzle)


@router.get("/{puzzle_id}", response_model=PuzzleOut)
async def one(puzzle_id: str, services: ServicesDep) -> dict[str, Any]:
    """One puzzle, by its id (a shared link)."""
    puzzle = await services.db.run(queries.puzzle_by_id, puzzle_id[:16])
    if puzzle is None:
        raise TableError("no_puzzle", f"there is no puzzle {puzzle_id[:16]!r}")
    return shown(puzzle)


@router.post("/{puzzle_id}/answer", response_model=PuzzleAnswerOut)
async def answer(
    puzzle_id: str,
    request: Request,
    services: ServicesDep,
    user: OptionalUser,
    move: dict[str, Any] = Body(  # noqa: B008 (FastAPI's way to take a whole body)
        description="the placement: {dir, tiles} as in the position format's move JSON"
    ),
) -> dict[str, Any]:
    """Right or wrong at once; the answer only to a signed-in player, whose first answer is
    kept and rates them."""
    who = f"user:{user.id}" if user is not None else f"address:{client_address(request)}"
    await services.limits.hit("puzzle_answers", who)
    puzzle = await services.db.run(queries.puzzle_by_id, puzzle_id[:16])
    if puzzle is None:
        raise TableError("no_puzzle", f"there is no puzzle {puzzle_id[:16]!r}")
    try:
        placement = placement_from_json(move)
    except FormatError as exc:
        raise TableError("bad_move", f"the move is not valid: {exc}") from None
    correct = placement == placement_from_json(puzzle.data["answer"])
    if user is None:
        return {"correct": correct, "answer": None, "points": puzzle.data["points"], "rating": None}
    first = MODEL.rating()
    rated = await services.db.write(
        queries.record_answer,
        puzzle.id,
        user.id,
        correct,
        services.clock.now(),
        (first.mu, first.sigma),
        puzzle_match,
        services.settings.puzzle_rater_games,
    )
    return {
        "correct": correct,
        "answer": puzzle.data["answer"],
        "points": puzzle.data["points"],
        "rating": None
        if rated is None
        else {"before": shown_rating(*rated[0]), "after": shown_rating(*rated[1])},
    }
