"""FastAPI dependencies: the services, the signed-in user (from the session cookie), the address."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from meeple.store.models import User
from meeple.store.sessions import user_of_session
from meeple.tables.errors import TableError
from meeple.web.security import SESSION_COOKIE, token_hash
from meeple.web.services import Services


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


async def optional_user(request: Request, services: ServicesDep) -> User | None:
    """The signed-in user, or ``None``."""
    return await user_from_cookie(services, request.cookies.get(SESSION_COOKIE))


async def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    """The signed-in user; 401 if nobody is signed in."""
    if user is None:
        raise TableError("sign_in", "sign in (or play as a guest) first")
    return user


OptionalUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(current_user)]


def client_address(request: HTTPConnection) -> str:
    """The client's address (of a request or a WebSocket), as uvicorn gives it.

    uvicorn rewrites it from ``X-Forwarded-For`` only when the peer is one of
    the operator's ``MEEPLE_TRUSTED_PROXIES`` (none by default).
    """
    return request.client.host if request.client else "unknown"
