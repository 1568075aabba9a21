"""Accounts: register, log in, log out, play as a guest, and who am I."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, HTTPException, Request, Response

from meeple.store import queries
from meeple.store.models import User
from meeple.web.deps import CurrentUser, OptionalUser, ServicesDep
from meeple.web.schemas import Credentials, UserPublic
from meeple.web.security import (
    SESSION_COOKIE,
    SESSION_MAX_AGE_S,
    hash_password,
    name_problem,
    password_problem,
    verify_password,
)
from meeple.web.services import Services

router = APIRouter(prefix="/api/auth", tags=["accounts"])


def public(user: User) -> UserPublic:
    """The public form of a user."""
    return UserPublic(id=user.id, name=user.name, guest=user.guest)


def set_session(response: Response, services: Services, user: User) -> None:
    """Give the client a signed, HttpOnly, SameSite session cookie for ``user``."""
    response.set_cookie(
        SESSION_COOKIE,
        services.signer.dumps(user.id),
        max_age=SESSION_MAX_AGE_S,
        httponly=True,
        samesite="lax",
        secure=services.settings.cookie_secure,
        path="/",
    )


def check_rate(request: Request, services: Services, what: str) -> None:
    """429 when this address tried ``what`` too often in the last minute."""
    address = request.client.host if request.client else "unknown"
    wait = services.auth_limiter.retry_after(f"{what}:{address}", services.clock.now())
    if wait is not None:
        raise HTTPException(
            429,
            f"too many {what} attempts; try again in {int(wait) + 1} s",
            headers={"Retry-After": str(int(wait) + 1)},
        )


@router.post("/register", status_code=201, response_model=UserPublic)
async def register(
    body: Credentials,
    request: Request,
    response: Response,
    services: ServicesDep,
    user: OptionalUser,
) -> UserPublic:
    """Create an account and sign in; a signed-in guest becomes that account, games kept."""
    check_rate(request, services, "register")
    problem = name_problem(body.name)
    if problem:
        raise HTTPException(422, problem)
    problem = password_problem(body.password, body.name, services.settings.min_password_length)
    if problem:
        raise HTTPException(422, problem)
    password_hash = hash_password(body.password)
    try:
        if user is not None and user.guest:
            account = await services.db.run(
                queries.upgrade_guest, user.id, body.name, password_hash
            )
        else:
            account = await services.db.run(
                queries.create_user, body.name, password_hash, False, services.clock.now()
            )
    except queries.NameTaken as exc:
        raise HTTPException(409, f"the name {body.name!r} is taken") from exc
    set_session(response, services, account)
    return public(account)


@router.post("/login", response_model=UserPublic)
async def login(
    body: Credentials, request: Request, response: Response, services: ServicesDep
) -> UserPublic:
    """Sign in with a name and password."""
    check_rate(request, services, "login")
    user = await services.db.run(queries.user_by_name, body.name)
    if user is None or user.password_hash is None:
        raise HTTPException(401, "wrong name or password")
    if not verify_password(user.password_hash, body.password):
        raise HTTPException(401, "wrong name or password")
    set_session(response, services, user)
    return public(user)


@router.post("/logout", status_code=204)
async def logout(response: Response) -> Response:
    """Sign out (the session cookie is removed)."""
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.status_code = 204
    return response


@router.post("/guest", status_code=201, response_model=UserPublic)
async def guest(response: Response, services: ServicesDep, user: OptionalUser) -> UserPublic:
    """Play at once under a generated name (the signed-in user if there is one)."""
    if user is not None:
        return public(user)
    for _ in range(10):
        name = f"guest-{secrets.token_hex(3)}"
        try:
            account = await services.db.run(
                queries.create_user, name, None, True, services.clock.now()
            )
        except queries.NameTaken:
            continue
        set_session(response, services, account)
        return public(account)
    raise HTTPException(503, "could not find a free guest name; try again")


@router.get("/me", response_model=UserPublic)
async def me(user: CurrentUser) -> UserPublic:
    """The signed-in user."""
    return public(user)
