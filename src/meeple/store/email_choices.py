"""What an account chose about the emails that bring players back, and which were due
(migration 0013): unsubscribed kinds, the language emails are written in, the turns due.

Kept apart from :mod:`meeple.store.models` (same declarative base). Times are
seconds since the epoch, from the injected clock.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Index, Integer, String, delete, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from meeple.store.models import Base
from meeple.store.user_games import mark_seen


class EmailUnsubscribe(Base):
    """A kind of email (``your_turn``, ``game_finished``, ``all``) an account stopped."""

    __tablename__ = "email_unsubscribes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class EmailLanguage(Base):
    """The language an account last used on the site; its emails are written in it."""

    __tablename__ = "email_languages"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    lang: Mapped[str] = mapped_column(String(8))
    at: Mapped[float] = mapped_column(Float)


class TurnEmailDue(Base):
    """A turn for which a "your turn" email was due (the account away, subscribed, verified),
    and how it went out: ``single`` (its own email), ``digest`` (the day's digest) or
    ``none`` (covered by a digest already sent that day)."""

    __tablename__ = "turn_emails_due"
    __table_args__ = (Index("ix_turn_emails_due_user_id_at", "user_id", "at"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    note_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The ``your_turn`` notification of that turn (one per account, table and turn)."""
    table_id: Mapped[str] = mapped_column(String(24))
    game: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    sent_as: Mapped[str] = mapped_column(String(8))


def unsubscribe(session: Session, user_id: int, kind: str, now: float) -> None:
    """Stop ``kind`` emails to ``user_id`` (doing it twice changes nothing)."""
    if session.get(EmailUnsubscribe, (user_id, kind)) is None:
        session.add(EmailUnsubscribe(user_id=user_id, kind=kind, at=now))


def resubscribe(session: Session, user_id: int, kind: str) -> None:
    """Send ``kind`` emails to ``user_id`` again."""
    session.execute(
        delete(EmailUnsubscribe).where(
            EmailUnsubscribe.user_id == user_id, EmailUnsubscribe.kind == kind
        )
    )


def unsubscribed_kinds(session: Session, user_id: int) -> set[str]:
    """The kinds of email ``user_id`` stopped."""
    rows = session.scalars(select(EmailUnsubscribe.kind).where(EmailUnsubscribe.user_id == user_id))
    return set(rows)


def remember_language(session: Session, user_id: int, lang: str, now: float) -> None:
    """Keep ``lang`` as the language of ``user_id``'s emails."""
    row = session.get(EmailLanguage, user_id)
    if row is None:
        session.add(EmailLanguage(user_id=user_id, lang=lang, at=now))
    elif row.lang != lang:
        row.lang, row.at = lang, now


def seen_in_language(session: Session, user_id: int, lang: str, now: float) -> float | None:
    """``user_id`` is on the site now, reading it in ``lang`` (``users.last_seen_at`` and
    the language of its emails, in one write); when it was seen before, as
    :func:`~meeple.store.user_games.mark_seen` answers."""
    before = mark_seen(session, user_id, now)
    remember_language(session, user_id, lang, now)
    return before


def language_of(session: Session, user_id: int) -> str | None:
    """The language ``user_id`` last used, if known."""
    row = session.get(EmailLanguage, user_id)
    return None if row is None else row.lang


def record_due(session: Session, row: TurnEmailDue) -> bool:
    """Store a due turn; False if that turn was stored already (another call won)."""
    if session.get(TurnEmailDue, (row.user_id, row.note_id)) is not None:
        return False
    session.add(row)
    session.flush()
    return True


def due_since(session: Session, user_id: int, since: float) -> list[TurnEmailDue]:
    """The turns due for ``user_id`` since ``since``, oldest first."""
    query = (
        select(TurnEmailDue)
        .where(TurnEmailDue.user_id == user_id, TurnEmailDue.at >= since)
        .order_by(TurnEmailDue.at, TurnEmailDue.note_id)
    )
    return list(session.scalars(query))


def count_due_since(session: Session, user_id: int, since: float) -> int:
    """How many turns were due for ``user_id`` since ``since``."""
    query = select(func.count()).where(TurnEmailDue.user_id == user_id, TurnEmailDue.at >= since)
    return int(session.scalar(query) or 0)
