"""Accounts: register, log in, log out, change the password, play as a guest, who am I.

A session is a row in the store named by a random token; the cookie carries
the token, signed. Logging out deletes that row; a password change deletes
every other session of the account. Password hashing runs off the event loop,
and a log-in with an unknown name does the same work as one with a known name.
"""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request, Response

from meeple.errors import Code, TableError
from meeple.store import queries
from meeple.store.accounts import unrated_tables_of
from meeple.store.models import User
from meeple.store.names import shown_name
from meeple.store.sessions import end_session, open_session, rehash_password, set_password
from meeple.tables.facade import commands
from meeple.web.deps import CurrentUser, OptionalUser, ServicesDep, client_address
from meeple.web.errors import busy_answer
from meeple.web.schemas import ERRORS, Credentials, PasswordChange, UserPublic
from meeple.web.security import (
    SESSION_COOKIE,
    SESSION_MAX_AGE_S,
    check_password,
    hash_password,
    name_problem,
    new_session_token,
    off_loop,
    password_problem,
    token_hash,
)
from meeple.web.services import Services

router = APIRouter(prefix="/api/auth", tags=["accounts"], responses=ERRORS)


def public(user: User) -> UserPublic:
    """The public form of a user."""
    return UserPublic(id=user.id, name=user.name, guest=user.guest, bot=bool(user.bot))


async def start_session(
    response: Response, services: Services, user: User, address: str | None = None
) -> None:
    """Open a new session for ``user`` and give the client its signed, HttpOnly cookie; 403
    ``account_closed`` for an account a moderator closed. The session keeps ``address`` (the
    client's, :func:`client_address`) as a keyed hash only (docs/moderation.md, Addresses)."""
    await services.moderation.check_sign_in(user)
    token = new_session_token()
    now = services.clock.now()
    hashed = services.moderation.address_hash(address) if address is not None else None
    expires = now + SESSION_MAX_AGE_S
    await services.db.run(open_session, user.id, token_hash(token), now, expires, hashed)
    response.set_cookie(
        SESSION_COOKIE,
        services.signer.dumps(token),
        max_age=SESSION_MAX_AGE_S,
        httponly=True,
        samesite="lax",
        secure=services.settings.cookie_secure,
        path="/",
    )


def current_token(request: Request, services: Services) -> str | None:
    """The session token of this request's cookie, if its signature is good."""
    cookie = request.cookies.get(SESSION_COOKIE)
    return services.signer.loads(cookie) if cookie else None


@router.post("/register", status_code=201, response_model=UserPublic)
async def register(
    body: Credentials,
    request: Request,
    response: Response,
    services: ServicesDep,
    user: OptionalUser,
) -> UserPublic:
    """Create an account and sign in; a signed-in guest becomes that account, games kept.

    The name is kept as typed but in NFKC (fullwidth ``Ｂｏｂ`` becomes ``Bob``),
    and is taken if another has the same normal form (``bob``, ``BOB``).
    """
    await services.limits.hit("register", client_address(request))
    name = shown_name(body.name)
    problem = name_problem(name) or password_problem(
        body.password, name, services.settings.min_password_length
    )
    if problem:
        raise problem
    password_hash = await off_loop(hash_password, body.password)
    try:
        if user is not None and user.guest:
            account = await services.db.run(queries.upgrade_guest, user.id, name, password_hash)
        else:
            account = await services.db.run(
                queries.create_user, name, password_hash, False, services.clock.now()
            )
    except queries.NameTaken as exc:
        shown = repr(name)
        raise Code.NAME_TAKEN.error(name=shown) from exc
    await start_session(response, services, account, client_address(request))
    return public(account)


