"""Personal access tokens and bot accounts (docs/bot-api.md, "Tokens" and "Bot accounts").

A token is made, listed and revoked with the session cookie only (a token
cannot make tokens: :data:`meeple.web.deps.TOKEN_ROUTES` leaves these routes
out); it is shown once, when made, and the store keeps only its hash.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field, field_validator

from meeple.errors import Code
from meeple.store.tokens import add_token, has_sat_down, make_bot_account, revoke_token, tokens_of
from meeple.web.deps import CurrentUser, ServicesDep
from meeple.web.routes.account import account_holder
from meeple.web.routes.auth import public
from meeple.web.schemas import ERRORS, Input, UserPublic
from meeple.web.security import new_access_token, token_hash

router = APIRouter(prefix="/api/account", tags=["bot api"], responses=ERRORS)

MAX_TOKENS = 20
"""Live tokens an account may hold at once."""

Scope = Literal["bot:play", "games:read"]


class TokenIn(Input):
    """A new token: a label to know it by, and what it may do."""

    label: str = Field(min_length=1, max_length=64, examples=["my bot"])
    scopes: list[Scope] = Field(min_length=1, max_length=2, examples=[["bot:play"]])

    @field_validator("label")
    @classmethod
    def _label_shown(cls, label: str) -> str:
        label = " ".join(label.split())
        if not label:
            raise ValueError("the label is empty")
        return label


class TokenOut(BaseModel):
    """A live token, without the token itself."""

    id: str
    label: str
    scopes: list[str]
    created_at: float = Field(description="seconds since the epoch")
    last_used_at: float | None = Field(description="when last used, to a minute")


class NewTokenOut(TokenOut):
    """A token just made: the only answer that carries the token."""

    token: str = Field(description="send as 'Authorization: Bearer <token>'; shown only now")


@router.post("/tokens", status_code=201, response_model=NewTokenOut)
async def make_token(body: TokenIn, services: ServicesDep, user: CurrentUser) -> NewTokenOut:
    """Make a personal access token with these scopes: the answer is the only time it shows."""
    account_holder(user)
    held = await services.db.run(tokens_of, user.id)
    if len(held) >= MAX_TOKENS:
        raise Code.TOO_MANY_TOKENS.error(count=MAX_TOKENS)
    token, token_id = new_access_token()
    scopes: list[str] = sorted(set(body.scopes))
    row = await services.db.run(
        add_token, token_id, token_hash(token), user.id, body.label, scopes, services.clock.now()
    )
    return NewTokenOut(
        id=row.id,
        label=row.label,
        scopes=scopes,
        created_at=row.created_at,
        last_used_at=None,
        token=token,
    )


@router.get("/tokens", response_model=list[TokenOut])
async def list_tokens(services: ServicesDep, user: CurrentUser) -> list[TokenOut]:
    """Your live tokens, newest first (never the tokens themselves)."""
    return [
        TokenOut(
            id=t.id,
            label=t.label,
            scopes=t.scopes.split(),
            created_at=t.created_at,
            last_used_at=t.last_used_at,
        )
        for t in await services.db.run(tokens_of, user.id)
    ]


@router.delete("/tokens/{token_id}", status_code=204)
async def revoke(token_id: str, services: ServicesDep, user: CurrentUser) -> Response:
    """Revoke a token: the next request with it, on any server, is refused (401 bad_token)."""
    if not await services.db.run(revoke_token, user.id, token_id[:16]):
        raise Code.NO_TOKEN.error()
    await services.revocations.announce(user.id)  # its streams end at once, on every server
    return Response(status_code=204)


@router.post("/bot", response_model=UserPublic)
async def become_bot(services: ServicesDep, user: CurrentUser) -> UserPublic:
    """Turn your account into a bot account: one way, and only before it has played.

    Refused (409 ``has_played``) once the account has taken a seat at any table
    as a person; a guest has no account to turn (409 ``guest_no_account``). A
    bot account plays through the Bot API only and shows with a BOT mark.
    """
    account_holder(user)
    if user.bot:
        return public(user)
    if await services.db.run(has_sat_down, user.id):
        raise Code.HAS_PLAYED.error()
    return public(await services.db.run(make_bot_account, user.id))
