"""The queries the server runs, each a function of an open session (one transaction).

Run them with :meth:`meeple.store.database.Database.run`. They return model
objects detached from the session (``expire_on_commit`` is off), or plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Connection, Row, Table, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.store.models import (
    DeletedAccount,
    GameReview,
    GameTable,
    PuzzleAttempt,
    PuzzleRating,
    Rating,
    RatingChange,
    StoredPuzzle,
    TableEvent,
    TableSeat,
    User,
)
from meeple.store.names import name_key


class NameTaken(ValueError):
    """A user name that another account (or guest) already has."""


class VersionConflict(RuntimeError):
    """Another writer stored this table version first; reload and try again."""


def create_user(
    session: Session, name: str, password_hash: str | None, guest: bool, at: float
) -> User:
    """A new user; :class:`NameTaken` if another has the same :func:`name_key`."""
    user = User(
        name=name, name_key=name_key(name), password_hash=password_hash, guest=guest, created_at=at
    )
    session.add(user)
    try:
        session.flush()
    except IntegrityError as exc:
        raise NameTaken(name) from exc
    return user


def user_by_name(session: Session, name: str) -> User | None:
    """The user whose name has the same normal form (``bob`` finds ``Bob``), if any."""
    return session.scalars(select(User).where(User.name_key == name_key(name))).first()


def user_by_id(session: Session, user_id: int) -> User | None:
    """The user with this id, if any."""
    return session.get(User, user_id)


def upgrade_guest(session: Session, user_id: int, name: str, password_hash: str) -> User:
    """Turn a guest into an account with a name and password, keeping its id and games."""
    user = session.get(User, user_id)
    if user is None or not user.guest:
        raise ValueError("only a guest can be turned into an account")
    user.name, user.name_key = name, name_key(name)
    user.password_hash, user.guest = password_hash, False
    try:
        session.flush()
    except IntegrityError as exc:
        raise NameTaken(name) from exc
    return user


def insert_table(session: Session, table: GameTable, seats: Sequence[TableSeat]) -> None:
    """Store a new table and its seats."""
    session.add(table)
    session.flush()
    session.add_all(seats)


def table_ids_with_status(session: Session, statuses: Sequence[str]) -> list[str]:
    """The ids of every table whose status is one of ``statuses``, oldest first."""
    rows = session.scalars(
        select(GameTable.id).where(GameTable.status.in_(statuses)).order_by(GameTable.created_at)
    )
    return list(rows)


def update_table(session: Session, table_id: str, fields: dict[str, Any]) -> None:
    """Write back the fields of a table row that its events change."""
    session.execute(update(GameTable).where(GameTable.id == table_id).values(**fields))


def update_seats(session: Session, seats: Sequence[TableSeat]) -> None:
    """Write back a table's seat rows (the row cache of its seats)."""
    for seat in seats:
        session.merge(seat)


def append_event(session: Session, event: Mapping[str, Any]) -> None:
    """Store one table event, given as its column values, as its transaction commits.

    The events of one transaction are inserted together, in one statement, just
    before it commits (:func:`insert_pending_events`): a group commit of hundreds
    of events makes one round trip to the database, not hundreds, each of which
    would have to win the interpreter back from a busy event loop.
    The commit raises :class:`VersionConflict` if a version (or a client action
    id) is already stored, which means another writer got there first.
    """
    session.info.setdefault(PENDING_EVENTS, []).append(dict(event))


PENDING_EVENTS = "meeple.pending_events"
"""Where a session keeps the rows of the events it will insert when it commits."""


def insert_pending_events(session: Session) -> None:
    """Insert the events appended in this transaction (the database calls it before commit)."""
    rows = session.info.pop(PENDING_EVENTS, None)
    if not rows:
        return
    session.flush()  # a new table's own row goes first
    insert_events(session.connection(), rows)


