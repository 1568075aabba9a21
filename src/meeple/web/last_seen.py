"""When each account was last on the site: ``users.last_seen_at``, written at most once a
minute per account and server.

Every signed-in request (:func:`meeple.web.deps.optional_user`) and every open account
socket (:mod:`meeple.web.me_socket`, once a minute while open) tell :class:`LastSeen`; it
writes the store only when its last write for the account is a minute old. So an
account with a tab open is never more than about a minute unseen, and an account
"away" (unseen for longer than ``MEEPLE_EMAIL_AWAY_S``) has no tab open anywhere.

A write that finds the account unseen for ``away_s`` (by default ``ONLINE_SEEN_S``, when
the friends list stops saying it is online) or never seen before tells ``arrived``: the
account has just come online, and its followers may be told
(:mod:`meeple.tables.notices.friends`).
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.store.database import Database
from meeple.store.email_choices import seen_in_language
from meeple.store.user_games import mark_seen
from meeple.tables.facade import ONLINE_SEEN_S

EVERY_S = 60.0
"""The longest an account's ``last_seen_at`` lags while it is on the site."""

KEPT = 10_000
"""Accounts remembered at most; past it, the ones written over a minute ago are forgotten."""


class LastSeen:
    """Writes accounts' ``last_seen_at``, each at most once every :data:`EVERY_S`."""

    def __init__(
        self,
        db: Database,
        now: Callable[[], float],
        arrived: Callable[[int], None] | None = None,
        away_s: float = ONLINE_SEEN_S,
    ) -> None:
        """``arrived``: told of an account seen after ``away_s`` unseen, or for the first time."""
        self.db, self.now = db, now
        self.arrived, self.away_s = arrived, away_s
        self._written: dict[int, float] = {}
        self._langs: dict[int, str] = {}
        self.writes = 0
        """How many times the store was written (the rest were within a minute)."""

    async def seen(self, user_id: int, lang: str | None = None) -> None:
        """``user_id`` is on the site now: write it, unless written in the last minute.

        ``lang``, the language its page asked in, is kept too (at once when it changes):
        the account's emails are written in it (:mod:`meeple.tables.notices.turn_emails`).
        """
        now = self.now()
        last = self._written.get(user_id)
        same_lang = lang is None or self._langs.get(user_id) == lang
        if last is not None and now - last < EVERY_S and same_lang:
            return
        if lang is not None:
            self._langs[user_id] = lang
        if len(self._written) >= KEPT:
            self._written = {u: t for u, t in self._written.items() if now - t < EVERY_S}
            self._langs = {u: lang for u, lang in self._langs.items() if u in self._written}
        self._written[user_id] = now
        self.writes += 1
        if lang is None:
            before = await self.db.write(mark_seen, user_id, now)
        else:
            before = await self.db.write(seen_in_language, user_id, lang, now)
        if self.arrived is not None and (before is None or now - before >= self.away_s):
            self.arrived(user_id)
