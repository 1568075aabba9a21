"""Stopping the emails that bring players back, from a link, with no sign-in; and the
account page's choice of them.

``GET /email/unsubscribe?token=...`` shows what the link stops and a button (a
GET changes nothing: mail scanners open links); ``POST`` to the same address
stops it: the button, or a mail client's RFC 8058 one-click POST
(``List-Unsubscribe=One-Click``), neither needing a cookie. A forged or
damaged token gets a clear page (400) and changes nothing. The signed token
(:mod:`meeple.tables.notices.unsubscribe`) is the authority, so this path is let
through the cross-site check (a mail provider's POST comes from no page).

``GET``/``PUT /api/account/email-choices`` read and set the same choices for the
signed-in account (the account page's Email section).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel
from sqlalchemy.orm import Session

from meeple.store import email_choices as choices
from meeple.store.models import User
from meeple.tables.facade import ALL_EMAILS, EMAILED, UNSUBSCRIBE_PATH, UnsubscribeSigner
from meeple.web.deps import CurrentUser, ServicesDep
from meeple.web.pages.render import render
from meeple.web.schemas import ERRORS, Input

router = APIRouter(tags=["email"])


class EmailChoices(BaseModel):
    """Which emails about its games an account gets (when away): one field per kind of
    notification emailed (:data:`~meeple.tables.notices.notifications.EMAILED`)."""

    your_turn: bool
    game_finished: bool
    tournament_game: bool


class EmailChoicesIn(Input):
    """The account page's choice of emails (the fields of :class:`EmailChoices`); a field
    left out keeps its choice, so a client written before a kind was added still works."""

    your_turn: bool | None = None
    game_finished: bool | None = None
    tournament_game: bool | None = None


def _signer(services: ServicesDep) -> UnsubscribeSigner:
    """The signer of unsubscribe links (built with the email listener)."""
    return services.turn_emails.signer


def _user(session: Session, user_id: int) -> User | None:
    """The account a token names, if it still exists."""
    return session.get(User, user_id)


async def _page(request: Request, services: ServicesDep, token: str, stop: bool) -> HTMLResponse:
    """The confirm page (``stop`` false) or the done page; the refusal for a bad token."""
    found = _signer(services).read(token)
    user = None if found is None else await services.db.run(_user, found[0])
    if found is None or user is None:
        response = render(request, "unsubscribe.html", "unsubscribe", state="bad")
        response.status_code = 400
        return response
    user_id, kind = found
    if stop:
        await services.db.write(choices.unsubscribe, user_id, kind, services.clock.now())
    return render(
        request, "unsubscribe.html", "unsubscribe",
        state="done" if stop else "confirm", kind=kind, name=user.name,
        action=f"{UNSUBSCRIBE_PATH}?{request.url.query}",
    )  # fmt: skip


@router.get(UNSUBSCRIBE_PATH, response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe_page(
    request: Request, services: ServicesDep, token: str = ""
) -> HTMLResponse:
    """What the link stops, with a button; changes nothing (mail scanners open links)."""
    return await _page(request, services, token, stop=False)


@router.post(UNSUBSCRIBE_PATH, response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe(request: Request, services: ServicesDep, token: str = "") -> HTMLResponse:
    """Stop the emails the link names: the page's button or a one-click POST (RFC 8058)."""
    return await _page(request, services, token, stop=True)


def _read_choices(session: Session, user_id: int) -> EmailChoices:
    stopped = choices.unsubscribed_kinds(session, user_id)
    return EmailChoices(**{kind: not {kind, ALL_EMAILS} & stopped for kind in EMAILED})


def _set_choices(
    session: Session, user_id: int, wanted: EmailChoicesIn, now: float
) -> EmailChoices:
    choices.resubscribe(session, user_id, ALL_EMAILS)
    chosen = wanted.model_dump()
    for kind in EMAILED:
        if chosen[kind] is None:
            continue
        if chosen[kind]:
            choices.resubscribe(session, user_id, kind)
        else:
            choices.unsubscribe(session, user_id, kind, now)
    return _read_choices(session, user_id)


@router.get("/api/account/email-choices", response_model=EmailChoices, responses=ERRORS)
async def email_choices(user: CurrentUser, services: ServicesDep) -> EmailChoices:
    """Which emails about its games the account gets when away."""
    return await services.db.run(_read_choices, user.id)


@router.put("/api/account/email-choices", response_model=EmailChoices, responses=ERRORS)
async def set_email_choices(
    body: EmailChoicesIn, user: CurrentUser, services: ServicesDep
) -> EmailChoices:
    """Choose the emails about its games the account gets (an unsubscribe link's choice
    is undone here)."""
    return await services.db.write(_set_choices, user.id, body, services.clock.now())