@router.post("/login", response_model=UserPublic)
async def login(
    body: Credentials,
    request: Request,
    response: Response,
    services: ServicesDep,
    signed_in: OptionalUser,
) -> UserPublic:
    """Sign in with a name and password; the name in any case or width (``bob`` is ``Bob``).

    A guest signing in keeps their unrated games, as signing up does: each seat
    becomes the account's (:func:`claim_guest_games`)."""
    await services.limits.hit("login", client_address(request))
    user = await services.db.run(queries.user_by_name, body.name)
    stored = user.password_hash if user is not None else None
    check = await off_loop(check_password, stored, body.password)
    if user is None or not check.ok:
        raise Code.WRONG_PASSWORD.error()
    if check.new_hash is not None and stored is not None:
        await services.db.run(rehash_password, user.id, stored, check.new_hash)
    await services.moderation.check_sign_in(user)  # before a guest's games move to it
    if signed_in is not None and signed_in.guest and signed_in.id != user.id:
        await claim_guest_games(services, signed_in, user)
    await start_session(response, services, user, client_address(request))
    return public(user)


async def claim_guest_games(services: Services, guest: User, account: User) -> None:
    """The guest's unrated tables become the account's, finished or not: at each, a ``claim``
    event gives the guest's seat to the account (none where the account sits already). A
    rated game stays the guest's, with the rating it moved: two ratings do not merge."""
    for table_id in await services.db.run(unrated_tables_of, guest.id):
        try:
            table = await services.tables.get(table_id)
            await services.tables.writes.run(
                table, commands.Claim(guest.id, account.id, account.name)
            )
        except TableError:
            continue  # a table gone meanwhile: nothing to keep


@router.post("/logout", status_code=204)
async def logout(request: Request, response: Response, services: ServicesDep) -> Response:
    """Sign out: this session ends on every server, and the cookie is removed.

    Only a session cookie that came with the request is ended and removed: a
    request without one (a form on another site, which the browser sends
    without this site's cookie) removes nothing, as its ``Set-Cookie`` would
    still apply and sign the visitor out (a guest for good).
    """
    token = current_token(request, services)
    if token is not None:
        user = await services.session_checks.user_of(token_hash(token))
        await services.db.run(end_session, token_hash(token))
        if user is not None:  # its streams end at once, on every server
            await services.revocations.announce(user.id)
        response.delete_cookie(SESSION_COOKIE, path="/")
    response.status_code = 204
    return response


@router.post("/password", status_code=204)
async def change_password(
    body: PasswordChange,
    request: Request,
    response: Response,
    services: ServicesDep,
    user: CurrentUser,
) -> Response:
    """Change the password; every other session of the account ends (this one stays)."""
    await services.limits.hit("login", client_address(request))
    if user.password_hash is None:
        raise Code.GUEST_NO_PASSWORD.error()
    check = await off_loop(check_password, user.password_hash, body.current_password)
    if not check.ok:
        raise Code.WRONG_PASSWORD.error()
    problem = password_problem(body.new_password, user.name, services.settings.min_password_length)
    if problem:
        raise problem
    new_hash = await off_loop(hash_password, body.new_password)
    token = current_token(request, services)
    keep = token_hash(token) if token is not None else None
    await services.db.run(set_password, user.id, new_hash, keep)
    await services.revocations.announce(user.id)
    response.status_code = 204
    return response


@router.post("/guest", status_code=201, response_model=UserPublic)
async def guest(
    request: Request, response: Response, services: ServicesDep, user: OptionalUser
) -> UserPublic:
    """Play at once under a generated name (the signed-in user if there is one)."""
    if user is not None:
        return public(user)
    await services.limits.hit("guest", client_address(request))
    for _ in range(10):
        name = f"guest-{secrets.token_hex(3)}"
        try:
            account = await services.db.run(
                queries.create_user, name, None, True, services.clock.now()
            )
        except queries.NameTaken:
            continue
        await start_session(response, services, account, client_address(request))
        return public(account)
    return busy_answer("could not find a free guest name; try again")  # type: ignore[return-value]


@router.get("/me", response_model=UserPublic | None)
async def me(user: OptionalUser) -> UserPublic | None:
    """The signed-in user, or ``null`` for nobody (not an error: every anonymous page asks)."""
    return None if user is None else public(user)
