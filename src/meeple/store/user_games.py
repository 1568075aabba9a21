"""The games an account is playing now: the account event stream's first lines.

Like :mod:`meeple.store.queries`, each is a function of an open session, run
with :meth:`meeple.store.database.Database.run`.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select, update
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


_LIVE_SEATS = (
    select(TableSeat.user_id, GameTable.id, TableSeat.seat)
    .join(TableSeat, TableSeat.table_id == GameTable.id)
    .where(
        TableSeat.user_id.in_(bindparam("user_ids", expanding=True)),
        TableSeat.left.is_(False),
        GameTable.status.in_(LIVE),
    )
    .order_by(GameTable.created_at, GameTable.id)
)
"""The live seats of some accounts: built once, the accounts a bound list. Built per call, the
statement coerced each id to a literal every time, the "your turn" counts' busiest frame."""


def live_seats_of(session: Session, user_ids: list[int]) -> dict[int, list[tuple[str, int]]]:
    """``(table id, seat)`` of every open or running table each account sits at (and has not
    left), oldest first, by account (an account that sits at no live table is absent): the
    tables of the "My games" list and its "your turn" count, for many accounts in one query."""
    rows = session.execute(_LIVE_SEATS, {"user_ids": user_ids})
    seats: dict[int, list[tuple[str, int]]] = {}
    for user_id, table_id, seat in rows:
        assert user_id is not None  # the query asked for these accounts only
        seats.setdefault(user_id, []).append((table_id, seat))
    return seats


def mark_seen(session: Session, user_id: int, at: float) -> float | None:
    """Record that ``user_id`` was on the site at ``at`` (``users.last_seen_at``); when it was
    seen before (``None``: never), which tells whether it has just come back."""
    before = session.scalar(select(User.last_seen_at).where(User.id == user_id))
    session.execute(update(User).where(User.id == user_id).values(last_seen_at=at))
    return before
