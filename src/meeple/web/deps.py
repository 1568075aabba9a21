"""FastAPI dependencies: the services, the signed-in user (from the session cookie or a
personal access token), the token's scopes, the address."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from meeple.errors import Code, TableError
from meeple.i18n import LANG_COOKIE, negotiate
from meeple.ratelimit import address_key
from meeple.store.models import User
from meeple.store.sessions import user_of_session
from meeple.web.security import SESSION_COOKIE, bearer_token, token_hash
from meeple.web.services import Services
from meeple.web.token_checks import TokenInfo


def get_services(request: Request) -> Services:
    """The running server's services."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def session_of_cookie(services: Services, cookie: str | None) -> str | None:
    """The token hash of a session cookie whose signature is good (open or not), else ``None``."""
    token = services.signer.loads(cookie) if cookie else None
    return None if token is None else token_hash(token)


async def user_from_cookie(services: Services, cookie: str | None) -> User | None:
    """The user of a session cookie, if its signature is good and its session still open.

    The session is looked up in the store on every request, so signing out
    (or a password change) ends it at once on every server.
    """
    hashed = session_of_cookie(services, cookie)
    if hashed is None:
        return None
    return await services.db.run(user_of_session, hashed, services.clock.now())


ANY_SCOPE = "*"
"""A route any live token may call (who am I)."""

TOKEN_ROUTES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"/api/tables/[^/]+/(record|review|replay|text)"), "games:read"),
    (re.compile(r"/api/users/.*"), "games:read"),
    (re.compile(r"/api/me/tables"), "games:read"),
    (re.compile(r"/api/notifications"), "games:read"),
    (re.compile(r"/api/(tables|quickplay)(/.*)?"), "bot:play"),
    (re.compile(r"/api/(challenges|stream|bots|tournaments)(/.*)?"), "bot:play"),
    (re.compile(r"/api/auth/me"), ANY_SCOPE),
)
"""The routes a token may call and the scope each needs (the first match counts). Any
other route taking the session cookie refuses a token (``token_scope``): a token cannot
make tokens, change the password, delete the account or turn it into a bot."""


def scope_of_path(path: str) -> str | None:
    """The scope a token needs for ``path`` (:data:`ANY_SCOPE`: any), ``None``: no token."""
    for pattern, scope in TOKEN_ROUTES:
        if pattern.fullmatch(path):
            return scope
    return None


def _scope_refusal(scope: str | None) -> TableError:
    if scope is None:
        return Code.TOKEN_SCOPE.error("this route takes the session cookie, not a token")
    return Code.TOKEN_SCOPE.error(scope=scope)


async def user_from_token(services: Services, authorization: str) -> tuple[TokenInfo, User]:
    """The live token of an ``Authorization: Bearer`` header and its user; 401 ``bad_token``
    if it is malformed, unknown or revoked (looked up in the store on every request)."""
    token = bearer_token(authorization)
    found = await services.token_checks.user_of(token_hash(token)) if token else None
    if found is None:
        raise Code.BAD_TOKEN.error()
    return found


def token_of(request: HTTPConnection) -> TokenInfo | None:
    """The personal access token the request was signed in with, if any (after
    :func:`optional_user` ran for it)."""
    info = getattr(request.state, "access_token", None)
    return info if isinstance(info, TokenInfo) else None


async def optional_user(request: Request, services: ServicesDep) -> User | None:
    """The signed-in user (by ``Authorization: Bearer`` if sent, else the session cookie), or
    ``None``. A token must hold the scope its route needs (:data:`TOKEN_ROUTES`). The user
    counts as seen now (:mod:`meeple.web.last_seen`)."""
    authorization = request.headers.get("authorization")
    if authorization is None:
        found = await user_from_cookie(services, request.cookies.get(SESSION_COOKIE))
        if found is not None:
            lang = negotiate(
                request.headers.get("accept-language"), request.cookies.get(LANG_COOKIE)
            )
            await services.last_seen.seen(found.id, lang)
        return found
    info, user = await user_from_token(services, authorization)
    scope = scope_of_path(request.url.path)
    if scope is None or (scope != ANY_SCOPE and scope not in info.scopes):
        raise _scope_refusal(scope)
    request.state.access_token = info
    await services.last_seen.seen(user.id)
    return user


def require_scope(scope: str) -> Callable[..., Awaitable[User]]:
    """A dependency: the signed-in user, whose token (if it came with one) holds ``scope``.

    A session cookie passes every scope check; a token without it is refused with 403
    ``token_scope``; a bad or revoked token 401 ``bad_token``; nobody 401 ``sign_in``.
    """

    async def signed_in_with(
        request: Request, user: Annotated[User | None, Depends(optional_user)]
    ) -> User:
        if user is None:
            raise Code.SIGN_IN.error()
        info = token_of(request)
        if info is not None and scope not in info.scopes:
            raise _scope_refusal(scope)
        return user

    return signed_in_with


async def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    """The signed-in user; 401 if nobody is signed in."""
    if user is None:
        raise Code.SIGN_IN.error()
    return user


async def token_still_valid(services: Services, token_id: str) -> bool:
    """Whether the token ``token_id`` is still live (open streams ask when a revocation is
    announced; the asks of all streams meanwhile share one query)."""
    return await services.token_checks.still_valid(token_id)


def is_bot_account(user: User) -> bool:
    """Whether ``user`` is a bot account (plays through the Bot API, marked BOT)."""
    return bool(user.bot)


OptionalUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(current_user)]


def client_address(request: HTTPConnection) -> str:
    """The client's address (of a request or a WebSocket) as the limits count it: IPv4 as
    it is, IPv6 by its /64 (:func:`~meeple.ratelimit.address_key`).

    uvicorn rewrites it from ``X-Forwarded-For`` only when the peer is one of
    the operator's ``MEEPLE_TRUSTED_PROXIES`` (none by default).
    """
    return address_key(request.client.host) if request.client else "unknown"
