"""Queries for a player's own account: everything the site holds about them, and deleting it.

Like :mod:`meeple.store.queries`, each is a function of an open session (one
transaction), run with :meth:`meeple.store.database.Database.run`.

Deleting an account keeps its row, so the games it played keep their seats,
results and the other players' rating histories; the row becomes anonymous.
The name is written into the table log too (a seat's join, a chat line, the
seats a table was created with), so those copies are renamed as well.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.store.email_models import EmailAddress, OneTimeLink, OutboxEmail
from meeple.store.follows import followed_names, forget_follows
from meeple.store.models import (
    DeletedAccount,
    GameTable,
    LoginSession,
    PuzzleAttempt,
    PuzzleRating,
    Rating,
    RatingChange,
    TableEvent,
    TableSeat,
    User,
)
from meeple.store.names import name_key
from meeple.store.queries import NameTaken


def account_data(session: Session, user_id: int, now: float) -> dict[str, Any]:
    """What the site holds about a user, as plain JSON data (no password hash, no tokens).

    The account, its ratings and rating history, every table it sat at (seat,
    status, result), its chat lines, its puzzle answers and rating, how many
    sessions are open, and the names of the accounts it follows.
    """
    user = session.get(User, user_id)
    if user is None:
        raise ValueError(f"there is no user {user_id}")
    seats = session.execute(
        select(GameTable, TableSeat.seat)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .where(TableSeat.user_id == user_id)
        .order_by(GameTable.created_at, GameTable.id)
    )
    chat = session.scalars(
        select(TableEvent)
        .where(TableEvent.user_id == user_id, TableEvent.kind == "chat")
        .order_by(TableEvent.at, TableEvent.table_id, TableEvent.version)
    )
    puzzle = session.get(PuzzleRating, user_id)
    sessions = session.scalar(
        select(func.count())
        .select_from(LoginSession)
        .where(LoginSession.user_id == user_id, LoginSession.expires_at > now)
    )
    return {
        "account": {
            "id": user.id,
            "name": user.name,
            "guest": user.guest,
            "created_at": user.created_at,
        },
        "ratings": [
            {"game": r.game, "mu": r.mu, "sigma": r.sigma, "games": r.games, "wins": r.wins}
            for r in session.scalars(select(Rating).where(Rating.user_id == user_id))
        ],
        "rating_history": [
            {
                "game": c.game,
                "table_id": c.table_id,
                "mu": c.mu,
                "sigma": c.sigma,
                "rank": c.rank,
                "at": c.at,
            }
            for c in session.scalars(
                select(RatingChange)
                .where(RatingChange.user_id == user_id)
                .order_by(RatingChange.id)
            )
        ],
        "games": [
            {
                "id": t.id,
                "game": t.game,
                "seat": seat,
                "status": t.status,
                "rated": t.rated,
                "private": t.private,
                "created_at": t.created_at,
                "finished_at": t.finished_at,
                "result": t.result,
            }
            for t, seat in seats
        ],
        "chat": [{"table_id": e.table_id, "at": e.at, "text": e.data.get("text")} for e in chat],
        "puzzle_attempts": [
            {"puzzle_id": a.puzzle_id, "correct": a.correct, "at": a.at}
            for a in session.scalars(
                select(PuzzleAttempt)
                .where(PuzzleAttempt.user_id == user_id)
                .order_by(PuzzleAttempt.at)
            )
        ],
        "puzzle_rating": None
        if puzzle is None
        else {
            "mu": puzzle.mu,
            "sigma": puzzle.sigma,
            "attempts": puzzle.attempts,
            "solved": puzzle.solved,
        },
        "open_sessions": sessions or 0,
        "email": None
        if (address := session.get(EmailAddress, user_id)) is None
        else {"address": address.address, "verified_at": address.verified_at},
        "following": followed_names(session, user_id),
    }


def unfinished_tables(session: Session, user_id: int) -> list[str]:
    """The tables not over yet (open or playing) where the user still holds a seat."""
    rows = session.scalars(
        select(GameTable.id)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .where(
            TableSeat.user_id == user_id,
            TableSeat.left.is_(False),
            GameTable.status.in_(("open", "playing")),
        )
        .order_by(GameTable.created_at)
    )
    return list(rows)


def delete_account(session: Session, user_id: int, anonymous: str, at: float) -> User:
    """Make the account anonymous: named ``anonymous``, no password, no session, marked deleted.

    Its games, results and ratings stay under the new name; the old name is
    free for anyone to take. :class:`NameTaken` if ``anonymous`` is taken (pick
    another); ``ValueError`` for no such user.
    """
    user = session.get(User, user_id)
    if user is None:
        raise ValueError(f"there is no user {user_id}")
    user.name, user.name_key = anonymous, name_key(anonymous)
    user.password_hash = None
    session.add(DeletedAccount(user_id=user_id, deleted_at=at))
    try:
        session.flush()
    except IntegrityError as exc:
        raise NameTaken(anonymous) from exc
    session.execute(delete(LoginSession).where(LoginSession.user_id == user_id))
    # The address goes with the account, and so do its links and the emails not yet sent.
    session.execute(delete(EmailAddress).where(EmailAddress.user_id == user_id))
    session.execute(delete(OneTimeLink).where(OneTimeLink.user_id == user_id))
    forget_follows(session, user_id)  # its friends list, and its place in others'
    session.execute(
        delete(OutboxEmail).where(OutboxEmail.user_id == user_id, OutboxEmail.status != "sent")
    )
    seated = select(TableSeat.table_id).where(TableSeat.user_id == user_id)
    events = session.scalars(
        select(TableEvent).where(
            or_(TableEvent.user_id == user_id, TableEvent.table_id.in_(seated))
        )
    )
    for event in events:
        renamed = _renamed(event, user_id, anonymous)
        if renamed is not None:
            event.data = renamed
    return user


def _renamed(event: TableEvent, user_id: int, anonymous: str) -> dict[str, Any] | None:
    """The event's data with the user's name replaced, or ``None`` if it does not name them."""
    data = dict(event.data)
    changed = False
    if event.user_id == user_id and "name" in data:
        data["name"] = anonymous
        changed = True
    seats = data.get("seats")
    if isinstance(seats, list):
        new_seats = []
        for seat in seats:
            if isinstance(seat, dict) and seat.get("user_id") == user_id:
                seat = {**seat, "name": anonymous}
                changed = True
            new_seats.append(seat)
        data["seats"] = new_seats
    return data if changed else None


def unrated_tables_of(session: Session, user_id: int) -> list[str]:
    """The ids of the unrated tables ``user_id`` sits at, oldest first: a guest's games that
    go to the account they sign in to (a rated one stays, with the rating it moved)."""
    rows = session.scalars(
        select(GameTable.id)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .where(TableSeat.user_id == user_id, GameTable.rated.is_(False))
        .order_by(GameTable.created_at, GameTable.id)
    )
    return list(rows)
