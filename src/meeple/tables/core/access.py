"""Who may reach a table (its members, anyone for a public one, holders of a private one's
link), and when its record may be seen (once the game is over).

The routes and the WebSocket both ask here; the table itself checks who may
act (a seat, the turn) and who may start, kick or close (its creator).
"""

from __future__ import annotations

import secrets

from meeple.errors import Code
from meeple.tables.core.log import FINISHED
from meeple.tables.core.table import Table


def is_member(table: Table, user_id: int | None) -> bool:
    """Whether the user created the table or has (had) a seat at it."""
    if user_id is None:
        return False
    if user_id == table.info.creator_id:
        return True
    return any(s.user_id == user_id for s in table.snap.seats)


def may_reach(table: Table, user_id: int | None, invite: str | None) -> bool:
    """Whether the user may see the table: public, a member, or holding the invite token."""
    if not table.info.private or is_member(table, user_id):
        return True
    return invite is not None and secrets.compare_digest(invite, table.info.invite_token)


def check_finished(table: Table) -> None:
    """``not_over`` (a :class:`~meeple.errors.TableError`) unless the game is over: its record
    holds secrets."""
    if table.snap.status != FINISHED:
        raise Code.NOT_OVER.error(
            "the record is published once the game is over (it holds secrets)"
        )


def check_reach(table: Table, user_id: int | None, invite: str | None) -> None:
    """``no_table`` (as if it did not exist) unless the user may reach it."""
    if not may_reach(table, user_id, invite):
        shown = repr(table.info.id)
        raise Code.NO_TABLE.error(table=shown)
