"""The queries behind a player's profile: their finished games, their recent tables and who sat
at them. Each is a function of an open session, run with Database.run like store.queries."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from meeple.store.models import GameTable, TableSeat, User

SeatRow = tuple[TableSeat, str | None]
"""A seat and the name of the user in it (None: a bot or nobody)."""


def finished_games(session: Session, user_id: int) -> list[tuple[str, int, dict[str, Any]]]:
    """``(game, seat, result)`` of every finished game a user sat at."""
    rows = session.execute(
        select(GameTable.game, TableSeat.seat, GameTable.result)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .where(TableSeat.user_id == user_id, GameTable.status == "finished")
    )
    return [(game, seat, result or {}) for game, seat, result in rows]


def tables_of_user(
    session: Session, user_id: int, limit: int = 50
) -> list[tuple[GameTable, list[SeatRow]]]:
    """The tables a user has sat at, newest first, each with its seats in order (and names)."""
    tables = list(
        session.scalars(
            select(GameTable)
            .join(TableSeat, TableSeat.table_id == GameTable.id)
            .where(TableSeat.user_id == user_id)
            .order_by(GameTable.created_at.desc())
            .limit(limit)
        )
    )
    seats: dict[str, list[SeatRow]] = {t.id: [] for t in tables}
    if tables:
        rows = session.execute(
            select(TableSeat, User.name)
            .outerjoin(User, User.id == TableSeat.user_id)
            .where(TableSeat.table_id.in_(list(seats)))
            .order_by(TableSeat.seat)
        )
        for seat, name in rows:
            seats[seat.table_id].append((seat, name))
    return [(t, seats[t.id]) for t in tables]
