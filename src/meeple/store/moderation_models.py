"""The tables behind moderation and chat safety (migration 0019, docs/moderation.md): players'
reports, the sanctions moderators give (a mute, a cheater's mark, a closed account), the
audit log of every moderator's action, and the blocks players set on each other.

An account's role (player, moderator, admin) is a column of ``users``; the last sign-in
address of a session, hashed, a column of ``login_sessions`` (:mod:`meeple.store.models`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from meeple.store.models import Base


class Report(Base):
    """A player's report of another player, or of one of their chat lines, with a reason.

    ``day`` (whole days since the epoch) makes one report per reporter, target and day:
    a second is the first one again (the unique constraint).
    """

    __tablename__ = "reports"
    __table_args__ = (
        UniqueConstraint("reporter_id", "target_id", "day", name="uq_reports_reporter_target_day"),
        Index("ix_reports_status_id", "status", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    target_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    reason: Mapped[str] = mapped_column(String(16))
    """One of the fixed reasons (:data:`meeple.tables.moderation.kinds.REPORT_REASONS`)."""
    text: Mapped[str] = mapped_column(String(500), default="")
    """The reporter's own words (may be empty)."""
    table_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """The table of the reported chat line, or where the report was made from."""
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The reported chat line: its event's version at ``table_id``."""
    day: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    """``open`` until a moderator acts on its target or dismisses it: ``closed``."""
    created_at: Mapped[float] = mapped_column(Float)
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    closed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The action that closed it (``warn``, ``mute``, ``cheater``, ``close``, ``dismiss``)."""


class Sanction(Base):
    """What a moderator put on an account: ``mute`` (until a time), ``cheater`` or
    ``closed`` (for good, unless lifted)."""

    __tablename__ = "sanctions"
    __table_args__ = (Index("ix_sanctions_user_kind", "user_id", "kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[float] = mapped_column(Float)
    until: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a mute ends; ``None``: for good."""
    lifted_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When it was lifted early (``meeple reopen``), if it was."""
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    """The moderator; ``None``: the command line."""


class AuditEntry(Base):
    """One moderator's action: who did what to whom, when and why (the page ``/mod/log``)."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    moderator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    """Who acted; ``None``: the command line (``meeple role``, ``meeple reopen``)."""
    action: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    report_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    """What the action did: a mute's ``until``, a role's ``role`` and ``was``, a cheater's
    ``tables`` made unrated and ``opponents`` whose ratings were restored."""


class Block(Base):
    """A player who blocked another: no chat lines of the blocked shown to the blocker, no
    challenges from the blocked to the blocker."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
