"""The tables of the database, as SQLAlchemy 2 declarative models.

A game is stored as its record: the table row holds the game, options and
seed, and the ``table_events`` log holds every versioned table event, among
them the actions in the order applied. A running table's state is rebuilt by
replaying that record; nothing else about a game's state is kept.

Times are seconds since the epoch as floats, read from the injected clock.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of every meeple model."""


class User(Base):
    """An account, or a guest playing under a generated name (no password).

    A deleted account keeps its row under an anonymous name (see :class:`DeletedAccount`).
    """

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A bot account: plays through the Bot API only, shown with a BOT mark (one way)."""
    last_seen_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the account last used the site (written at most once a minute); who is away."""
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")
    """``player``, ``moderator`` or ``admin`` (``meeple role``; docs/moderation.md)."""


class DeletedAccount(Base):
    """An account its player deleted: the user row stays, anonymous, for its games' sake."""

    __tablename__ = "deleted_accounts"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    deleted_at: Mapped[float] = mapped_column(Float)


class GameTable(Base):
    """A table: its game, options, seed, settings and where its life has got to."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    seat_count: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_token: Mapped[str] = mapped_column(String(48))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    pace: Mapped[str] = mapped_column(String(16))
    move_seconds: Mapped[int] = mapped_column(Integer)
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    auto_start: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(24), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    aborted: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """The game ended before every player began it: it rated nobody. (A new table's insert
    leaves it to the database's default and reads nothing back: ``eager_defaults``.)"""
    tournament: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """A tournament's game, opened by its runner (no takebacks there)."""

    __mapper_args__ = {"eager_defaults": False}  # noqa: RUF012 (SQLAlchemy reads a dict)


class TableSeat(Base):
    """Who sits in one seat of a table: a user, a bot of a level, or nobody yet."""

    __tablename__ = "table_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    zombie: Mapped[bool] = mapped_column(Boolean, default=False)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    timeouts: Mapped[int] = mapped_column(Integer, default=0)
    wants_rematch: Mapped[bool] = mapped_column(Boolean, default=False)


class TableEvent(Base):
    """One versioned table event; (table, version) is unique, so one writer wins."""

    __tablename__ = "table_events"
    __table_args__ = (
        UniqueConstraint("table_id", "user_id", "client_id", name="uq_table_events_client_id"),
    )

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class Rating(Base):
    """A user's current openskill rating in one game, with games played and won."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)


class RatingChange(Base):
    """A user's rating after one rated game: the points of the rating history."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_user_game", "user_id", "game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    game: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rank: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)


class LoginSession(Base):
    """A signed-in session: the cookie carries its token, the store only the token's hash.

    Deleting the row ends the session at once, on every server.
    """

    __tablename__ = "login_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """A keyed hash of the address it signed in from (docs/moderation.md, Addresses)."""


class AccessToken(Base):
    """A personal access token: the ``Authorization: Bearer`` header carries the token, the
    store only its hash. Deleting the row revokes it at once, on every server.
    """

    __tablename__ = "access_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    label: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[str] = mapped_column(String(128))
    """The token's scopes, separated by spaces."""
    created_at: Mapped[float] = mapped_column(Float)
    last_used_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the token was last used, to a minute (written at most once a minute)."""


class ServerSecret(Base):
    """A secret every server of one database shares (the key that signs session cookies)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(255))


class GameReview(Base):
    """A finished game's review, computed once in the background (``meeple.analysis``).

    ``data`` is ``{"game", "lines": [one per action], "summary": [one per seat]}``;
    it reveals hands, so it is served only once the game is over, like the record.
    """

    __tablename__ = "game_reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class StoredPuzzle(Base):
    """A puzzle of some game, cut from a reviewed public game or from a game between the
    server's bots (``from_bots``), with its own rating (openskill).

    ``data`` is the game's own (its puzzle cutter writes and reads it) with at least
    ``id``, ``answer`` and ``points``.
    """

    __tablename__ = "puzzles"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("game_tables.id"), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    from_bots: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Cut from a game the server's bots played to fill a short pool (no table)."""


class PuzzleAttempt(Base):
    """A user's first answer to a puzzle (only the first one rates)."""

    __tablename__ = "puzzle_attempts"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"), primary_key=True)
    correct: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[float] = mapped_column(Float)


class PuzzleRating(Base):
    """A user's puzzle rating (apart from game ratings)."""

    __tablename__ = "puzzle_ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class Challenge(Base):
    """A challenge from one account to another to play a game: open until accepted,
    declined, cancelled by its sender or lapsed at ``expires_at``.

    Kept in the store (not a server's memory) so any server may accept it and it
    outlives a restart; the accept that moves it out of ``open`` first wins.
    """

    __tablename__ = "challenges"
    __table_args__ = (
        # The caps count, and event streams replay, an account's open unlapsed challenges.
        Index("ix_challenges_from_open", "from_id", "status", "expires_at"),
        Index("ix_challenges_to_open", "to_id", "status", "expires_at"),
    )

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    to_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    game: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The game's options as sent (``players`` among them)."""
    pace: Mapped[str] = mapped_column(String(16))
    move_seconds: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16))
    """open, accepted, declined or cancelled (a lapsed one stays open past ``expires_at``)."""
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """Why it was declined."""
    table_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """The table its accept opened."""
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class Notification(Base):
    """Something the site tells an account (its turn, a game finished, a challenge, a
    rematch offered): stored so the list outlives a restart and reads the same on any server.

    ``dedupe`` (unique per account) makes a producer that fires twice store it once.
    """

    __tablename__ = "notifications"
    __table_args__ = (
        UniqueConstraint("user_id", "dedupe", name="uq_notifications_user_dedupe"),
        Index("ix_notifications_user_id_id", "user_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    table_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    dedupe: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    read_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the account saw it (None: unread)."""
