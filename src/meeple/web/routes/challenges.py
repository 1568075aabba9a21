"""Challenges between accounts, and the bot accounts online now (docs/bot-api.md).

A person (session cookie) or a program (a token with ``bot:play``) challenges
a named account; the challenged one accepts (a table opens with both seated
and starts) or declines with a reason; the challenger may cancel. Every change
reaches both accounts' event streams.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from meeple.store.models import User
from meeple.tables.facade import ChallengeAsk
from meeple.web.challenge_schemas import (
    AcceptOut,
    ChallengeIn,
    ChallengeOut,
    DeclineIn,
    OnlineBotOut,
)
from meeple.web.deps import ServicesDep, require_scope
from meeple.web.schemas import ERRORS, ErrorOut

router = APIRouter(prefix="/api", tags=["bot api"], responses=ERRORS)

Player = Annotated[User, Depends(require_scope("bot:play"))]
"""The signed-in account, by the session cookie or a token holding ``bot:play``."""


@router.post(
    "/challenges",
    status_code=201,
    response_model=ChallengeOut,
    responses={429: {"model": ErrorOut, "description": "too many challenges sent: wait"}},
)
async def send_challenge(body: ChallengeIn, services: ServicesDep, user: Player) -> Any:
    """Challenge the account named ``to``: 429 ``rate_limited`` beyond
    ``MEEPLE_LIMIT_CHALLENGES``; 409 ``too_many_challenges`` when the sender already has
    ``MEEPLE_MAX_CHALLENGES_SENT`` open, ``player_too_many_challenges`` when ``to`` has
    ``MEEPLE_MAX_CHALLENGES_RECEIVED``."""
    await services.limits.hit("challenges", str(user.id))
    ask = ChallengeAsk(
        to=body.to,
        game=body.game,
        options=body.options,
        pace=body.pace,
        move_seconds=body.move_seconds,
        rated=body.rated,
        fill=body.fill,
    )
    return await services.challenges.send(user, ask)


@router.get("/challenges", response_model=list[ChallengeOut])
async def open_challenges(services: ServicesDep, user: Player) -> Any:
    """The open challenges to and from the account, oldest first."""
    return await services.challenges.open_of(user)


@router.get("/challenges/{challenge_id}", response_model=ChallengeOut)
async def get_challenge(challenge_id: str, services: ServicesDep, user: Player) -> Any:
    """One challenge to or from the account, whatever its status (the page waiting on it)."""
    return await services.challenges.get(user, challenge_id)


@router.post("/challenges/{challenge_id}/accept", response_model=AcceptOut)
async def accept_challenge(challenge_id: str, services: ServicesDep, user: Player) -> AcceptOut:
    """Accept a challenge to the account: a table opens with both seated and starts."""
    return AcceptOut(table_id=await services.challenges.accept(user, challenge_id))


@router.post("/challenges/{challenge_id}/decline", response_model=ChallengeOut)
async def decline_challenge(
    challenge_id: str, services: ServicesDep, user: Player, body: DeclineIn | None = None
) -> Any:
    """Decline a challenge to the account, saying why."""
    reason = body.reason if body is not None else "generic"
    return await services.challenges.decline(user, challenge_id, reason)


@router.post("/challenges/{challenge_id}/cancel", response_model=ChallengeOut)
async def cancel_challenge(challenge_id: str, services: ServicesDep, user: Player) -> Any:
    """Take back a challenge the account sent."""
    return await services.challenges.cancel(user, challenge_id)


@router.get("/bots/online", response_model=list[OnlineBotOut])
async def online_bots(services: ServicesDep) -> Any:
    """The bot accounts with an event stream open now, by name ("Play a bot" lists them)."""
    return await services.online_bots.listing()
