"""The moderators' routes (docs/moderation.md): the queue of open reports with their context,
the actions on a player, the audit log.

Only for accounts whose role is moderator or admin (``meeple role``); to anyone else they
answer 404 ``no_path``, as a path that does not exist.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from meeple.errors import Code
from meeple.store.models import User
from meeple.store.moderation import is_staff
from meeple.web.deps import OptionalUser, ServicesDep
from meeple.web.moderation_schemas import (
    ID_MAX,
    ActionIn,
    ActionOut,
    AuditEntryOut,
    AuditLogOut,
    QueuedReportOut,
)
from meeple.web.routes.users import user_named
from meeple.web.schemas import ERRORS

router = APIRouter(prefix="/api/mod", tags=["moderation"], responses=ERRORS)


async def staff_member(user: OptionalUser) -> User:
    """The signed-in moderator or admin; 404 ``no_path`` for anyone else."""
    if user is None or not is_staff(user):
        raise Code.NO_PATH.error()
    return user


Staff = Annotated[User, Depends(staff_member)]


@router.get("/reports", response_model=list[QueuedReportOut])
async def queue(services: ServicesDep, moderator: Staff) -> Any:
    """The open reports, oldest first (50 at most), each with the chat around a reported
    line, the two accounts' recent tables together, the accounts sharing an address with the
    reported one, the reported account's standing and the latest actions on it."""
    return await services.moderation.queue()


@router.post("/actions", response_model=ActionOut)
async def act(body: ActionIn, services: ServicesDep, moderator: Staff) -> Any:
    """Act on a player, logged with the reason: ``warn`` (a notification), ``mute`` for
    ``minutes`` (their chat refused with ``muted``), ``cheater`` (rated games unrated,
    opponents' ratings restored, off the leaderboards), ``close`` (signed out everywhere,
    tokens revoked, sign-in refused with ``account_closed``), ``dismiss`` (the report named
    closes). Any action but dismiss closes every open report of the player. 403
    ``staff_target`` on an admin, or on a moderator but by an admin (a dismissal excepted);
    404 ``no_player``; 422 ``invalid``."""
    target = await user_named(services, body.target)
    done = await services.moderation.act(
        moderator, target, body.action, body.reason, body.minutes, body.report_id
    )
    if body.action == "close":
        await services.revocations.announce(target.id)  # its streams end, on every server
    entry = AuditEntryOut.model_validate(done.entry)
    return ActionOut(entry=entry, closed_reports=done.closed_reports)


@router.get("/log", response_model=AuditLogOut)
async def audit_log(
    services: ServicesDep,
    moderator: Staff,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    before: Annotated[int | None, Query(ge=1, le=ID_MAX)] = None,
) -> Any:
    """Every moderator's action, newest first: who, what, whom, when and why (``before``:
    the entries below that id, the next page)."""
    entries = await services.moderation.log(limit, before)
    next_before = entries[-1]["id"] if len(entries) == limit else None
    return {"entries": entries, "next_before": next_before}
