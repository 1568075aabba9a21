"""Tournaments over REST (docs/tournaments.md, "The API"): create, list, read with standings,
join, withdraw, pause, cancel, pairings. A person signs in with the session cookie; a
program sends a token with ``bot:play``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends

from meeple.store.models import User
from meeple.tables.facade import TournamentAsk
from meeple.web.deps import OptionalUser, ServicesDep, require_scope
from meeple.web.schemas import ERRORS
from meeple.web.tournament_schemas import (
    BotsIn,
    PauseIn,
    RoundOut,
    TournamentDetailOut,
    TournamentIn,
    TournamentJoinIn,
    TournamentOut,
)

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"], responses=ERRORS)

Player = Annotated[User, Depends(require_scope("bot:play"))]
"""The signed-in account, by the session cookie or a token holding ``bot:play``."""


@router.post("", status_code=201, response_model=TournamentDetailOut)
async def create_tournament(body: TournamentIn, services: ServicesDep, user: Player) -> Any:
    """Create a tournament (the creator does not join by that)."""
    ask = TournamentAsk(**body.model_dump())
    return await services.tournaments.create(user, ask)


@router.get("", response_model=list[TournamentOut])
async def list_tournaments(
    services: ServicesDep, status: Literal["scheduled", "running", "finished"] = "scheduled"
) -> Any:
    """Public tournaments in ``status``, the soonest start first (finished ones: the last
    finished first), at most 100."""
    return await services.tournaments.listing(status)


@router.get("/{tournament_id}", response_model=TournamentDetailOut)
async def get_tournament(
    tournament_id: str, services: ServicesDep, user: OptionalUser, secret: str | None = None
) -> Any:
    """A tournament with its standings (a private one: with its ``secret``, or to its
    creator and entrants)."""
    return await services.tournaments.get(user, tournament_id, secret)


@router.get("/{tournament_id}/pairings", response_model=list[RoundOut])
async def tournament_pairings(
    tournament_id: str, services: ServicesDep, user: OptionalUser, secret: str | None = None
) -> Any:
    """Every round paired (an arena: every pass), newest first."""
    return await services.tournaments.pairings(user, tournament_id, secret)


@router.post("/{tournament_id}/join", response_model=TournamentDetailOut)
async def join_tournament(
    tournament_id: str, services: ServicesDep, user: Player, body: TournamentJoinIn | None = None
) -> Any:
    """Join (again, after a withdrawal) before or during the tournament."""
    secret = body.secret if body is not None else None
    return await services.tournaments.join(user, tournament_id, secret)


@router.post("/{tournament_id}/withdraw", response_model=TournamentDetailOut)
async def withdraw_from_tournament(tournament_id: str, services: ServicesDep, user: Player) -> Any:
    """Leave: not paired again; games played still count."""
    return await services.tournaments.withdraw(user, tournament_id)


@router.post("/{tournament_id}/pause", response_model=TournamentDetailOut)
async def pause_in_tournament(
    tournament_id: str, body: PauseIn, services: ServicesDep, user: Player
) -> Any:
    """Pause (not paired until resumed) or resume, in either format."""
    return await services.tournaments.pause(user, tournament_id, body.paused)


@router.post("/{tournament_id}/bots", response_model=TournamentDetailOut)
async def add_tournament_bots(
    tournament_id: str, body: BotsIn, services: ServicesDep, user: Player
) -> Any:
    """The creator fills a casual (unrated) tournament with built-in bots."""
    return await services.tournaments.add_bots(user, tournament_id, body.level, body.count)


@router.post("/{tournament_id}/cancel", response_model=TournamentDetailOut)
async def cancel_tournament(tournament_id: str, services: ServicesDep, user: Player) -> Any:
    """The creator cancels the tournament before its start."""
    return await services.tournaments.cancel(user, tournament_id)
