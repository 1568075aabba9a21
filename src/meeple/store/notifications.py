"""The queries behind the notifications in the site (docs/server.md, Notifications).

Each is a function of an open session, run with Database.run like store.queries.
A notification with a ``dedupe`` key is stored once per account: a second insert
with the same key finds the unique constraint and stores nothing.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.store.models import Notification


def insert_notification(session: Session, values: dict[str, Any]) -> Notification | None:
    """Store a notification (``values``: its columns but ``id`` and ``read_at``); the row, or
    None if the account already has one with the same ``dedupe`` key."""
    dedupe = values.get("dedupe")
    if dedupe is not None:
        found = session.scalar(
            select(Notification.id).where(
                Notification.user_id == values["user_id"], Notification.dedupe == dedupe
            )
        )
        if found is not None:
            return None
    row = Notification(**values, read_at=None)
    try:
        # A savepoint: a twin stored meanwhile (another server) fails this insert alone.
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:
        return None
    return row


def notifications_of(
    session: Session, user_id: int, limit: int, before: int | None = None
) -> list[Notification]:
    """The account's notifications, newest first, at most ``limit``, with ids below
    ``before`` if given (the next page)."""
    query = select(Notification).where(Notification.user_id == user_id)
    if before is not None:
        query = query.where(Notification.id < before)
    return list(session.scalars(query.order_by(Notification.id.desc()).limit(limit)))


def notifications_page(
    session: Session, user_id: int, limit: int, before: int | None = None
) -> tuple[list[Notification], int]:
    """A page of :func:`notifications_of` and the unread count, read as of one moment.

    The count and the newest id come from one statement, and the page is bounded by that
    id: a notification stored between the two reads is in neither, so a page that relays
    it live adds it once, where a count taken after the list counted it once too many.
    """
    unread, newest = session.execute(
        select(
            func.count().filter(Notification.read_at.is_(None)), func.max(Notification.id)
        ).where(Notification.user_id == user_id)
    ).one()
    if newest is None:
        return [], 0
    bound = newest + 1 if before is None else min(before, newest + 1)
    return notifications_of(session, user_id, limit, bound), int(unread or 0)


def unread_count(session: Session, user_id: int) -> int:
    """How many of the account's notifications are unread."""
    return int(
        session.scalar(
            select(func.count())
            .select_from(Notification)
            .where(Notification.user_id == user_id, Notification.read_at.is_(None))
        )
        or 0
    )


def mark_read(session: Session, user_id: int, ids: list[int] | None, now: float) -> int:
    """Mark the account's unread notifications ``ids`` (all of them if None) read at ``now``;
    how many changed. Another account's ids change nothing."""
    query = update(Notification).where(
        Notification.user_id == user_id, Notification.read_at.is_(None)
    )
    if ids is not None:
        query = query.where(Notification.id.in_(ids))
    result = session.execute(query.values(read_at=now))
    return int(getattr(result, "rowcount", 0) or 0)
