"""Rated games written straight into a store, rated by the server's own code
(:func:`meeple.tables.core.persist.rate_game`): a rating history in milliseconds, for the
tests of what marking a cheater does to it."""

from __future__ import annotations

from sqlalchemy.orm import Session

from meeple.games.base import Result
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import GameTable
from meeple.tables.core.log import SeatInfo, Snapshot
from meeple.tables.core.persist import rate_game

GAME = "slide"


def account(db: Database, name: str) -> int:
    """A new account's id."""
    return db.call(lambda s: queries.create_user(s, name, "hash", False, 1.0).id)


def rated_game(db: Database, table_id: str, ranks: dict[int, int], at: float) -> None:
    """A finished rated table of ``GAME`` whose players (by seat, in the order given) finished
    with these ranks, rated as the server rates a finished game."""
    seats = tuple(SeatInfo(seat, user_id=uid) for seat, uid in enumerate(ranks))
    result = Result(scores=tuple(0 for _ in ranks), ranks=tuple(ranks.values()), reason="done")

    def write(session: Session) -> None:
        creator = next(iter(ranks))
        session.add(
            GameTable(
                id=table_id,
                game=GAME,
                options={},
                seed=1,
                seat_count=len(ranks),
                private=False,
                invite_token="x",
                rated=True,
                pace="realtime",
                move_seconds=60,
                creator_id=creator,
                status="finished",
                created_at=at,
                finished_at=at,
                result=result.to_json(),
            )
        )
        session.flush()
        rate_game(
            session, table_id, GAME, Snapshot(status="finished", seats=seats, result=result), at
        )

    db.call(write)
