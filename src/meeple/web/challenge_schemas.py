"""Request and response bodies of the challenge routes and the online bots (docs/bot-api.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from meeple.web.schemas import Input

DeclineReason = Literal["generic", "later", "too_fast", "too_slow", "rated", "casual", "variant"]
"""Why a challenge is declined (as :data:`meeple.tables.lobby.challenges.DECLINE_REASONS`)."""


class ChallengeIn(Input):
    """A challenge to send."""

    to: str = Field(max_length=64, description="the challenged account's name", examples=["ada"])
    game: str = Field(max_length=32, description="the game's name (GET /api/games)")
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="the game's options; players: 2 unless said (seats beyond two get bots)",
    )
    pace: Literal["realtime", "turn"] = "realtime"
    move_seconds: int | None = Field(
        None, description="clock per move: realtime 5-3600 s (60), turn 3600 s-14 days (1 day)"
    )
    rated: bool = False
    fill: Literal["random", "greedy", "strong", "expert"] = Field(
        "greedy", description="the built-in bots' level in the seats beyond the two players'"
    )


class DeclineIn(Input):
    """Why a challenge is declined."""

    reason: DeclineReason = "generic"


class ChallengeParty(BaseModel):
    """An account a challenge is from or to."""

    id: int
    name: str
    bot: bool = Field(description="a bot account")


class ChallengeOut(BaseModel):
    """A challenge as the two accounts see it."""

    model_config = ConfigDict(populate_by_name=True)

    id: str
    from_: ChallengeParty = Field(alias="from")
    to: ChallengeParty
    game: str
    options: dict[str, Any]
    pace: str
    move_seconds: int
    rated: bool
    status: Literal["open", "accepted", "declined", "cancelled", "lapsed"]
    reason: DeclineReason | None = Field(description="why it was declined")
    table_id: str | None = Field(description="the table its accept opened")
    created_at: float
    expires_at: float = Field(description="when it lapses unless answered")


class AcceptOut(BaseModel):
    """The table an accepted challenge opened (both seated; it has started)."""

    table_id: str


class OnlineBotOut(BaseModel):
    """A bot account with its event stream open."""

    id: int
    name: str
    accept: list[str] | None = Field(description="the games it takes, if it said (None: not said)")
