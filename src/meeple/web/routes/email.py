"""Email for accounts: an address verified by a link, and a password reset by email.

Each link is a random token sent once and stored as its hash
(:mod:`meeple.store.emails`): a verification link works once for
:data:`VERIFY_TTL_S`, a reset link once for :data:`RESET_TTL_S`, and only while
it is the account's newest, its password unchanged and its verified address
the one it went to. Asking for a reset is answered before anything is looked
up (the lookup and the email follow in the background), so neither the answer
nor its timing tells which accounts exist. With email off (``MEEPLE_SMTP_URL``
unset) every route here answers ``409 email_off``.

``MEEPLE_LIMIT_EMAILS`` counts apart: verification emails per account and per
mailbox (:func:`~meeple.store.mailboxes.mailbox_key`: case and ``+tags``
folded), reset requests per client address, reset emails per account and per
mailbox. A stranger's reset requests spend only the reset budgets, never the
one the owner changes and verifies the address with.
"""

from __future__ import annotations

import logging
import secrets

from fastapi import APIRouter, BackgroundTasks, Request, Response
from pydantic import BaseModel, Field

from meeple.errors import Code
from meeple.ratelimit import RateLimited
from meeple.store import emails, queries
from meeple.store.mailboxes import NotAnAddress, mailbox_key
from meeple.store.mailboxes import clean_address as valid_address
from meeple.store.models import User
from meeple.store.sessions import set_password
from meeple.tables.facade import enqueue, render
from meeple.web.deps import CurrentUser, ServicesDep, client_address
from meeple.web.pages.render import request_language
from meeple.web.routes.auth import public, start_session
from meeple.web.schemas import ERRORS, Input, UserPublic
from meeple.web.security import hash_password, off_loop, password_problem, token_hash
from meeple.web.services import Services

log = logging.getLogger(__name__)

router = APIRouter(tags=["accounts"], responses=ERRORS)

VERIFY_TTL_S = 24 * 3600.0
RESET_TTL_S = 3600.0


class EmailIn(Input):
    """The address to give the account."""

    address: str = Field(max_length=254)


class EmailOut(BaseModel):
    """The account's email: whether the server sends email at all, the address, its state."""

    enabled: bool
    address: str | None
    verified: bool


class ForgotIn(Input):
    """An account's name or its verified address."""

    name_or_email: str = Field(max_length=254)


class ForgotOut(BaseModel):
    """The one answer to a reset request, whatever was found."""

    accepted: bool


class ResetIn(Input):
    """A reset link's token and the new password."""

    token: str = Field(max_length=128)
    password: str = Field(max_length=1024)


def email_on(services: Services) -> None:
    """Refuse with ``email_off`` unless the server sends email."""
    if not services.settings.email_enabled:
        raise Code.EMAIL_OFF.error()


def account_of(user: User) -> User:
    """The user, if it is an account; a guest is refused (it signs up first)."""
    if user.guest:
        raise Code.GUEST_NO_ACCOUNT.error()
    return user


def clean_address(text: str) -> str:
    """The address as stored (:func:`meeple.store.mailboxes.clean_address`); ``email_shape``
    if it is not one plain mailbox. Whether it exists is what the verification link finds out."""
    try:
        return valid_address(text)
    except NotAnAddress as exc:
        raise Code.EMAIL_SHAPE.error(why=str(exc)) from None


def link_url(services: Services, path: str, token: str) -> str:
    """The absolute link to ``path?token=…`` on the site's public address."""
    base = services.settings.links_url or ""
    return f"{base}{path}?token={token}"


async def send_link(
    services: Services, user_id: int, name: str, address: str, purpose: str, lang: str, ttl: float
) -> None:
    """Store a new one-time link for the account (voiding its earlier ones of that
    ``purpose``) and enqueue the email that carries it."""
    token = secrets.token_urlsafe(32)
    now = services.clock.now()
    await services.db.write(
        emails.add_link, token_hash(token), user_id, purpose, address, now, now + ttl
    )
    path = "/email/verify" if purpose == "verify" else "/password/reset"
    subject, text, html = render(lang, purpose, name=name, link=link_url(services, path, token))
    await enqueue(
        services,
        user_id=user_id,
        to=address,
        subject=subject,
        text=text,
        html=html,
        headers={},
        dedupe=f"{purpose}:{token_hash(token)}",
    )


