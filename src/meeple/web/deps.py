"""FastAPI dependencies: the services, the signed-in user (from the session cookie)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request, WebSocket

from meeple.store import queries
from meeple.store.models import User
from meeple.web.security import SESSION_COOKIE
from meeple.web.services import Services


def get_services(request: Request) -> Services:
    """The running server's services."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


async def user_from_cookie(services: Services, cookie: str | None) -> User | None:
    """The user a session cookie value names, if it is valid and the user exists."""
    if not cookie:
        return None
    user_id = services.signer.loads(cookie)
    if user_id is None:
        return None
    return await services.db.run(queries.user_by_id, user_id)


async def optional_user(request: Request, services: ServicesDep) -> User | None:
    """The signed-in user, or ``None``."""
    return await user_from_cookie(services, request.cookies.get(SESSION_COOKIE))


async def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    """The signed-in user; 401 if nobody is signed in."""
    if user is None:
        raise HTTPException(401, "sign in (or play as a guest) first")
    return user


async def websocket_user(websocket: WebSocket) -> User | None:
    """The user of a WebSocket's session cookie, or ``None`` (a spectator)."""
    services: Services = websocket.app.state.services
    return await user_from_cookie(services, websocket.cookies.get(SESSION_COOKIE))


OptionalUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(current_user)]
