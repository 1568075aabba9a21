"""The account's notifications in the site: the list, the unread count, marking them read.

Read with the session cookie or a token holding ``games:read``; marking read takes
the cookie only (a read-only scope changes nothing). The same notifications reach
the account's open pages live as ``notification`` lines on its socket.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from meeple.store import notifications as store
from meeple.store.models import User
from meeple.tables.facade import Note
from meeple.web.deps import ServicesDep, current_user, require_scope
from meeple.web.notification_schemas import ID_MAX, NotificationsOut, ReadIn, ReadOut
from meeple.web.schemas import ERRORS

router = APIRouter(prefix="/api", tags=["notifications"], responses=ERRORS)

Reader = Annotated[User, Depends(require_scope("games:read"))]
"""The signed-in account, by the session cookie or a token holding ``games:read``."""


@router.get("/notifications", response_model=NotificationsOut)
async def list_notifications(
    services: ServicesDep,
    user: Reader,
    limit: Annotated[int, Query(ge=1, le=100)] = 30,
    before: Annotated[int | None, Query(ge=1, le=ID_MAX)] = None,
) -> Any:
    """The account's notifications, newest first (``before``: ids below it, the next page)."""
    rows, unread = await services.db.run(store.notifications_page, user.id, limit, before)
    notes = [Note.of(row).json() for row in rows]
    next_before = rows[-1].id if len(rows) == limit else None
    return {"notifications": notes, "unread": unread, "next_before": next_before}


@router.post("/notifications/read", response_model=ReadOut)
async def mark_read(
    body: ReadIn, services: ServicesDep, user: Annotated[User, Depends(current_user)]
) -> Any:
    """Mark the notifications ``ids`` (or ``all``) read; another account's ids change nothing."""
    ids = None if body.all else body.ids
    marked = await services.db.run(store.mark_read, user.id, ids, services.clock.now())
    unread = await services.db.run(store.unread_count, user.id)
    return {"marked": marked, "unread": unread}
