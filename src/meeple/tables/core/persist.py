"""Storing a table event: one transaction with the table's row cache and, at the end, ratings.

The writes run in the database's threads (through ``Database.write_event``); they
only read the snapshots they are given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from meeple.store import queries
from meeple.store.models import Rating, RatingChange, TableSeat
from meeple.store.moderation import cheaters_among
from meeple.tables.core.log import LogEvent, SeatInfo, Snapshot
from meeple.tables.core.ratings import MODEL, RatedSeat, new_ratings, rating_ranks


def event_changes(
    table_id: str, game: str, rated: bool, event: LogEvent, old: Snapshot, new: Snapshot
) -> Callable[[Session], None] | None:
    """What storing ``event`` changes besides its own row, as a write of a session: the
    table's row cache and its seats' where they changed, and the players' ratings when a
    rated game ends (unless it ended aborted, before it began). ``None`` when it changes
    nothing else, as most moves: their rows alone are then stored on the quicker path
    (:meth:`~meeple.store.database.Database.write_event`)."""
    row = table_row_fields(new)
    row_changed = row != table_row_fields(old)
    seats = [seat_row(table_id, s) for s in new.seats] if new.seats != old.seats else []
    rates = event.kind == "finish" and rated and not new.aborted
    if not (row_changed or seats or rates):
        return None

    def store(session: Session) -> None:
        if row_changed:
            queries.update_table(session, table_id, row)
        if seats:
            queries.update_seats(session, seats)
        if rates:
            rate_game(session, table_id, game, new, event.at)

    return store


def rate_game(session: Session, table_id: str, game: str, final: Snapshot, at: float) -> None:
    """Update the players' ratings after a rated game and add their history points."""
    assert final.result is not None
    ranks = rating_ranks(final.result.ranks, final.seats)
    if cheaters_among(session, list(ranks)):
        # A game with a marked cheater rates nobody, as theirs were made unrated
        # (docs/moderation.md): the table says so too.
        queries.update_table(session, table_id, {"rated": False})
        return
    before = queries.ratings_of(session, list(ranks), game)
    start = MODEL.rating()
    players = [
        RatedSeat(
            uid,
            rank,
            before[uid].mu if uid in before else start.mu,
            before[uid].sigma if uid in before else start.sigma,
        )
        for uid, rank in ranks.items()
    ]
    after = new_ratings(players)
    ratings, changes = [], []
    for player in players:
        if player.user_id not in after:
            continue
        mu, sigma = after[player.user_id]
        old = before.get(player.user_id)
        won = 1 if player.rank == 1 else 0
        ratings.append(
            Rating(
                user_id=player.user_id,
                game=game,
                mu=mu,
                sigma=sigma,
                games=(old.games if old else 0) + 1,
                wins=(old.wins if old else 0) + won,
            )
        )
        changes.append(
            RatingChange(
                user_id=player.user_id,
                game=game,
                table_id=table_id,
                mu=mu,
                sigma=sigma,
                rank=player.rank,
                at=at,
            )
        )
    queries.save_ratings(session, ratings, changes)


def table_row_fields(snap: Snapshot) -> dict[str, Any]:
    """The fields of a table's row that its events change."""
    return {
        "status": snap.status,
        "started_at": snap.started_at,
        "finished_at": snap.finished_at,
        "result": snap.result.to_json() if snap.result else None,
        "rematch_id": snap.rematch_id,
        "aborted": snap.aborted,
    }


def seat_row(table_id: str, seat: SeatInfo) -> TableSeat:
    """The row cache of one seat: its columns are :class:`SeatInfo`'s fields of those names."""
    return TableSeat(
        table_id=table_id, **{column: getattr(seat, column) for column in _SEAT_COLUMNS}
    )


_SEAT_COLUMNS = tuple(c.key for c in TableSeat.__table__.columns if c.key != "table_id")
"""The seat's columns (the name is the user's, not stored with the seat)."""
