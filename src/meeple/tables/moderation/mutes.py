"""A muted account's chat refused, saying until when (docs/moderation.md, Mute).

Asked by a table before it writes a chat line (``TableChanges.chat`` in
:mod:`meeple.tables.core.changes`), so the table socket, the REST route and the Bot API
refuse alike, on the table's owner.
"""

from __future__ import annotations

import time

from meeple.errors import Code
from meeple.store import moderation as store
from meeple.store.database import Database
from meeple.tables.clock import Clock


def until_text(until: float) -> str:
    """A moment in English, in UTC, for refusals' English messages (pages show local time).

    >>> until_text(0.0)
    '1970-01-01 00:00 UTC'
    """
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


async def check_may_chat(db: Database, clock: Clock, user_id: int) -> None:
    """403 ``muted`` (with ``until``, seconds since the epoch, and ``when``, in words) for an
    account a moderator muted, until the mute ends."""
    mute = await db.run(store.active_sanction, user_id, store.MUTE, clock.now())
    if mute is not None and mute.until is not None:
        raise Code.MUTED.error(until=mute.until, when=until_text(mute.until))
