"""The analysis board's API: any Summy position in, every legal move out, ranked by score."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, HTTPException, Query, Request
from fastapi.responses import JSONResponse

from meeple.analysis.position import MAX_LISTED, analyse_position, checked_position
from meeple.games.summy.formats import FormatError
from meeple.games.summy.movegen_stop import SearchStopped
from meeple.web.deps import ServicesDep, client_address
from meeple.web.schemas import ERRORS, AnalysisOut

router = APIRouter(prefix="/api/analysis", tags=["analysis"], responses=ERRORS)

ANALYSIS_SECONDS = 5.0
"""The longest an analysis may take (queue included) before it is refused as too slow;
the search itself stops then too, freeing its worker."""

TURN_BASED = 1
"""The bot pool's queue class it waits in: after real-time bots, with turn-based ones."""


@router.post("/summy", response_model=AnalysisOut)
async def analyse_summy(
    request: Request,
    services: ServicesDep,
    position: dict[str, Any] = Body(  # noqa: B008 (FastAPI's way to take a whole body)
        description="a position in the shared format (docs/summy-position-format.md)"
    ),
    limit: int = Query(100, ge=0, le=MAX_LISTED, description="the most moves listed"),
) -> dict[str, Any] | JSONResponse:
    """Every legal placement of the position's hand, best first, and how many there are.

    Open to anyone (no sign-in), rate limited per address (``MEEPLE_LIMIT_ANALYSIS``),
    bounded in time: it waits its turn in the bot pool behind real-time bots, and
    the search stops when the answer would come too late (503). A position that
    cannot happen in a game is refused (422, with a code) before any worker is asked.
    """
    await services.limits.hit("analysis", client_address(request))
    try:
        # The position is read here, in the server, before any worker is asked: one
        # that cannot happen in a game (out of reach, over the bag) costs no worker.
        checked_position(position)
    except FormatError as exc:
        body = {"detail": f"the position is not valid: {exc}", "code": exc.code}
        return JSONResponse({**body, "reason": exc.code, "params": exc.params}, 422)
    try:
        work = services.bots.run_until(
            ANALYSIS_SECONDS, analyse_position, position, limit, rank=TURN_BASED
        )
        return dict(await work)
    except (TimeoutError, SearchStopped):
        raise HTTPException(503, "the server is too busy to analyse now; try again") from None
