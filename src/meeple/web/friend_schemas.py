"""Request and response bodies of the friends routes (docs/server.md, "Friends")."""

from __future__ import annotations

from pydantic import BaseModel, Field

from meeple.web.schemas import Input


class FollowOut(BaseModel):
    """Whether the account now follows ``name``, and how many it follows."""

    name: str = Field(description="the account's name as it spells it")
    following: bool
    count: int = Field(description="how many accounts the signed-in one follows now")
    limit: int = Field(description="the most it may follow")


class PlayingOut(BaseModel):
    """A public game a followed account plays now: its table, to watch."""

    table_id: str
    game: str


class FriendOut(BaseModel):
    """An account the signed-in one follows."""

    name: str
    bot: bool = Field(description="a bot account")
    guest: bool = Field(description="a guest (followed under its guest name)")
    since: float = Field(description="when it was followed, in seconds since the epoch")
    online: bool = Field(
        description="on the site now: a page open (seen in the last 90 s), or a bot's stream"
    )
    playing: list[PlayingOut] = Field(
        description="the public games it plays now (a private table is never named)"
    )


class FriendNoticesOut(BaseModel):
    """Which notices about followed accounts the account takes."""

    online: bool = Field(description="a followed account comes online (once in 3 hours each)")
    tournaments: bool = Field(description="a followed account joins a public tournament")


class FriendNoticesIn(Input):
    """The notices to take (true) or stop (false); a field left out keeps its choice."""

    online: bool | None = None
    tournaments: bool | None = None


class FollowingOut(BaseModel):
    """The accounts the signed-in one follows (online first, then by name), and its choices."""

    friends: list[FriendOut]
    count: int
    limit: int = Field(description="the most one may follow")
    notices: FriendNoticesOut
