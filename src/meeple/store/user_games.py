"""The games an account is playing now: the account event stream's first lines.

Like :mod:`meeple.store.queries`, each is a function of an open session, run
with :meth:`meeple.store.database.Database.run`.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from meeple.store.models import GameTable, TableSeat, User

PLAYING = "playing"
"""A table's stored status while its game runs."""


def playing_seats(session: Session, user_id: int) -> list[tuple[str, str, int]]:
    """``(table id, game, seat)`` of every running game ``user_id`` sits at (and has not
    left), oldest first."""
    rows = session.execute(
        select(GameTable.id, GameTable.game, TableSeat.seat)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .where(
            TableSeat.user_id == user_id,
            TableSeat.left.is_(False),
            GameTable.status == PLAYING,
        )
        .order_by(GameTable.created_at, GameTable.id)
    )
    return [(table_id, game, seat) for table_id, game, seat in rows]


LIVE = ("open", "playing")
"""The stored statuses of a live table: waiting for players, or its game running."""


def live_seats(session: Session, user_id: int) -> list[tuple[str, int]]:
    """``(table id, seat)`` of every open or running table ``user_id`` sits at (and has not
    left), oldest first: the tables of the "My games" list and its "your turn" count."""
    rows = session.execute(
        select(GameTable.id, TableSeat.seat)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .where(
            TableSeat.user_id == user_id,
            TableSeat.left.is_(False),
            GameTable.status.in_(LIVE),
        )
        .order_by(GameTable.created_at, GameTable.id)
    )
    return [(table_id, seat) for table_id, seat in rows]


def mark_seen(session: Session, user_id: int, at: float) -> None:
    """Record that ``user_id`` was on the site at ``at`` (``users.last_seen_at``)."""
    session.execute(update(User).where(User.id == user_id).values(last_seen_at=at))