async def under_limits(services: Services, keys: list[str]) -> bool:
    """Count one email against each key; whether all are still under ``MEEPLE_LIMIT_EMAILS``."""
    try:
        for key in keys:
            await services.limits.hit("emails", key)
    except RateLimited:
        return False
    return True


@router.get("/api/account/email", response_model=EmailOut)
async def get_email(services: ServicesDep, user: CurrentUser) -> EmailOut:
    """The account's address and whether it is verified (``enabled`` false: email is off)."""
    if not services.settings.email_enabled:
        return EmailOut(enabled=False, address=None, verified=False)
    found = await services.db.run(emails.email_of, account_of(user).id)
    if found is None:
        return EmailOut(enabled=True, address=None, verified=False)
    return EmailOut(enabled=True, address=found[0], verified=found[1] is not None)


@router.put("/api/account/email", response_model=EmailOut)
async def put_email(
    body: EmailIn, request: Request, services: ServicesDep, user: CurrentUser
) -> EmailOut:
    """Give the account this address (unverified) and send it a verification link (24 h).

    Giving the same address again sends a new link; the earlier ones stop working.
    """
    email_on(services)
    account = account_of(user)
    address = clean_address(body.address)
    # Over the limit, nothing changes: the account's address stays as it was.
    await services.limits.hit("emails", f"user:{account.id}")
    await services.limits.hit("emails", f"verify:{mailbox_key(address)}")
    await services.db.write(emails.set_email, account.id, address, services.clock.now())
    lang = request_language(request)
    await send_link(services, account.id, account.name, address, "verify", lang, VERIFY_TTL_S)
    return EmailOut(enabled=True, address=address, verified=False)


@router.delete("/api/account/email", status_code=204)
async def delete_email(services: ServicesDep, user: CurrentUser) -> Response:
    """Forget the account's address: no email goes to it any more."""
    email_on(services)
    await services.db.write(emails.remove_email, account_of(user).id)
    return Response(status_code=204)


@router.post("/api/password/forgot", response_model=ForgotOut)
async def forgot(
    body: ForgotIn, request: Request, services: ServicesDep, background: BackgroundTasks
) -> ForgotOut:
    """Send a reset link (1 h) to the verified address of the account named, or of every
    account with that verified address. The answer is the same whatever is found, and
    comes before anything is looked up: the lookup and the email follow it."""
    email_on(services)
    await services.limits.hit("emails", f"from:{client_address(request)}")
    background.add_task(
        send_resets, services, body.name_or_email.strip(), request_language(request)
    )
    return ForgotOut(accepted=True)


async def send_resets(services: Services, name_or_email: str, lang: str) -> None:
    """Send a reset link to each account ``name_or_email`` names (after the answer)."""
    try:
        for user_id, name, address in await services.db.run(emails.reset_targets, name_or_email):
            # Over the reset budget of this account or mailbox: nothing (a refusal would tell).
            keys = [f"reset-user:{user_id}", f"reset:{mailbox_key(address)}"]
            if await under_limits(services, keys):
                await send_link(services, user_id, name, address, "reset", lang, RESET_TTL_S)
    except Exception:  # answered already: nobody to tell but the log
        log.exception("sending reset links failed")


@router.post("/api/password/reset", response_model=UserPublic)
async def reset(
    body: ResetIn, request: Request, response: Response, services: ServicesDep
) -> UserPublic:
    """Spend a reset link: the new password is set, every session of the account ends, and
    this browser is signed in afresh."""
    email_on(services)
    await services.limits.hit("login", client_address(request))
    hashed = token_hash(body.token)
    peeked = await services.db.run(emails.peek_link, hashed, "reset", services.clock.now())
    if peeked is None:
        raise Code.BAD_LINK.error()
    user = await services.db.run(queries.user_by_id, peeked)
    if user is None:
        raise Code.BAD_LINK.error()
    problem = password_problem(body.password, user.name, services.settings.min_password_length)
    if problem:
        raise problem
    new_hash = await off_loop(hash_password, body.password)
    outcome, _found = await services.db.write(
        emails.use_link, hashed, "reset", services.clock.now()
    )
    if outcome != "ok":
        raise Code.BAD_LINK.error()
    # Every session ends, those of whoever knew the old password too (keep nothing).
    await services.db.write(set_password, user.id, new_hash, None)
    await services.revocations.announce(user.id)  # its streams end at once, on every server
    await start_session(response, services, user, client_address(request))
    return public(user)