def insert_events(connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert table events (their column values) in one statement on ``connection``.

    A plain INSERT with bound values, not the ORM's unit of work nor values baked into
    the statement: compiled once and cached, where either of those does per-call work
    on the server's hottest path. :class:`VersionConflict` if a version (or a client
    action id) is already stored.
    """
    try:
        connection.execute(_INSERT_EVENT, list(rows))
    except IntegrityError as exc:
        first = rows[0]
        raise VersionConflict(f"table {first['table_id']} version {first['version']}") from exc


_EVENTS = cast(Table, TableEvent.__table__)
"""The events' Core table: plain rows and statements, none of the ORM's per-object work."""

_INSERT_EVENT = insert(_EVENTS)
"""On the Core table: the ORM's bulk-insert path costs as much again as the insert itself."""


EventRow = Row[Any]
"""A :class:`TableEvent` read back as a plain row (its columns as attributes), not as an ORM
object: the stored form of an event either way, and ORM objects cost about twice the CPU to
read where a take-over reads thousands of events."""


def events_after(session: Session, table_id: str, version: int) -> list[EventRow]:
    """The table's events with a version above ``version``, in order."""
    rows = session.execute(
        select(_EVENTS)
        .where(_EVENTS.c.table_id == table_id, _EVENTS.c.version > version)
        .order_by(_EVENTS.c.version)
    )
    return list(rows)


def events_after_each(session: Session, since: Mapping[str, int]) -> dict[str, list[EventRow]]:
    """For each table id, its events with a version above ``since[id]``, in order.

    One query per hundred tables, where :func:`events_after` per table is one each (a
    server taking over hundreds of tables).
    """
    found: dict[str, list[EventRow]] = {table_id: [] for table_id in since}
    ids = list(since)
    for start in range(0, len(ids), 100):
        chunk = ids[start : start + 100]
        newer = or_(
            *(
                and_(_EVENTS.c.table_id == table_id, _EVENTS.c.version > since[table_id])
                for table_id in chunk
            )
        )
        rows = session.execute(
            select(_EVENTS).where(newer).order_by(_EVENTS.c.table_id, _EVENTS.c.version)
        )
        for row in rows:
            found[row.table_id].append(row)
    return found


def tables_with_events(
    session: Session, table_ids: Sequence[str]
) -> dict[str, tuple[GameTable, list[EventRow]]]:
    """Each stored table of ``table_ids`` with all its events in order (the others left out).

    Two queries per :data:`LOAD_CHUNK` tables, not two per table (its row, then its
    events): a server taking in a dead server's tables and their reconnecting
    players loads them together.
    """
    found: dict[str, tuple[GameTable, list[EventRow]]] = {}
    ids = sorted(set(table_ids))
    for start in range(0, len(ids), LOAD_CHUNK):
        chunk = ids[start : start + LOAD_CHUNK]
        for row in session.scalars(select(GameTable).where(GameTable.id.in_(chunk))):
            found[row.id] = (row, [])
        events = session.execute(
            select(_EVENTS)
            .where(_EVENTS.c.table_id.in_(chunk))
            .order_by(_EVENTS.c.table_id, _EVENTS.c.version)
        )
        for event in events:
            found[event.table_id][1].append(event)
    return found


LOAD_CHUNK = 200
"""Tables per query in :func:`tables_with_events` (well under SQLite's bound parameters)."""


def ratings_of(session: Session, user_ids: Sequence[int], game: str) -> dict[int, Rating]:
    """The stored ratings of these users in ``game``, by user id (absent: never rated)."""
    rows = session.scalars(select(Rating).where(Rating.user_id.in_(user_ids), Rating.game == game))
    return {r.user_id: r for r in rows}


def save_ratings(
    session: Session, ratings: Sequence[Rating], changes: Sequence[RatingChange]
) -> None:
    """Write new ratings and their history points together."""
    for rating in ratings:
        session.merge(rating)
    session.add_all(changes)


def rating_history(session: Session, user_id: int, game: str) -> list[RatingChange]:
    """A user's rating after each rated game of ``game``, oldest first."""
    rows = session.scalars(
        select(RatingChange)
        .where(RatingChange.user_id == user_id, RatingChange.game == game)
        .order_by(RatingChange.id)
    )
    return list(rows)


