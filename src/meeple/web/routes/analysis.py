"""The analysis board's API: a position of any game that has a board in, every move out, ranked.

A game has a board when its registration names one
(:func:`meeple.analysis.features.board_of`); any other game answers 404
``no_feature``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse

from meeple.analysis.features import analyse_position, board_of, no_feature
from meeple.errors import Code
from meeple.games.base import Refusal
from meeple.web.deps import ServicesDep, client_address
from meeple.web.errors import busy_answer
from meeple.web.schemas import ERRORS, AnalysisOut

router = APIRouter(prefix="/api/analysis", tags=["analysis"], responses=ERRORS)

ANALYSIS_SECONDS = 5.0
"""The longest an analysis may take (queue included) before it is refused as too slow;
the search itself stops then too, freeing its worker."""

TURN_BASED = 1
"""The bot pool's queue class it waits in: after real-time bots, with turn-based ones."""


MAX_LIMIT = 500
"""The most moves a client may ask for (a board may list fewer: its ``max_listed``)."""


@router.post("/{game}", response_model=AnalysisOut)
async def analyse(
    game: str,
    request: Request,
    services: ServicesDep,
    position: dict[str, Any] = Body(  # noqa: B008 (FastAPI's way to take a whole body)
        description="a position in the game's own format (Summy: docs/summy-position-format.md)"
    ),
    limit: int = Query(100, ge=0, le=MAX_LIMIT, description="the most moves listed"),
) -> dict[str, Any] | JSONResponse:
    """Every legal move of the position, best first, and how many there are (Summy: every
    placement of the hand, by score).

    Open to anyone (no sign-in), rate limited per address (``MEEPLE_LIMIT_ANALYSIS``),
    bounded in time: it waits its turn in the bot pool behind real-time bots, and
    the search stops when the answer would come too late (503). A position that
    cannot happen in a game is refused (422, with a code) before any worker is asked.
    """
    board = board_of(game)
    if board is None:
        raise no_feature(game, "analysis", "analysis board")
    await services.limits.hit("analysis", client_address(request))
    try:
        # The position is read here, in the server, before any worker is asked: one
        # that cannot happen in a game (out of reach, over the bag) costs no worker.
        board.check(position)
    except Refusal as exc:
        body = {
            "detail": f"the position is not valid: {exc}",
            "code": exc.code,  # the game's own (docs/analysis.md), in the family "invalid"
            "family": Code.INVALID.family.value,
        }
        return JSONResponse({**body, "reason": exc.code, "params": exc.params}, 422)
    try:
        shown = min(limit, board.max_listed)
        work = services.bots.run_until(
            ANALYSIS_SECONDS, analyse_position, game, position, shown, rank=TURN_BASED
        )
        return dict(await work)
    except TimeoutError:
        return busy_answer("the server is too busy to analyse now; try again")
