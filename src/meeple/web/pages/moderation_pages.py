"""The moderators' pages, ``/mod`` (the queue) and ``/mod/log`` (the audit log), and every
player's ``/safety`` page (their standing and the players they blocked).

The moderators' pages answer 404 to anyone but a moderator or an admin, as a page that
does not exist; their scripts (``static/js/mod.js``, ``mod_log.js``) fill them from
``/api/mod``, which checks the same again.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from meeple.store.moderation import is_staff
from meeple.web.deps import user_from_cookie
from meeple.web.pages.render import render
from meeple.web.security import SESSION_COOKIE
from meeple.web.services import Services

router = APIRouter(include_in_schema=False)


async def _staff_only(request: Request) -> None:
    services: Services = request.app.state.services
    user = await user_from_cookie(services, request.cookies.get(SESSION_COOKIE))
    if not is_staff(user):
        raise HTTPException(404, "Not Found")


@router.get("/mod", response_class=HTMLResponse)
async def queue_page(request: Request) -> HTMLResponse:
    """The open reports with their context, and the actions on each."""
    await _staff_only(request)
    return render(request, "mod.html", "mod")


@router.get("/mod/log", response_class=HTMLResponse)
async def log_page(request: Request) -> HTMLResponse:
    """Every moderator's action: who, what, whom, when, why."""
    await _staff_only(request)
    return render(request, "mod_log.html", "mod-log")


@router.get("/safety", response_class=HTMLResponse)
def safety_page(request: Request) -> HTMLResponse:
    """A player's own standing (a mute, warnings) and the players they blocked."""
    return render(request, "safety.html", "safety")