def user_ratings(session: Session, user_id: int) -> list[Rating]:
    """A user's ratings in every game they have played rated."""
    return list(session.scalars(select(Rating).where(Rating.user_id == user_id)))


def leaderboard(session: Session, game: str, limit: int) -> list[tuple[Rating, str]]:
    """The best-rated users of ``game`` (by mu - 3 sigma) with their names; no deleted ones."""
    rows = session.execute(
        select(Rating, User.name)
        .join(User, User.id == Rating.user_id)
        .where(Rating.game == game, User.id.not_in(select(DeletedAccount.user_id)))
        .order_by((Rating.mu - 3 * Rating.sigma).desc(), Rating.games.desc())
        .limit(limit)
    )
    return [(rating, name) for rating, name in rows]


def open_public_tables(
    session: Session, game: str | None, limit: int = 100, status: str = "open"
) -> list[tuple[GameTable, list[TableSeat]]]:
    """Public tables with this status (optionally of one game), oldest first, with seats.

    The default, ``"open"``, gives the tables waiting for players.
    """
    query = select(GameTable).where(GameTable.status == status, GameTable.private.is_(False))
    if game is not None:
        query = query.where(GameTable.game == game)
    tables = list(session.scalars(query.order_by(GameTable.created_at).limit(limit)))
    seats: dict[str, list[TableSeat]] = {t.id: [] for t in tables}
    if tables:
        rows = session.scalars(
            select(TableSeat).where(TableSeat.table_id.in_(list(seats))).order_by(TableSeat.seat)
        )
        for row in rows:
            seats[row.table_id].append(row)
    return [(t, seats[t.id]) for t in tables]


def review_of(session: Session, table_id: str) -> GameReview | None:
    """The stored review of a finished game, if it was made."""
    return session.get(GameReview, table_id)


def save_review(
    session: Session, table_id: str, game: str, data: dict[str, Any], at: float
) -> bool:
    """Store a game's review once; ``False`` if one was already stored (another server's)."""
    if session.get(GameReview, table_id) is not None:
        return False
    session.add(GameReview(table_id=table_id, game=game, data=data, created_at=at))
    return True


def finished_without_review(session: Session, limit: int) -> list[tuple[str, bool]]:
    """The latest finished games with no review yet (newest first): ``(id, private)``."""
    reviewed = select(GameReview.table_id)
    query = (
        select(GameTable.id, GameTable.private)
        .where(GameTable.status == "finished", GameTable.id.not_in(reviewed))
        .order_by(GameTable.created_at.desc())
        .limit(limit)
    )
    return [(row.id, row.private) for row in session.execute(query)]


def save_puzzles(
    session: Session,
    game: str,
    puzzles: Sequence[dict[str, Any]],
    table_id: str | None,
    at: float,
    first: tuple[float, float],
    from_bots: bool = False,
) -> int:
    """Store ``game``'s puzzles not stored yet (by id), each rated ``first`` (mu, sigma) and
    marked ``from_bots`` when a game between the server's bots made them; how many were new."""
    added = 0
    for data in puzzles:
        if session.get(StoredPuzzle, data["id"]) is not None:
            continue
        session.add(
            StoredPuzzle(
                id=data["id"],
                game=game,
                data=data,
                table_id=table_id,
                mu=first[0],
                sigma=first[1],
                attempts=0,
                solved=0,
                created_at=at,
                from_bots=from_bots,
            )
        )
        added += 1
    return added


def puzzle_count(session: Session, game: str) -> int:
    """How many puzzles of ``game`` are stored (from any source)."""
    query = select(func.count()).select_from(StoredPuzzle).where(StoredPuzzle.game == game)
    return session.scalar(query) or 0


def puzzle_by_id(session: Session, puzzle_id: str) -> StoredPuzzle | None:
    """One stored puzzle."""
    return session.get(StoredPuzzle, puzzle_id)


