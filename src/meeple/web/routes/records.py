"""Finished games: their record (the format the CLI replays) and a replay, step by step."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from meeple.analysis.features import reviewer_of
from meeple.errors import Code, TableError
from meeple.store import queries
from meeple.tables.facade import check_finished, standing_actions
from meeple.web.deps import OptionalUser, ServicesDep
from meeple.web.routes.tables import find
from meeple.web.schemas import ERRORS, RecordOut, ReplayStep, ResultOut, ReviewOut

router = APIRouter(prefix="/api/tables", tags=["records"], responses=ERRORS)


@router.get("/{table_id}/record", response_model=RecordOut)
async def record(
    table_id: str, services: ServicesDep, user: OptionalUser, invite: str | None = None
) -> dict[str, Any]:
    """The game record ``{game, options, seed, actions}``, once the game is over."""
    await find(services, table_id, user, invite)
    game_record = await services.tables.record(table_id)
    return game_record.to_json()


@router.get("/{table_id}/review", response_model=ReviewOut)
async def review(
    table_id: str, services: ServicesDep, user: OptionalUser, invite: str | None = None
) -> dict[str, Any]:
    """The finished game's review: per action the best move and the points missed, and a
    summary per player. Made in the background after the game: ``not_reviewed`` (404)
    until it is ready."""
    table = await find(services, table_id, user, invite)
    check_finished(table)
    stored = await services.db.run(queries.review_of, table_id)
    if stored is None:
        if reviewer_of(table.info.game) is None:
            raise TableError(
                Code.NOT_REVIEWED,
                f"{table.info.game} games are not reviewed",
                reason="not_reviewed_game",
                params={"game": table.info.game},
            )
        services.reviewer.schedule(table_id, table.info.game, table.info.private)
        raise Code.NOT_REVIEWED.error()
    return {"table_id": table_id, **stored.data}


@router.get("/{table_id}/replay", response_model=ReplayStep)
async def replay_step(
    table_id: str,
    services: ServicesDep,
    user: OptionalUser,
    step: int = Query(0, ge=0, description="0 is the deal; n is after the n-th action"),
    seat: int | None = Query(None, description="whose view to show; none: the spectator view"),
    invite: str | None = None,
) -> ReplayStep:
    """The position after ``step`` actions of a finished game, seen from ``seat``."""
    table = await find(services, table_id, user, invite)
    check_finished(table)
    # The game as it stands, kept by the table (no replay here): a takeback's undone moves
    # are not in it.
    states = table.snap.played_states
    if step >= len(states):
        raise TableError(Code.INVALID, f"this game has steps 0 to {len(states) - 1}")
    if seat is not None and not 0 <= seat < table.info.seat_count:
        raise TableError(Code.INVALID, f"there is no seat {seat}")
    actions = standing_actions(table.events)
    action = None
    events: list[Any] = []
    if step > 0:
        taken = actions[step - 1]
        action = [taken.seat, taken.data["action"]]
        events = list(taken.data.get("events", []))
    result = table.game.result(states[step])
    return ReplayStep(
        step=step,
        steps=len(states) - 1,
        seat=seat,
        action=action,
        events=events,
        view=dict(table.game.view(states[step], seat)),
        result=ResultOut.model_validate(result.to_json()) if result else None,
    )
