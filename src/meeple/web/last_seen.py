"""When each account was last on the site: ``users.last_seen_at``, written at most once a
minute per account and server.

Every signed-in request (:func:`meeple.web.deps.optional_user`) and every open account
socket (:mod:`meeple.web.me_socket`, once a minute while open) tell :class:`LastSeen`; it
writes the store only when its last write for the account is a minute old. So an
account with a tab open is never more than about a minute unseen, and an account
"away" (unseen for longer than ``MEEPLE_EMAIL_AWAY_S``) has no tab open anywhere.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.store.database import Database
from meeple.store.user_games import mark_seen

EVERY_S = 60.0
"""The longest an account's ``last_seen_at`` lags while it is on the site."""

KEPT = 10_000
"""Accounts remembered at most; past it, the ones written over a minute ago are forgotten."""


class LastSeen:
    """Writes accounts' ``last_seen_at``, each at most once every :data:`EVERY_S`."""

    def __init__(self, db: Database, now: Callable[[], float]) -> None:
        self.db, self.now = db, now
        self._written: dict[int, float] = {}
        self.writes = 0
        """How many times the store was written (the rest were within a minute)."""

    async def seen(self, user_id: int) -> None:
        """``user_id`` is on the site now: write it, unless written in the last minute."""
        now = self.now()
        last = self._written.get(user_id)
        if last is not None and now - last < EVERY_S:
            return
        if len(self._written) >= KEPT:
            self._written = {u: t for u, t in self._written.items() if now - t < EVERY_S}
        self._written[user_id] = now
        self.writes += 1
        await self.db.write(mark_seen, user_id, now)
