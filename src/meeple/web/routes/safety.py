"""Chat safety for every player (docs/moderation.md): report a player or a chat line, block
and unblock players, and read one's own standing (a mute, warnings).

Each takes the session cookie (a guest's too); a token is refused (``token_scope``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from meeple.errors import Code
from meeple.store import blocks as block_store
from meeple.store import moderation as store
from meeple.web.deps import CurrentUser, ServicesDep, client_address
from meeple.web.moderation_schemas import BlockIn, BlockOut, MyStandingOut, ReportIn, ReportOut
from meeple.web.routes.tables import find
from meeple.web.routes.users import user_named
from meeple.web.schemas import ERRORS

router = APIRouter(prefix="/api", tags=["chat safety"], responses=ERRORS)


@router.post("/reports", status_code=201, response_model=ReportOut)
async def report(
    body: ReportIn, request: Request, response: Response, services: ServicesDep, user: CurrentUser
) -> Any:
    """Report a chat line (``table_id`` and ``version``) or a player (``name``, optionally the
    ``table_id`` it was made at) to the moderators, with a reason. One report per player
    reported a day: another is the first again (200, ``duplicate``). 429 ``rate_limited``
    beyond ``MEEPLE_LIMIT_REPORTS`` per account and per address; 422 ``invalid`` for
    yourself or a version that is no chat line; 404 ``no_player``, ``no_table``."""
    if body.table_id is not None:
        await find(services, body.table_id, user, body.invite)  # only a table one may see
    if body.version is not None:
        if body.table_id is None:
            raise Code.INVALID.error("table_id: a chat line's table")
        line = await services.db.run(store.chat_line, body.table_id, body.version)
        if line is None or line.user_id is None:
            raise Code.INVALID.error("version: there is no player's chat line there")
        target_id = line.user_id
    elif body.name is not None:
        target_id = (await user_named(services, body.name)).id
    else:
        raise Code.INVALID.error("name: whom the report is about")
    where = (body.table_id, body.version)
    row, duplicate = await services.moderation.report(
        user, client_address(request), target_id, body.reason, body.text, where
    )
    if duplicate:
        response.status_code = 200
    return ReportOut(id=row.id, duplicate=duplicate)


@router.get("/blocks", response_model=list[BlockOut])
async def blocks(services: ServicesDep, user: CurrentUser) -> Any:
    """The players you blocked, the newest first: the pages hide their chat lines."""
    rows = await services.db.run(block_store.blocked_by, user.id)
    return [BlockOut(name=name, since=at) for name, at in rows]


@router.post("/blocks", status_code=201, response_model=BlockOut)
async def block(body: BlockIn, services: ServicesDep, user: CurrentUser) -> Any:
    """Block a player: their chat lines are hidden from you and they cannot challenge you
    (403 ``blocked``). Blocking again changes nothing. 429 ``rate_limited`` beyond
    ``MEEPLE_LIMIT_BLOCKS``; 422 ``invalid`` for yourself; 404 ``no_player``."""
    blocked = await user_named(services, body.name)
    await services.moderation.block(user, blocked)
    return BlockOut(name=blocked.name, since=services.clock.now())


@router.delete("/blocks/{name}", status_code=204)
async def unblock(name: str, services: ServicesDep, user: CurrentUser) -> Response:
    """Lift a block (nothing if there was none); 404 ``no_player``."""
    blocked = await user_named(services, name)
    await services.db.run(block_store.unblock, user.id, blocked.id)
    return Response(status_code=204)


@router.get("/standing", response_model=MyStandingOut)
async def standing(services: ServicesDep, user: CurrentUser) -> Any:
    """Your standing: a mute in force (until when, why), the warnings of the last 30 days,
    and whether you moderate (the pages' banner and header read it)."""
    return await services.moderation.standing(user)
