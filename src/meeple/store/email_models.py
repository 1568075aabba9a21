"""The tables behind email: addresses, the outbox and one-time links (migration 0012).

Kept apart from :mod:`meeple.store.models` (same declarative base) so that
file stays readable. Times are seconds since the epoch, from the injected clock.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from meeple.store.models import Base


class EmailAddress(Base):
    """An account's email address; nothing is sent to it but its verification until
    ``verified_at`` is set."""

    __tablename__ = "email_addresses"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254), index=True)
    verified_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class OutboxEmail(Base):
    """An email to send: kept until sent, so a server or SMTP outage loses none.

    ``dedupe`` is unique: enqueuing the same key twice stores one email. A
    sender claims a row by writing ``claimed_by``/``claimed_at`` with a
    conditional UPDATE, so with several servers each row is sent once.
    """

    __tablename__ = "email_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    to: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(255))
    text: Mapped[str] = mapped_column(Text)
    html: Mapped[str] = mapped_column(Text)
    headers: Mapped[dict[str, Any]] = mapped_column(JSON)
    dedupe: Mapped[str] = mapped_column(String(160), unique=True)
    status: Mapped[str] = mapped_column(String(16))
    """``pending`` until sent (``sent``) or given up on (``failed``)."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try_at: Mapped[float] = mapped_column(Float, index=True)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    sent_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)


class OneTimeLink(Base):
    """A link sent by email (verify an address, reset a password), stored as its hash;
    good once, until ``expires_at``."""

    __tablename__ = "one_time_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    purpose: Mapped[str] = mapped_column(String(16))
    """``verify`` or ``reset``."""
    address: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """For ``verify``: the address the link proves (a later change makes it void)."""
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)
