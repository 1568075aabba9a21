"""Friends: the accounts one follows, which of them are online and playing, and the notices
that follow them (docs/server.md, "Friends").

Following is one way and needs no answer: an account (not a guest) follows any other
account or guest by name, up to :attr:`Friends.max_following`; its friends list says of
each whether it is online now and which public games it plays (a private table is not
named, as a profile's recent games leave it out).

Online is what a tournament's pairing calls present: a socket open on this server, seen on
the site in the last :data:`ONLINE_SEEN_S` (every open page writes ``last_seen_at`` once a
minute, on any server), or, for a bot account, an event stream open anywhere.

Two notices follow the friends, each on unless the follower stopped it:

- ``friend_online``: a followed account comes online, seen again after at least
  :data:`ONLINE_SEEN_S` unseen (:mod:`meeple.web.last_seen` tells :meth:`Friends.arrived`).
  Only the followers online then are told (news of a friend online is stale by the time
  an absent one reads it), and each at most once per followed account per
  :data:`ONLINE_NOTICE_EVERY_S`: coming and going all evening tells once.
- ``friend_entered``: a followed account joins a public tournament (the tournaments'
  service tells :meth:`Friends.entered`): every follower, once per tournament.

Both are made after the request that caused them is answered (the tables' ``soon``
queue), on the server that saw it; their ``dedupe`` keys make a second server seeing the
same arrival store nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from meeple.errors import Code
from meeple.store import follows as store
from meeple.store.challenges import account_by_name
from meeple.store.database import Database
from meeple.store.models import User
from meeple.store.queries import user_by_id
from meeple.store.tournament_models import Tournament
from meeple.store.tournaments import seen_since
from meeple.tables.clock import Clock
from meeple.tables.lobby.online_bots import OnlineBots
from meeple.tables.notices.notifications import NotificationKind, Notifier

MAX_FOLLOWING = 500
"""How many accounts one account may follow (``too_many_follows`` beyond)."""

ONLINE_SEEN_S = 90.0
"""An account seen on the site this recently is online (a tournament's pairing says
present by the same measure: ``meeple.web.services.PRESENT_SEEN_S``)."""

ONLINE_NOTICE_EVERY_S = 3 * 3600.0
"""A follower is told that one followed account came online at most once in this long."""

Soon = Callable[[Callable[[], Awaitable[object]]], None]
"""Queues work to run after the current request is answered (``TableFacts.soon``)."""


class Friends:
    """Follows, the friends list, and the friend notices."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        notifier: Notifier,
        soon: Soon,
        sockets_here: Callable[[int], int],
        bots: OnlineBots,
    ) -> None:
        """``sockets_here``: how many sockets an account holds open on this server; ``bots``:
        which bot accounts have an event stream open."""
        self.db, self.clock, self.notifier, self.soon = db, clock, notifier, soon
        self.sockets_here, self.bots = sockets_here, bots
        self.max_following = MAX_FOLLOWING
        """The cap on the accounts one follows (tests lower it)."""

    async def _target(self, user: User, name: str) -> User:
        """The account ``user`` names to follow or unfollow: ``follow_guest`` for a guest
        asking, ``no_player`` for a name nobody has (or a deleted account's)."""
        if user.guest:
            raise Code.FOLLOW_GUEST.error()
        target = await self.db.run(account_by_name, name)
        if target is None:
            raise Code.NO_PLAYER.error(name=repr(name[:40]))
        return target

    async def follow(self, user: User, name: str) -> dict[str, Any]:
        """``user`` follows the account called ``name`` (following it already: no change)."""
        target = await self._target(user, name)
        if target.id == user.id:
            raise Code.FOLLOW_SELF.error()
        now, cap = self.clock.now(), self.max_following
        if await self.db.run(store.follow_within, user.id, target.id, now, cap) == store.FULL:
            raise Code.TOO_MANY_FOLLOWS.error(limit=cap)
        return await self._answer(user, target, True)

    async def unfollow(self, user: User, name: str) -> dict[str, Any]:
        """``user`` stops following the account called ``name`` (not following: no change)."""
        target = await self._target(user, name)
        await self.db.run(store.unfollow, user.id, target.id)
        return await self._answer(user, target, False)

    async def _answer(self, user: User, target: User, following: bool) -> dict[str, Any]:
        count = await self.db.run(store.following_count, user.id)
        return {
            "name": target.name,
            "following": following,
            "count": count,
            "limit": self.max_following,
        }

    async def listing(self, user: User) -> dict[str, Any]:
        """The accounts ``user`` follows, those online first (then by name), each with the
        public games it plays; how many, the cap, and ``user``'s notice choices."""
        rows = [] if user.guest else await self.db.run(store.following_of, user.id)
        friends = [friend for friend, _since in rows]
        online = await self.online(friends)
        playing = await self.db.run(store.running_public_tables, [f.id for f in friends])
        listed = [
            {
                "name": friend.name,
                "bot": bool(friend.bot),
                "guest": friend.guest,
                "since": since,
                "online": friend.id in online,
                "playing": [
                    {"table_id": table_id, "game": game}
                    for table_id, game in playing.get(friend.id, [])
                ],
            }
            for friend, since in rows
        ]
        listed.sort(key=lambda entry: not entry["online"])  # stable: by name within each
        return {
            "friends": listed,
            "count": len(listed),
            "limit": self.max_following,
            "notices": await self.db.run(store.notice_choices, user.id),
        }

    async def choose(self, user: User, choices: dict[str, bool | None]) -> dict[str, bool]:
        """Take or stop each kind of friend notice given (``None``: left as it is); the
        choices then."""
        if user.guest:
            raise Code.FOLLOW_GUEST.error()
        now = self.clock.now()
        for kind, on in choices.items():
            if on is not None:
                await self.db.run(store.choose_notice, user.id, kind, on, now)
        return await self.db.run(store.notice_choices, user.id)

    async def online(self, users: Sequence[User]) -> set[int]:
        """The ids of those of ``users`` online now (see the module's docstring)."""
        ids = [user.id for user in users]
        found = {user_id for user_id in ids if self.sockets_here(user_id) > 0}
        rest = [user_id for user_id in ids if user_id not in found]
        if rest:
            found |= await self.db.run(seen_since, rest, self.clock.now() - ONLINE_SEEN_S)
        for user in users:  # a bot account's stream does not write last_seen_at as it runs
            if user.bot and user.id not in found and await self.bots.is_online(user.id):
                found.add(user.id)
        return found

    def arrived(self, user_id: int) -> None:
        """``user_id`` came online (unseen for :data:`ONLINE_SEEN_S` before): tell its
        followers online, after the request is answered."""
        self.soon(functools.partial(self.tell_online, user_id))

    async def tell_online(self, user_id: int) -> None:
        """Tell the followers of ``user_id`` online now that it is, each at most once per
        :data:`ONLINE_NOTICE_EVERY_S`."""
        friend = await self.db.run(user_by_id, user_id)
        followers = await self.db.run(store.followers_to_tell, user_id, "online")
        if friend is None or not followers:
            return
        online = sorted(await self.online(followers))
        now = self.clock.now()
        prefix = f"online:{user_id}:"
        since = now - ONLINE_NOTICE_EVERY_S
        told = await self.db.run(store.told_since, online, prefix, since)
        window = int(now // ONLINE_NOTICE_EVERY_S)  # two servers told of one arrival: one notice
        for follower in online:
            if follower in told:
                continue
            await self.notifier.notify(
                follower,
                NotificationKind.FRIEND_ONLINE,
                {"from": friend.name, "bot": bool(friend.bot)},
                dedupe=f"{prefix}{window}",
            )

    def entered(self, user: User, tournament: Tournament) -> None:
        """``user`` joined ``tournament``: tell its followers, after the request is answered
        (a private tournament is told to nobody: its link is its creator's to give)."""
        if tournament.private:
            return
        data = {
            "from": user.name,
            "tournament": tournament.id,
            "name": tournament.name,
            "game": tournament.game,
        }
        self.soon(functools.partial(self.tell_entered, user.id, data))

    async def tell_entered(self, user_id: int, data: dict[str, Any]) -> None:
        """Tell every follower of ``user_id`` taking tournament notices that it joined the
        tournament ``data`` names (once per tournament, even after a withdrawal and return)."""
        for follower in await self.db.run(store.followers_to_tell, user_id, "tournaments"):
            await self.notifier.notify(
                follower.id,
                NotificationKind.FRIEND_ENTERED,
                data,
                dedupe=f"entered:{data['tournament']}:{user_id}",
            )
