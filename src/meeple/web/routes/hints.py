"""A hint at a table: the analysis engine's best move for the asking player's seat.

Only where it spoils no one's game: an unrated table whose other seats are all
the server's built-in bots (or none: a solo game), on the player's own turn.
The game's hint (:func:`meeple.analysis.features.hinter_of`) reads the seat's
own view, nothing else, and runs in the bot pool like the analysis board; the
table does not change and nobody else is told.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from meeple.analysis.features import hint_for, hinter_of, no_feature
from meeple.errors import Code
from meeple.tables.facade import PLAYING, Table
from meeple.web.deps import CurrentUser, ServicesDep, client_address
from meeple.web.errors import busy_answer
from meeple.web.routes.analysis import ANALYSIS_SECONDS, TURN_BASED
from meeple.web.routes.tables import find
from meeple.web.schemas import ERRORS

router = APIRouter(prefix="/api", tags=["tables"], responses=ERRORS)


class HintOut(BaseModel):
    """The best move for the asking seat now, as the game's analysis engine finds it."""

    action: dict[str, Any] = Field(
        description="the move in the game's action JSON, ready for POST /api/tables/{id}/actions"
        " (Summy: the highest-scoring placement; with none, a discard, or a pass once the"
        " stock is empty)"
    )
    text: str = Field(description="the move in plain English (Summy: '1+1=2 for 4 points (H"
                      " 0,-3 1+1[=]2)')")  # fmt: skip
    details: dict[str, Any] = Field(
        description="the game's own facts about the move (Summy: kind: place, discard or pass;"
        " for a placement its score, equation and notation)"
    )


def hint_seat(table: Table, user_id: int) -> int:
    """The seat a hint is for, if this table gives this user one now; else the refusal.

    In this order: the game must be running (``not_playing``), the user seated and
    playing their seat (``not_seated``, ``zombie``), the table unrated (``hint_rated``:
    a table asked rated gives none, even where its bots keep it from rating), every
    other seat a built-in bot (``hint_people``), and the turn the user's (``not_your_turn``).
    """
    snap = table.snap
    if snap.status != PLAYING:
        raise Code.NOT_PLAYING.error()
    seat = snap.seat_of(user_id)
    if seat is None:
        raise Code.NOT_SEATED.error()
    if snap.seats[seat].zombie:
        raise Code.ZOMBIE.error()
    if table.info.rated:
        raise Code.HINT_RATED.error()
    if any(other.bot_level is None for other in snap.seats if other.seat != seat):
        raise Code.HINT_PEOPLE.error()
    if seat not in table.game.to_act(snap.state):
        raise Code.NOT_YOUR_TURN.error(whose="your")
    return seat


@router.post("/tables/{table_id}/hint", response_model=HintOut)
async def ask_hint(
    table_id: str, request: Request, services: ServicesDep, user: CurrentUser
) -> HintOut | JSONResponse:
    """The best move for my seat now, by the game's analysis engine (Summy: the analysis
    board's first placement), with the move in words.

    Only in an unrated game against built-in bots, on my turn (400 ``not_playing``,
    ``hint_rated``, ``hint_people``, ``not_your_turn``; 403 ``not_seated``; 404
    ``no_feature`` for a game without hints). Rate limited per address with the analysis
    board (``MEEPLE_LIMIT_ANALYSIS``); it waits in the bot pool behind real-time bots and
    gives up after 5 s (503). Nothing at the table changes and nobody else is told.
    """
    table = await find(services, table_id, user, None)
    game = table.info.game
    if hinter_of(game) is None:
        raise no_feature(game, "hint", "hint")
    seat = hint_seat(table, user.id)
    await services.limits.hit("analysis", client_address(request))
    view = table.view_at(table.snap.version, seat)
    try:
        work = services.bots.run_until(ANALYSIS_SECONDS, hint_for, game, view, rank=TURN_BASED)
        return HintOut.model_validate(await work)
    except TimeoutError:
        return busy_answer("the server is too busy to find a hint now; try again")
