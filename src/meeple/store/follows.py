"""Who follows whom, and which friend notices an account stopped (migration 0020).

A follow is one way: ``follower_id`` follows ``followed_id`` (the accounts it follows are
its friends list). An account follows at most a cap of accounts (the caller's), counted
under a lock of the follower's row on PostgreSQL, so two follows at once cannot pass it.
Each function is a function of an open session (one transaction), run with
:meth:`meeple.store.database.Database.run` like :mod:`meeple.store.queries`. Times are
seconds since the epoch, from the injected clock.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Float, ForeignKey, Index, String, delete, func, or_, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from meeple.store.models import Base, DeletedAccount, GameTable, Notification, TableSeat, User

FULL = "full"
"""What :func:`follow_within` answers when the follower already follows the most it may."""

NOTICE_KINDS = ("online", "tournaments")
"""The friend notices an account may stop: a followed player coming online, joining a
tournament. Each is on until stopped."""


class Follow(Base):
    """``follower_id`` follows ``followed_id`` since ``created_at``."""

    __tablename__ = "follows"
    __table_args__ = (
        # The followers of an account: who to tell when it comes online or joins a tournament.
        Index("ix_follows_followed_id", "followed_id"),
    )

    follower_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)


class FriendNoticeOff(Base):
    """A kind of friend notice (:data:`NOTICE_KINDS`) an account stopped."""

    __tablename__ = "friend_notices_off"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


def following_count(session: Session, user_id: int) -> int:
    """How many accounts ``user_id`` follows."""
    query = select(func.count()).select_from(Follow).where(Follow.follower_id == user_id)
    return int(session.scalar(query) or 0)


def follow_within(
    session: Session, follower_id: int, followed_id: int, now: float, cap: int
) -> str | None:
    """``follower_id`` follows ``followed_id`` (following already: nothing changes), unless
    it follows ``cap`` accounts already: ``None`` when it follows, else :data:`FULL`."""
    # The follower's row, locked on PostgreSQL: its follows are counted one at a time.
    session.scalars(select(User.id).where(User.id == follower_id).with_for_update()).one()
    if session.get(Follow, (follower_id, followed_id)) is not None:
        return None
    if following_count(session, follower_id) >= cap:
        return FULL
    session.add(Follow(follower_id=follower_id, followed_id=followed_id, created_at=now))
    return None


def unfollow(session: Session, follower_id: int, followed_id: int) -> bool:
    """``follower_id`` stops following ``followed_id``; whether it did follow."""
    gone = session.execute(
        delete(Follow).where(Follow.follower_id == follower_id, Follow.followed_id == followed_id)
    )
    return bool(getattr(gone, "rowcount", 0))


def following_of(session: Session, user_id: int) -> list[tuple[User, float]]:
    """The accounts ``user_id`` follows (deleted ones left out) and since when, by name."""
    rows = session.execute(
        select(User, Follow.created_at)
        .join(Follow, Follow.followed_id == User.id)
        .where(Follow.follower_id == user_id, User.id.not_in(select(DeletedAccount.user_id)))
        .order_by(User.name_key)
    )
    return [(user, since) for user, since in rows]


def followers_to_tell(session: Session, user_id: int, kind: str) -> list[User]:
    """The accounts following ``user_id`` that take ``kind`` notices: people's accounts (not
    guests, not bot accounts, not deleted) that did not stop that kind, by id."""
    stopped = select(FriendNoticeOff.user_id).where(FriendNoticeOff.kind == kind)
    rows = session.scalars(
        select(User)
        .join(Follow, User.id == Follow.follower_id)
        .where(
            Follow.followed_id == user_id,
            User.guest.is_(False),
            User.bot.is_(False),
            Follow.follower_id.not_in(stopped),
            Follow.follower_id.not_in(select(DeletedAccount.user_id)),
        )
        .order_by(Follow.follower_id)
    )
    return list(rows)


def notice_choices(session: Session, user_id: int) -> dict[str, bool]:
    """Whether ``user_id`` takes each kind of friend notice (:data:`NOTICE_KINDS`)."""
    rows = session.scalars(select(FriendNoticeOff.kind).where(FriendNoticeOff.user_id == user_id))
    stopped = set(rows)
    return {kind: kind not in stopped for kind in NOTICE_KINDS}


def choose_notice(session: Session, user_id: int, kind: str, on: bool, now: float) -> None:
    """Take (``on``) or stop ``kind`` friend notices for ``user_id`` (twice changes nothing)."""
    if kind not in NOTICE_KINDS:
        raise ValueError(f"no friend notice {kind!r}")
    row = session.get(FriendNoticeOff, (user_id, kind))
    if on and row is not None:
        session.delete(row)
    elif not on and row is None:
        session.add(FriendNoticeOff(user_id=user_id, kind=kind, at=now))


def told_since(
    session: Session, user_ids: Sequence[int], dedupe_prefix: str, since: float
) -> set[int]:
    """Those of ``user_ids`` holding a notification made at ``since`` or later whose
    ``dedupe`` key starts with ``dedupe_prefix`` (a friend's last "online" notice)."""
    if not user_ids:
        return set()
    rows = session.scalars(
        select(Notification.user_id).where(
            Notification.user_id.in_(user_ids),
            Notification.dedupe.startswith(dedupe_prefix, autoescape=True),
            Notification.created_at >= since,
        )
    )
    return set(rows)


def running_public_tables(
    session: Session, user_ids: Sequence[int]
) -> dict[int, list[tuple[str, str]]]:
    """``(table id, game)`` of the public tables whose game runs with each of ``user_ids``
    seated (not left), oldest first, by account: the games a follower may watch (a private
    table is not named, as a profile's recent games leave it out)."""
    if not user_ids:
        return {}
    rows = session.execute(
        select(TableSeat.user_id, GameTable.id, GameTable.game)
        .join(GameTable, GameTable.id == TableSeat.table_id)
        .where(
            TableSeat.user_id.in_(user_ids),
            TableSeat.left.is_(False),
            GameTable.status == "playing",
            GameTable.private.is_(False),
        )
        .order_by(GameTable.created_at, GameTable.id)
    )
    tables: dict[int, list[tuple[str, str]]] = {}
    for user_id, table_id, game in rows:
        assert user_id is not None  # the query asked for these accounts only
        tables.setdefault(user_id, []).append((table_id, game))
    return tables


def forget_follows(session: Session, user_id: int) -> None:
    """Drop every follow from or to ``user_id`` and its notice choices (its account goes)."""
    session.execute(
        delete(Follow).where(or_(Follow.follower_id == user_id, Follow.followed_id == user_id))
    )
    session.execute(delete(FriendNoticeOff).where(FriendNoticeOff.user_id == user_id))


def followed_names(session: Session, user_id: int) -> list[str]:
    """The names of the accounts ``user_id`` follows, by name (the account's export)."""
    return [user.name for user, _since in following_of(session, user_id)]
