"""One's own account: what the site holds about you, signing out everywhere, deleting it.

Changing the password is ``POST /api/auth/password`` (:mod:`meeple.web.routes.auth`).
Deleting needs the password again, and keeps the account's games under an
anonymous name (``deleted player 1a2b3c``): a name no one can sign up with,
while the old name is free for anyone. A guest has no account to manage
here: it signs up first (its games are kept).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from meeple.errors import Code
from meeple.store import accounts, queries
from meeple.store.models import User
from meeple.store.sessions import end_all_sessions
from meeple.web.deps import CurrentUser, ServicesDep, client_address
from meeple.web.routes.auth import public
from meeple.web.schemas import ERRORS, Input, UserPublic
from meeple.web.security import SESSION_COOKIE, check_password, off_loop

router = APIRouter(prefix="/api/account", tags=["accounts"], responses=ERRORS)

ANONYMOUS_PREFIX = "deleted player "
"""A deleted account's name starts so; the space keeps it out of anyone's reach at sign-up."""


class AccountDeletion(Input):
    """The password, asked again before the account goes."""

    password: str = Field(max_length=1024)


class AccountOut(BaseModel):
    """The account itself."""

    id: int
    name: str
    guest: bool
    created_at: float = Field(description="seconds since the epoch")


class ExportRating(BaseModel):
    """A rating in one game (openskill ``mu`` and ``sigma``)."""

    game: str
    mu: float
    sigma: float
    games: int
    wins: int


class ExportRatingChange(BaseModel):
    """The rating after one rated game."""

    game: str
    table_id: str
    mu: float
    sigma: float
    rank: int
    at: float


class ExportGame(BaseModel):
    """A table the player sat at: which seat, how it went."""

    id: str
    game: str
    seat: int
    status: str
    rated: bool
    private: bool
    created_at: float
    finished_at: float | None
    result: dict[str, Any] | None


class ExportChat(BaseModel):
    """A chat line the player wrote."""

    table_id: str
    at: float
    text: str | None


class ExportPuzzleAttempt(BaseModel):
    """The first answer to a puzzle."""

    puzzle_id: str
    correct: bool
    at: float


class ExportEmail(BaseModel):
    """The account's email address and when it was verified (``None``: not yet)."""

    address: str
    verified_at: float | None


class ExportPuzzleRating(BaseModel):
    """The puzzle rating."""

    mu: float
    sigma: float
    attempts: int
    solved: int


class AccountExport(BaseModel):
    """Everything the site holds about the player; never a password hash or a session token."""

    account: AccountOut
    ratings: list[ExportRating]
    rating_history: list[ExportRatingChange]
    games: list[ExportGame]
    chat: list[ExportChat]
    puzzle_attempts: list[ExportPuzzleAttempt]
    puzzle_rating: ExportPuzzleRating | None
    open_sessions: int = Field(description="sessions signed in now, this one included")
    email: ExportEmail | None = None
    following: list[str] = Field(default_factory=list, description="the accounts it follows")


def account_holder(user: User) -> User:
    """The user, if it is an account; a guest is refused (it signs up first)."""
    if user.guest:
        raise Code.GUEST_NO_ACCOUNT.error()
    return user


@router.get("", response_model=AccountExport)
async def export(
    services: ServicesDep, user: CurrentUser, response: Response, download: bool = False
) -> AccountExport:
    """Everything the site holds about you, as JSON; ``download=true`` to save it as a file.

    The account, ratings and their history, every table you sat at with its
    result, your chat lines, puzzle answers, how many sessions are open and whom you follow.
    """
    data = await services.db.run(accounts.account_data, user.id, services.clock.now())
    if download:
        response.headers["Content-Disposition"] = (
            f'attachment; filename="meeple-account-{user.id}.json"'
        )
    return AccountExport.model_validate(data)


@router.post("/signout-everywhere", status_code=204)
async def sign_out_everywhere(
    services: ServicesDep, user: CurrentUser, response: Response
) -> Response:
    """End every session of your account, this one too: each device must sign in again.

    Sockets of those sessions stop acting for you within seconds.
    """
    account_holder(user)
    await services.db.run(end_all_sessions, user.id)
    await services.revocations.announce(user.id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.status_code = 204
    return response


@router.post("/delete", response_model=UserPublic)
async def delete_account(
    body: AccountDeletion,
    request: Request,
    response: Response,
    services: ServicesDep,
    user: CurrentUser,
) -> UserPublic:
    """Delete your account (password asked again): you are signed out everywhere.

    Your games, results and ratings history stay, under an anonymous name (the
    answer); your name is free for anyone, and you can no longer sign in.
    Refused while you hold a seat at a table that is not over (leave it first).
    """
    await services.limits.hit("login", client_address(request))
    account_holder(user)
    check = await off_loop(check_password, user.password_hash, body.password)
    if not check.ok:
        raise Code.WRONG_PASSWORD.error()
    tables = await services.db.run(accounts.unfinished_tables, user.id)
    if tables:
        raise Code.ACCOUNT_IN_GAME.error(count=len(tables), tables=list(tables[:10]))
    now = services.clock.now()
    for _ in range(10):
        anonymous = ANONYMOUS_PREFIX + secrets.token_hex(3)
        try:
            gone = await services.db.run(accounts.delete_account, user.id, anonymous, now)
        except queries.NameTaken:
            continue
        await services.revocations.announce(user.id)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return public(gone)
    raise Code.CONFLICT.error("could not find a free anonymous name; try again")
