"""The tables behind tournaments (migration 0016): the tournament, its entrants, its rounds,
the games each round opened and the byes (docs/tournaments.md).

Kept apart from :mod:`meeple.store.models` (same declarative base) so that file stays
readable. Times are seconds since the epoch, from the injected clock.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from meeple.store.models import Base


class Tournament(Base):
    """A tournament: what it plays, how, when, and where it stands."""

    __tablename__ = "tournaments"
    __table_args__ = (
        # The list (by status, soonest first) and the servers' look for tournaments to run.
        Index("ix_tournaments_status_start", "status", "starts_at"),
        # The cap on tournaments one account holds open.
        Index("ix_tournaments_creator_status", "creator_id", "status"),
    )

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The game's options, as checked (``players`` is set per table)."""
    format: Mapped[str] = mapped_column(String(8))
    """``swiss`` or ``arena``."""
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A Swiss's rounds."""
    duration_s: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """An arena's length."""
    table_size: Mapped[int] = mapped_column(Integer)
    """Players a table (2 for a two-player game)."""
    pace: Mapped[str] = mapped_column(String(16))
    """``realtime`` or ``turn``."""
    move_seconds: Mapped[int] = mapped_column(Integer)
    round_s: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A turn-based Swiss's round length: its games are decided at the round's deadline."""
    starts_at: Mapped[float] = mapped_column(Float)
    rated: Mapped[bool] = mapped_column(Boolean)
    bots_allowed: Mapped[bool] = mapped_column(Boolean)
    private: Mapped[bool] = mapped_column(Boolean)
    secret: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """A private tournament's link secret."""
    max_players: Mapped[int] = mapped_column(Integer)
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    """Who created it; ``None``: the site (a recurring tournament, migration 0017)."""
    status: Mapped[str] = mapped_column(String(16))
    """scheduled, running, finished or cancelled."""
    round: Mapped[int] = mapped_column(Integer, default=0)
    """The last round paired (an arena: its pairing passes)."""
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class TournamentEntrant(Base):
    """An account in a tournament: when it joined, whether it withdrew or paused."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    joined_at: Mapped[float] = mapped_column(Float)
    withdrawn_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)


class TournamentRound(Base):
    """A round paired (an arena: a pairing pass): its row is stored once, in the transaction
    that stores its games and byes, so a round is never paired twice."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    paired_at: Mapped[float] = mapped_column(Float)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    """A turn-based round's deadline."""


class TournamentGame(Base):
    """A game a round opened: its table, its players in seat order, and how it ended.

    ``status`` is ``pending`` (stored, its table not yet opened), ``playing`` or
    ``finished``; ``ranks`` are the game's ranks by seat once finished; ``seq`` numbers the
    finishes in the order they were recorded (an arena's order of games).
    """

    __tablename__ = "tournament_games"
    __table_args__ = (Index("ix_tournament_games_round", "tournament_id", "round"),)

    table_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[int]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    ranks: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    how: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """How it ended: ``played``, ``deadline`` (decided at the round's deadline) or ``aborted``."""
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class TournamentBye(Base):
    """A round a player sat out for want of a table (it scores a win)."""

    __tablename__ = "tournament_byes"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)


class TournamentBot(Base):
    """A built-in bot its creator added to a casual tournament (migration 0018): it plays as the
    player id ``-number`` at the level ``level``."""

    __tablename__ = "tournament_bots"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    level: Mapped[str] = mapped_column(String(16))
