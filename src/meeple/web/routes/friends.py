"""Friends: follow and unfollow an account, the friends list with who is online and playing,
and the notices about followed accounts (docs/server.md, "Friends").

Every route takes the session cookie only: a token, whatever its scopes, is refused
(``token_scope``), since following is a person's choice, not a program's.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from meeple.errors import Code
from meeple.store.models import User
from meeple.web.deps import CurrentUser, ServicesDep, token_of
from meeple.web.friend_schemas import FollowingOut, FollowOut, FriendNoticesIn, FriendNoticesOut
from meeple.web.schemas import ERRORS

router = APIRouter(prefix="/api", tags=["players"], responses=ERRORS)


async def person_signed_in(request: Request, user: CurrentUser) -> User:
    """The account of the session cookie; a token is refused (403 ``token_scope``)."""
    if token_of(request) is not None:
        raise Code.TOKEN_SCOPE.error("this route takes the session cookie, not a token")
    return user


Person = Annotated[User, Depends(person_signed_in)]


@router.put("/users/{name}/follow", response_model=FollowOut)
async def follow(name: str, services: ServicesDep, user: Person) -> Any:
    """Follow the account (or guest) called ``name``; following it already changes nothing.

    Refused: ``sign_in`` (401), ``follow_guest`` (409: a guest follows nobody, it signs up
    first), ``no_player`` (404), ``follow_self`` (400), ``too_many_follows`` (409, with
    ``params.limit``: one follows at most 500 accounts).
    """
    return await services.friends.follow(user, name)


@router.delete("/users/{name}/follow", response_model=FollowOut)
async def unfollow(name: str, services: ServicesDep, user: Person) -> Any:
    """Stop following the account called ``name``; not following it changes nothing."""
    return await services.friends.unfollow(user, name)


@router.get("/me/following", response_model=FollowingOut)
async def following(services: ServicesDep, user: Person) -> Any:
    """The accounts you follow, those online first, then by name: each one's public games
    now (to watch); how many you follow, the most you may, and your notice choices. A guest
    follows nobody: its list is empty."""
    return await services.friends.listing(user)


@router.put("/me/friend-notices", response_model=FriendNoticesOut)
async def friend_notices(body: FriendNoticesIn, services: ServicesDep, user: Person) -> Any:
    """Take or stop the notices about the accounts you follow: ``online`` (one comes online,
    at most once in 3 hours each) and ``tournaments`` (one joins a public tournament); both
    on until stopped. Refused for a guest (``follow_guest``)."""
    choices = {"online": body.online, "tournaments": body.tournaments}
    return await services.friends.choose(user, choices)
