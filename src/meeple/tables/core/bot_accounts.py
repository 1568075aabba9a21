"""Which seats bot accounts hold: read from the store as a seat is taken.

A seat's ``bot_account`` flag is written into the table's log with the seat
(the ``create`` event's seats, a ``join`` event's data), so the table, its
copies on other servers and its replay know it without asking again. An
account turns into a bot only before it ever sits down, so the flag read when
it sits holds for good.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from meeple.store.database import Database
from meeple.store.tokens import bot_flags
from meeple.tables.core.log import SeatInfo


async def is_bot_account(db: Database, user_id: int) -> bool:
    """Whether user ``user_id`` is a bot account."""
    return user_id in await db.run(bot_flags, [user_id])


async def mark_bot_accounts(db: Database, seats: Sequence[SeatInfo]) -> list[SeatInfo]:
    """The seats with ``bot_account`` set on those bot accounts hold."""
    users = sorted({s.user_id for s in seats if s.user_id is not None})
    bots = await db.run(bot_flags, users) if users else set()
    return [replace(s, bot_account=s.user_id in bots) if s.user_id else s for s in seats]
