"""The signed-in account's own things: its live tables ("My games")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from meeple.store.models import User
from meeple.tables.facade import my_tables
from meeple.web.deps import ServicesDep, require_scope
from meeple.web.me_schemas import MyTableOut, MyTablesOut
from meeple.web.schemas import ERRORS

router = APIRouter(prefix="/api/me", tags=["players"], responses=ERRORS)

GamesReader = Annotated[User, Depends(require_scope("games:read"))]


@router.get("/tables", response_model=MyTablesOut)
async def my_live_tables(services: ServicesDep, user: GamesReader) -> MyTablesOut:
    """Every open or running table the account sits at: those waiting for its move first
    (soonest clock first), then the others by their next clock; for each the game, the
    opponents (bots marked), whose turn, the account's clock and the last move.

    Session cookie, or a token with ``games:read``.
    """
    entries = await my_tables(services.db, services.tables, user.id, services.clock.now())
    tables = [MyTableOut.model_validate(entry) for entry in entries]
    return MyTablesOut(tables=tables, my_turns=sum(1 for t in tables if t.my_turn))
