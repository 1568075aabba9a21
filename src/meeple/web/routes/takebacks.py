"""Takebacks over REST: the socket's ``takeback`` message, for the Bot API and turn-based play.

The rules are the table's (:mod:`meeple.tables.core.takebacks`, docs/server.md
"Takebacks"); this route only reads the request and runs it on the table's owner.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import Field

from meeple.tables.facade import commands
from meeple.web.api_limits import ApiPlayer
from meeple.web.deps import ServicesDep
from meeple.web.routes.tables import find
from meeple.web.schemas import ERRORS, ActionOut, Input

router = APIRouter(prefix="/api", tags=["tables"], responses=ERRORS)


class TakebackIn(Input):
    """Ask to take back my last move (no ``answer``), or answer another player's ask."""

    answer: Literal["accept", "decline"] | None = Field(
        None, description="accept or decline the takeback asked of me; none: ask to take back mine"
    )


@router.post("/tables/{table_id}/takeback", response_model=ActionOut)
async def takeback(
    table_id: str, services: ServicesDep, user: ApiPlayer, body: TakebackIn | None = None
) -> ActionOut:
    """Take back my last move (and the bots' after it), or accept or decline the takeback
    another player asked of me; the version of the last event written.

    Against built-in bots it is done at once; with other people at the table it is asked
    of them (``takeback_ask`` event) and done once all accepted. Never at a table asked
    rated nor in a tournament's game, never after the end. Refused (400): ``not_playing``,
    ``takeback_over``, ``takeback_rated``, ``takeback_tournament``, ``takeback_asked``,
    ``takeback_none``, ``takeback_not_yours``, ``takeback_declined``, ``takeback_no_ask``,
    ``zombie``; 403 ``not_seated``.
    """
    table = await find(services, table_id, user, None)
    answer = None if body is None else body.answer
    version = await services.tables.writes.run(table, commands.Takeback(user.id, answer))
    return ActionOut(version=version, duplicate=False)
