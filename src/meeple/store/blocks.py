"""Queries of players' blocks (docs/moderation.md, Chat safety): a blocker sees no chat line
of the accounts they blocked, and those accounts cannot challenge them.

Like :mod:`meeple.store.queries`, each is a function of an open session (one transaction).
"""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.store.models import User
from meeple.store.moderation_models import Block


def block(session: Session, blocker_id: int, blocked_id: int, at: float) -> bool:
    """``blocker_id`` blocks ``blocked_id``; whether that is new (a second block is one)."""
    if session.get(Block, (blocker_id, blocked_id)) is not None:
        return False
    try:
        with session.begin_nested():
            session.add(Block(blocker_id=blocker_id, blocked_id=blocked_id, created_at=at))
            session.flush()
    except IntegrityError:  # the same block stored meanwhile
        return False
    return True


def unblock(session: Session, blocker_id: int, blocked_id: int) -> None:
    """Lift a block (nothing if there was none)."""
    session.execute(
        delete(Block).where(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id)
    )


def blocked_by(session: Session, blocker_id: int) -> list[tuple[str, float]]:
    """The names ``blocker_id`` blocked and when, the newest block first."""
    rows = session.execute(
        select(User.name, Block.created_at)
        .join(User, User.id == Block.blocked_id)
        .where(Block.blocker_id == blocker_id)
        .order_by(Block.created_at.desc(), User.name)
    )
    return [(name, at) for name, at in rows]


def has_blocked(session: Session, blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id``."""
    return session.get(Block, (blocker_id, blocked_id)) is not None