def daily_puzzle(session: Session, game: str, day: int) -> StoredPuzzle | None:
    """``game``'s puzzle of day ``day`` (days since the epoch): the same for everyone all day.

    It is picked among the puzzles stored before the day began, so puzzles stored during
    the day do not change it; on the day the first ones are stored, it is the first one.
    """
    of_game = StoredPuzzle.game == game
    before = StoredPuzzle.created_at < day * 86_400
    query = select(StoredPuzzle).order_by(StoredPuzzle.created_at, StoredPuzzle.id)
    count = session.scalar(select(func.count()).select_from(StoredPuzzle).where(of_game, before))
    if not count:
        return session.scalars(query.where(of_game).limit(1)).first()
    return session.scalars(query.where(of_game, before).offset(day % count).limit(1)).first()


def next_puzzle(
    session: Session, game: str, user_id: int | None, skip: str | None, first_mu: float
) -> StoredPuzzle | None:
    """A ``game`` puzzle for this user: one not tried yet, rated nearest to the user's puzzle
    rating (``first_mu`` for a user with none)."""
    rating = session.get(PuzzleRating, user_id) if user_id is not None else None
    target = rating.mu if rating is not None else first_mu
    query = select(StoredPuzzle).where(StoredPuzzle.game == game)
    if user_id is not None:
        tried = select(PuzzleAttempt.puzzle_id).where(PuzzleAttempt.user_id == user_id)
        query = query.where(StoredPuzzle.id.not_in(tried))
    if skip is not None:
        query = query.where(StoredPuzzle.id != skip)
    query = query.order_by(func.abs(StoredPuzzle.mu - target), StoredPuzzle.id).limit(1)
    return session.scalars(query).first()


def puzzle_rating(session: Session, user_id: int) -> PuzzleRating | None:
    """A user's puzzle rating, if they have answered a puzzle."""
    return session.get(PuzzleRating, user_id)


Skill = tuple[float, float]
"""A rating as ``(mu, sigma)``."""


def record_answer(
    session: Session,
    puzzle_id: str,
    user_id: int,
    correct: bool,
    at: float,
    first: Skill,
    rate: Callable[[Skill, Skill, bool], tuple[Skill, Skill]],
    rater_games: int,
) -> tuple[Skill, Skill] | None:
    """Keep a user's first answer to a puzzle and rate them by it (``rate`` gives the
    player's and the puzzle's new ratings; ``first`` is a new player's).

    The puzzle's own rating and its attempts/solved counts move only when the
    user has finished at least ``rater_games`` rated games of the puzzle's game:
    fresh accounts (sockpuppets, guests made for the purpose) rate themselves,
    never the puzzle. Later answers change nothing.

    Returns the user's ``((mu, sigma) before, (mu, sigma) after)`` when it rated.
    """
    # The puzzle's row is locked first (PostgreSQL; SQLite writes one at a time anyway), so two
    # servers taking answers to one puzzle neither lose a rating update nor both see a first.
    puzzle = session.get(StoredPuzzle, puzzle_id, with_for_update=True)
    if puzzle is None or session.get(PuzzleAttempt, (user_id, puzzle_id)) is not None:
        return None
    session.add(PuzzleAttempt(user_id=user_id, puzzle_id=puzzle_id, correct=correct, at=at))
    rating = session.get(PuzzleRating, user_id)
    if rating is None:
        rating = PuzzleRating(user_id=user_id, mu=first[0], sigma=first[1], attempts=0, solved=0)
        session.add(rating)
    before = (rating.mu, rating.sigma)
    (rating.mu, rating.sigma), puzzle_after = rate(before, (puzzle.mu, puzzle.sigma), correct)
    rating.attempts += 1
    rating.solved += int(correct)
    played = session.get(Rating, (user_id, puzzle.game))
    if (played.games if played is not None else 0) >= rater_games:
        puzzle.mu, puzzle.sigma = puzzle_after
        puzzle.attempts += 1
        puzzle.solved += int(correct)
    return before, (rating.mu, rating.sigma)
