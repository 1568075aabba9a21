"""Puzzles of any game that cuts them: the daily one, the next one, an answer checked and rated.

A game cuts puzzles when its registration names a puzzle cutter
(:func:`meeple.analysis.features.cutter_of`); any other game answers 404
``no_feature``. The cutter reads its own stored puzzles (the solver's view, the
answer); this module keeps the rest: the day's, the next, the ratings.

A puzzle's answer leaves the server only for a signed-in player (guests
included) who has answered it: their first answer is kept, so seeing the
answer costs them that attempt. An anonymous answer is checked and nothing
more (not stored, not rated, no answer shown). Answers are rate limited per
user, or per address when anonymous. A player's first answer rates them
(openskill, as a game the solver wins by finding the move); it rates the
puzzle, and counts in its attempts and solves, only when the player has
finished ``MEEPLE_PUZZLE_RATER_GAMES`` rated games of the puzzle's game.

A puzzle cut from a game between the server's own bots (a short pool is filled
so, :mod:`meeple.tables.study.puzzle_supply`) says so (``from_bots``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Query, Request

from meeple.analysis.features import PuzzleCutter, cutter_of, no_feature
from meeple.errors import Code, TableError
from meeple.games.base import Refusal
from meeple.store import queries
from meeple.store.models import StoredPuzzle
from meeple.tables.facade import MODEL, puzzle_match, shown_rating
from meeple.web.deps import OptionalUser, ServicesDep, client_address
from meeple.web.schemas import ERRORS, PuzzleAnswerOut, PuzzleOut
from meeple.web.services import Services

router = APIRouter(prefix="/api/puzzles/{game}", tags=["puzzles"], responses=ERRORS)

DAY_S = 86_400


def no_puzzle() -> TableError:
    """The refusal when there is no puzzle to give (none cut yet, or all tried)."""
    return Code.NO_PUZZLE.error(
        "there is no puzzle to give yet: they come from finished games (people's public ones,"
        " and the server's bots' while the pool is short)"
    )


def cutter(game: str) -> PuzzleCutter:
    """The game's puzzle cutter; ``no_feature`` (404) if it cuts none (or is unknown)."""
    found = cutter_of(game)
    if found is None:
        raise no_feature(game, "puzzles", "puzzles")
    return found


async def stored(services: Services, game: str, puzzle_id: str) -> StoredPuzzle:
    """The stored puzzle of ``game`` by its id; ``no_puzzle`` (404) if there is none."""
    puzzle = await services.db.run(queries.puzzle_by_id, puzzle_id[:16])
    if puzzle is None or puzzle.game != game:
        raise Code.NO_PUZZLE.error(puzzle=puzzle_id[:16])
    return puzzle


def puzzle_stats(puzzle: StoredPuzzle) -> dict[str, int]:
    """The puzzle's rating and how often it was tried and solved, as they stand."""
    return {
        "rating": shown_rating(puzzle.mu, puzzle.sigma),
        "attempts": puzzle.attempts,
        "solved": puzzle.solved,
    }


def shown(puzzle: StoredPuzzle, game: str) -> dict[str, Any]:
    """What a solver gets: the position as a view, the points to find, the puzzle's rating."""
    return {
        "id": puzzle.id,
        "view": cutter(game).view(puzzle.data),
        "points": puzzle.data["points"],
        **puzzle_stats(puzzle),
        "from_bots": puzzle.from_bots,
    }


@router.get("/daily", response_model=PuzzleOut)
async def daily(game: str, services: ServicesDep) -> dict[str, Any]:
    """Today's puzzle of the game (server clock, UTC days): the same for everyone all day."""
    cutter(game)
    day = int(services.clock.now() // DAY_S)
    puzzle = await services.db.run(queries.daily_puzzle, game, day)
    if puzzle is None:
        raise no_puzzle()
    return shown(puzzle, game)


@router.get("/next", response_model=PuzzleOut)
async def next_one(
    game: str,
    services: ServicesDep,
    user: OptionalUser,
    after: str | None = Query(None, max_length=16, description="the puzzle just seen: not it"),
) -> dict[str, Any]:
    """A puzzle for the player: not tried yet, rated nearest to their puzzle rating."""
    cutter(game)
    user_id = None if user is None else user.id
    puzzle = await services.db.run(queries.next_puzzle, game, user_id, after, MODEL.rating().mu)
    if puzzle is None:
        raise no_puzzle()
    return shown(puzzle, game)


@router.get("/{puzzle_id}", response_model=PuzzleOut)
async def one(game: str, puzzle_id: str, services: ServicesDep) -> dict[str, Any]:
    """One puzzle, by its id (a shared link)."""
    cutter(game)
    return shown(await stored(services, game, puzzle_id), game)


@router.post("/{puzzle_id}/answer", response_model=PuzzleAnswerOut)
async def answer(
    game: str,
    puzzle_id: str,
    request: Request,
    services: ServicesDep,
    user: OptionalUser,
    move: dict[str, Any] = Body(  # noqa: B008 (FastAPI's way to take a whole body)
        description="the move, in the game's own form (Summy: {dir, tiles} as in the "
        "position format's move JSON)"
    ),
) -> dict[str, Any]:
    """Right or wrong at once; the answer only to a signed-in player, whose first answer is
    kept and rates them."""
    check = cutter(game)
    who = f"user:{user.id}" if user is not None else f"address:{client_address(request)}"
    await services.limits.hit("puzzle_answers", who)
    puzzle = await stored(services, game, puzzle_id)
    try:
        correct = check.is_answer(move, puzzle.data)
    except Refusal as exc:
        raise Code.BAD_MOVE.error(why=str(exc)) from None
    if user is None:
        return {
            "correct": correct,
            "answer": None,
            "points": puzzle.data["points"],
            "rating": None,
            "puzzle": puzzle_stats(puzzle),
        }
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
    after = await stored(services, game, puzzle.id)
    return {
        "correct": correct,
        "answer": puzzle.data["answer"],
        "points": puzzle.data["points"],
        "rating": None
        if rated is None
        else {"before": shown_rating(*rated[0]), "after": shown_rating(*rated[1])},
        "puzzle": puzzle_stats(after),
    }
