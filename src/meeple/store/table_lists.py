"""The queries behind the lobby's pages and the cap on a player's waiting tables.

Each is a function of an open session, run with ``Database.run`` like
:mod:`meeple.store.queries`.
"""

from __future__ import annotations

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from meeple.store.models import GameTable


def lobby_page(
    session: Session, game: str | None, status: str, limit: int, before: str | None = None
) -> list[str] | None:
    """The ids of public tables in ``status`` (of ``game``, or every game), newest first.

    ``before`` is the id of the last table of the previous page: the page holds the tables
    opened before it (ties on the opening time go by id, so a page never repeats or skips
    one). ``None`` if there is no table ``before``.
    """
    query = select(GameTable.id).where(GameTable.status == status, GameTable.private.is_(False))
    if game is not None:
        query = query.where(GameTable.game == game)
    if before is not None:
        cursor = session.execute(
            select(GameTable.created_at, GameTable.id).where(GameTable.id == before)
        ).first()
        if cursor is None:
            return None
        query = query.where(
            or_(
                GameTable.created_at < cursor.created_at,
                and_(GameTable.created_at == cursor.created_at, GameTable.id < cursor.id),
            )
        )
    order = (GameTable.created_at.desc(), GameTable.id.desc())
    return list(session.scalars(query.order_by(*order).limit(limit)))


def waiting_tables_of(session: Session, creator_id: int) -> int:
    """How many tables this user opened that still wait for players (public or private)."""
    query = select(func.count()).where(
        GameTable.creator_id == creator_id, GameTable.status == "open"
    )
    return int(session.scalar(query) or 0)
