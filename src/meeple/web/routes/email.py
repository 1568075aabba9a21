"""Email for accounts: an address verified by a link, and a password reset by email.

Each link is a random token sent once and stored as its hash
(:mod:`meeple.store.emails`): a verification link works once for
:data:`VERIFY_TTL_S`, a reset link once for :data:`RESET_TTL_S`. Asking for a
reset always gets the same answer, whether the name or address is known or
not, so the route tells nobody which accounts exist. With email off
(``MEEPLE_SMTP_URL`` unset) every route here answers ``409 email_off``.
"""

from __future__ import annotations

import re
import secrets

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from meeple.ratelimit import RateLimited
from meeple.store import emails, queries
from meeple.store.models import User
from meeple.store.sessions import set_password
from meeple.tables.errors import TableError
from meeple.tables.outbox import enqueue, render
from meeple.web.deps import CurrentUser, ServicesDep, client_address
from meeple.web.pages.render import request_language
from meeple.web.routes.auth import public, start_session
from meeple.web.schemas import ERRORS, Input, UserPublic
from meeple.web.security import hash_password, off_loop, password_problem, token_hash
from meeple.web.services import Services

router = APIRouter(tags=["accounts"], responses=ERRORS)

VERIFY_TTL_S = 24 * 3600.0
RESET_TTL_S = 3600.0
ADDRESS_SHAPE = re.compile(r"^[^@\s<>\"(),;:]+@[^@\s<>\"(),;:]+\.[^@\s<>\"(),;:.]+$")
"""Something@somewhere.tld, without spaces or the characters that would break a header;
whether it exists is what the verification link finds out."""


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
        raise TableError("email_off", "this server sends no email (MEEPLE_SMTP_URL is not set)")


def account_of(user: User) -> User:
    """The user, if it is an account; a guest is refused (it signs up first)."""
    if user.guest:
        raise TableError("guest_no_account", "a guest has no account to manage: sign up first")
    return user


def clean_address(text: str) -> str:
    """The address as stored (trimmed, lower case); ``email_shape`` if it is no address."""
    address = text.strip().lower()
    if not ADDRESS_SHAPE.match(address) or len(address) > 254:
        raise TableError("email_shape", "that is not an email address")
    return address


def link_url(services: Services, path: str, token: str) -> str:
    """The absolute link to ``path?token=…`` on the site's public address."""
    base = services.settings.public_url or ""
    return f"{base}{path}?token={token}"


async def send_link(
    services: Services, user: User, address: str, purpose: str, lang: str, ttl: float
) -> None:
    """Store a new one-time link for ``user`` and enqueue the email that carries it."""
    token = secrets.token_urlsafe(32)
    now = services.clock.now()
    await services.db.write(
        emails.add_link, token_hash(token), user.id, purpose, address, now, now + ttl
    )
    path = "/email/verify" if purpose == "verify" else "/password/reset"
    subject, text, html = render(
        lang, purpose, name=user.name, link=link_url(services, path, token)
    )
    await enqueue(
        services,
        user_id=user.id,
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
    await services.limits.hit("emails", f"to:{address}")
    await services.db.write(emails.set_email, account.id, address, services.clock.now())
    await send_link(services, account, address, "verify", request_language(request), VERIFY_TTL_S)
    return EmailOut(enabled=True, address=address, verified=False)


@router.delete("/api/account/email", status_code=204)
async def delete_email(services: ServicesDep, user: CurrentUser) -> Response:
    """Forget the account's address: no email goes to it any more."""
    email_on(services)
    await services.db.write(emails.remove_email, account_of(user).id)
    return Response(status_code=204)


@router.post("/api/password/forgot", response_model=ForgotOut)
async def forgot(body: ForgotIn, request: Request, services: ServicesDep) -> ForgotOut:
    """Send a reset link (1 h) to the verified address of the account named, or of every
    account with that verified address. The answer is the same whatever is found."""
    email_on(services)
    await services.limits.hit("emails", f"from:{client_address(request)}")
    wanted = body.name_or_email.strip()
    targets: list[tuple[User, str]] = []
    if "@" in wanted:
        address = wanted.lower()
        for user_id in await services.db.run(emails.users_with_verified, address):
            user = await services.db.run(queries.user_by_id, user_id)
            if user is not None:
                targets.append((user, address))
    else:
        user = await services.db.run(queries.user_by_name, wanted)
        if user is not None:
            address_found = await services.db.run(emails.verified_email, user.id)
            if address_found is not None:
                targets.append((user, address_found))
    lang = request_language(request)
    for user, address in targets:
        if user.guest or user.password_hash is None:
            continue
        # Over the limit for this account or address: silently nothing (a refusal would tell).
        if await under_limits(services, [f"user:{user.id}", f"to:{address}"]):
            await send_link(services, user, address, "reset", lang, RESET_TTL_S)
    return ForgotOut(accepted=True)


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
        raise TableError("bad_link", "this link is unknown, used or expired: ask for a new one")
    user = await services.db.run(queries.user_by_id, peeked)
    if user is None:
        raise TableError("bad_link", "this link is unknown, used or expired: ask for a new one")
    problem = password_problem(body.password, user.name, services.settings.min_password_length)
    if problem:
        raise problem
    new_hash = await off_loop(hash_password, body.password)
    outcome, _found = await services.db.write(
        emails.use_link, hashed, "reset", services.clock.now()
    )
    if outcome != "ok":
        raise TableError("bad_link", "this link is unknown, used or expired: ask for a new one")
    # Every session ends, those of whoever knew the old password too (keep nothing).
    await services.db.write(set_password, user.id, new_hash, None)
    await start_session(response, services, user)
    return public(user)
