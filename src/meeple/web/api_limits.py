"""The Bot API's per-token request limit: ``MEEPLE_LIMIT_API`` per token, or per account
for requests with the session cookie (docs/bot-api.md, Limits)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from meeple.store.models import User
from meeple.web.deps import ServicesDep, require_scope, token_of


def api_key(request: Request, user: User) -> str:
    """What the request's limits count against: its token, else its account."""
    token = token_of(request)
    return f"token:{token.id}" if token is not None else f"user:{user.id}"


async def api_player(
    request: Request,
    services: ServicesDep,
    user: Annotated[User, Depends(require_scope("bot:play"))],
) -> User:
    """The signed-in account (a token must hold ``bot:play``), counted against the API limit:
    429 ``rate_limited`` beyond it."""
    await services.limits.hit("api", api_key(request, user))
    return user


ApiPlayer = Annotated[User, Depends(api_player)]
"""A Bot API route's account: by a token with ``bot:play`` or the cookie, within the limit."""
