"""The pages an email's link opens: an address verified, a password reset; and the form
that asks for a reset.

A link that is forged, expired or already used gets a page that says so, in
the reader's language, with the way to ask for a new one. With email off
these pages say that the server sends no email.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from meeple.store import emails
from meeple.web.pages.render import render
from meeple.web.security import token_hash
from meeple.web.services import Services

router = APIRouter(include_in_schema=False)


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def _link_page(request: Request, state: str, status: int = 200) -> HTMLResponse:
    """The page that tells what became of a link (``state`` names its texts)."""
    response = render(request, "email_link.html", "email", state=state)
    response.status_code = status
    return response


@router.get("/email/verify", response_class=HTMLResponse)
async def verify_page(request: Request, token: str = "") -> HTMLResponse:
    """Spend a verification link: the address is verified, or the page says why not."""
    services = _services(request)
    if not services.settings.email_enabled:
        return _link_page(request, "off", 409)
    now = services.clock.now()
    outcome, found = await services.db.write(emails.use_link, token_hash(token), "verify", now)
    if outcome == "used" and found is not None:
        # Mail scanners open links before their reader does: a used link whose address is
        # verified still shows that (it changes nothing); one for a replaced address does not.
        user_id, address = found
        if await services.db.run(emails.verified_email, user_id) == address:
            return _link_page(request, "verified")
    if outcome != "ok":
        return _link_page(request, f"verify_{outcome}", 410 if outcome != "unknown" else 404)
    user_id, address = found
    if not await services.db.write(emails.verify_address, user_id, address, now):
        return _link_page(request, "verify_unknown", 404)  # the address changed since
    return _link_page(request, "verified")


@router.get("/password/forgot", response_class=HTMLResponse)
def forgot_page(request: Request) -> HTMLResponse:
    """The form that asks for a reset link by name or address."""
    if not _services(request).settings.email_enabled:
        return _link_page(request, "off", 409)
    return render(request, "password_forgot.html", "password")


@router.get("/password/reset", response_class=HTMLResponse)
async def reset_page(request: Request, token: str = "") -> HTMLResponse:
    """The form for a new password, if the link still works (it is spent on sending)."""
    services = _services(request)
    if not services.settings.email_enabled:
        return _link_page(request, "off", 409)
    user_id = await services.db.run(
        emails.peek_link, token_hash(token), "reset", services.clock.now()
    )
    if user_id is None:
        return _link_page(request, "reset_bad", 410)
    response = render(request, "password_reset.html", "password", token=token)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
