"""Challenges between accounts: send, accept, decline, cancel; a lapse after a while.

A person or a bot challenges a named account to a game with its options and
clock, rated or not (docs/bot-api.md, Challenges). The challenge is stored, so
any server may answer it and it outlives a restart; it leaves ``open`` by one
conditional update (:func:`meeple.store.challenges.close_challenge`), so of two
answers at once exactly one counts. Every change goes to both accounts' event
streams (:func:`meeple.tables.notices.user_events.publish_user_event`).

Accepting opens a private table with both accounts seated (in a random order:
the first seat may move first) and starts it: its ``game_start`` lines come
from the table's start like any table's. A challenge names two players; a game
for more seats fills the others with built-in bots of the challenge's ``fill``
level. An open challenge lapses ``MEEPLE_CHALLENGE_TTL_S`` after it was sent:
it then reads ``lapsed`` and can no longer be answered; the server that stored
it tells both accounts then (a ``challenge_cancelled`` line with the status
``lapsed``, so a client that drops cancelled challenges drops it too). After a
restart that timer is gone, and such a challenge only reads ``lapsed``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from meeple.bus import Bus
from meeple.config import Settings
from meeple.errors import Code, TableError
from meeple.games.base import JSON
from meeple.ratelimit import RateLimited, RateLimits
from meeple.store import challenges as store
from meeple.store.blocks import has_blocked
from meeple.store.database import Database
from meeple.store.models import Challenge, User
from meeple.tables.clock import Clock
from meeple.tables.core.spec import TableSpec, check_spec
from meeple.tables.lobby.matchmaking import Matchmaking, new_table_id
from meeple.tables.notices.notifications import NotificationKind, Notifier
from meeple.tables.notices.user_events import publish_user_event
from meeple.tasks import cancel_all_and_wait

log = logging.getLogger(__name__)

DECLINE_REASONS = ("generic", "later", "too_fast", "too_slow", "rated", "casual", "variant")
"""Why a challenge may be declined (the site says each in the challenger's language)."""

DEFAULT_FILL = "greedy"
"""The built-in bots' level in a challenge's seats beyond the two players' unless it says."""

LAPSED = store.LAPSED
"""How an open challenge past its time reads."""


@dataclass(frozen=True)
class ChallengeAsk:
    """What a challenge asks for: the game, its options, the clock and whether it is rated."""

    to: str
    game: str
    options: dict[str, JSON]
    pace: str = "realtime"
    move_seconds: int | None = None
    rated: bool = False
    fill: str = DEFAULT_FILL
    """The built-in bots' level in the seats beyond the two players' (a game for more)."""


def person(user: User) -> dict[str, Any]:
    """An account as a challenge shows it."""
    return {"id": user.id, "name": user.name, "bot": bool(user.bot)}


def challenge_json(row: store.ChallengeRow, now: float | None = None) -> dict[str, Any]:
    """A challenge as its two accounts see it (status ``lapsed`` once open past its time, if
    ``now`` is given: a row read as open at ``now`` needs none)."""
    challenge, sender, receiver = row
    status = challenge.status
    if status == store.OPEN and now is not None and challenge.expires_at <= now:
        status = LAPSED
    return {
        "id": challenge.id,
        "from": person(sender),
        "to": person(receiver),
        "game": challenge.game,
        "options": dict(challenge.options),
        "pace": challenge.pace,
        "move_seconds": challenge.move_seconds,
        "rated": challenge.rated,
        "status": status,
        "reason": challenge.reason,
        "table_id": challenge.table_id,
        "created_at": challenge.created_at,
        "expires_at": challenge.expires_at,
    }


def replay_room(buffer: int, running_games: int) -> int:
    """How many open challenges a new event stream replays, newest first: half the stream's
    ``buffer`` (``MEEPLE_STREAM_BUFFER``) less one per running game's ``game_start`` line.

    The replay is queued at once, before the client has read a line: kept within half the
    queue it always fits, with the other half for what happens meanwhile, however many
    challenges strangers leave open (a full queue would drop the stream at every reconnect).
    """
    return max(0, buffer // 2 - running_games)


def cap_refusal(full: str, receiver: User, max_sent: int, max_received: int) -> TableError:
    """The refusal of a challenge over a cap (``full``: which, as
    :func:`meeple.store.challenges.insert_challenge_within` answers)."""
    if full == store.SENT:
        return Code.TOO_MANY_CHALLENGES.error(limit=max_sent)
    return Code.PLAYER_TOO_MANY_CHALLENGES.error(limit=max_received, name=receiver.name)


def table_spec(
    game: str, options: dict[str, JSON], pace: str, move_seconds: int | None, rated: bool
) -> TableSpec:
    """The private table a challenge asks for: ``options["players"]`` seats (2 unless said),
    those beyond the first two given to built-in bots of level ``options["fill"]``."""
    rest = dict(options)
    seats = rest.setdefault("players", 2)
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < 2:
        raise Code.BAD_SEATS.error("a challenge is for two players (more: built-in bots)")
    level = str(rest.pop("fill", DEFAULT_FILL))
    return TableSpec(
        game=game,
        seats=seats,
        bots={seat: level for seat in range(2, seats)},
        options=rest,
        private=True,
        rated=rated,
        pace=pace,
        move_seconds=move_seconds,
        sit=False,
    )


def spec_of(challenge: Challenge) -> TableSpec:
    """The table a stored challenge asks for."""
    options = dict(challenge.options)
    return table_spec(
        challenge.game, options, challenge.pace, challenge.move_seconds, challenge.rated
    )


class Challenges:
    """Every change of a challenge: checked, stored, and told to both accounts."""

    def __init__(
        self,
        db: Database,
        bus: Bus,
        clock: Clock,
        settings: Settings,
        matchmaking: Matchmaking,
        notifier: Notifier,
        limits: RateLimits,
    ) -> None:
        self.db, self.bus, self.clock, self.settings = db, bus, clock, settings
        self.matchmaking = matchmaking
        self.notifier = notifier
        """Tells a challenged person's pages (a bot account has its event stream)."""
        self.limits = limits
        """Counts the challenge notifications each account is given."""
        self._lapses: set[asyncio.Task[None]] = set()
        """A timer per challenge sent here and still open, to tell its lapse."""

    async def send(self, sender: User, ask: ChallengeAsk) -> dict[str, Any]:
        """Challenge the account named ``ask.to``; the stored challenge."""
        receiver = await self.db.run(store.account_by_name, ask.to)
        if receiver is None:
            raise Code.NO_PLAYER.error(f"nobody is called {ask.to[:40]!r}")
        if receiver.id == sender.id:
            raise Code.CHALLENGE_SELF.error()
        if await self.db.run(has_blocked, receiver.id, sender.id):
            raise Code.BLOCKED.error(name=receiver.name)
        bots_rated = self.settings.bots_rated_vs_people
        if ask.rated and bool(sender.bot) != bool(receiver.bot) and not bots_rated:
            raise Code.BOT_UNRATED.error()
        options = dict(ask.options)
        players = options.get("players", 2)
        if isinstance(players, int) and players > 2:
            options["fill"] = ask.fill
        spec = table_spec(ask.game, options, ask.pace, ask.move_seconds, ask.rated)
        checked = check_spec(spec)
        now = self.clock.now()
        challenge = Challenge(
            id=new_table_id(),
            from_id=sender.id,
            to_id=receiver.id,
            game=ask.game,
            options={**options, "players": spec.seats},
            pace=ask.pace,
            move_seconds=checked.move_seconds,
            rated=ask.rated,
            status=store.OPEN,
            created_at=now,
            expires_at=now + self.settings.challenge_ttl_s,
        )
        values = {c.name: getattr(challenge, c.name) for c in Challenge.__table__.columns}
        caps = self.settings.max_challenges_sent, self.settings.max_challenges_received
        full = await self.db.run(store.insert_challenge_within, values, *caps)
        if full is not None:
            raise cap_refusal(full, receiver, *caps)
        task = asyncio.create_task(self._lapse_at(challenge.id, challenge.expires_at))
        self._lapses.add(task)
        task.add_done_callback(self._lapses.discard)
        shown = await self._tell(challenge.id, "challenge")
        if not receiver.bot and await self._may_notify(receiver):
            data = {"id": challenge.id, "from": sender.name, "game": ask.game, "pace": ask.pace}
            await self.notifier.notify(
                receiver.id, NotificationKind.CHALLENGE, data, dedupe=f"challenge:{challenge.id}"
            )
        return shown

    async def _may_notify(self, receiver: User) -> bool:
        """Whether ``receiver`` is still within ``MEEPLE_LIMIT_CHALLENGE_NOTIFICATIONS``: the
        open-challenge cap bounds what waits, this bounds the notifications that senders
        sending and cancelling in turn would otherwise make without end."""
        try:
            await self.limits.hit("challenge_notifications", str(receiver.id))
        except RateLimited:
            return False
        return True

    async def _lapse_at(self, challenge_id: str, moment: float) -> None:
        """At ``moment``, mark the challenge lapsed if still open and tell both accounts."""
        await self.clock.sleep_until(moment)
        try:
            if await self.db.run(store.lapse_challenge, challenge_id, self.clock.now()):
                await self._tell(challenge_id, "challenge_cancelled")
        except Exception:  # the challenge reads lapsed anyway; only the line is lost
            log.warning("challenge %s: telling its lapse failed", challenge_id, exc_info=True)

    async def stop(self) -> None:
        """Stop the lapse timers (a challenge past its time still reads lapsed)."""
        await cancel_all_and_wait(self._lapses)

    async def get(self, user: User, challenge_id: str) -> dict[str, Any]:
        """A challenge to or from ``user`` (404 ``no_challenge`` for anyone else)."""
        return challenge_json(await self._row(user, challenge_id), self.clock.now())

    async def open_of(self, user: User) -> list[dict[str, Any]]:
        """The open challenges to and from ``user``, oldest first."""
        now = self.clock.now()
        rows = await self.db.run(store.open_challenges_of, user.id, now)
        return [challenge_json(row, now) for row in rows]

    async def accept(self, user: User, challenge_id: str) -> str:
        """The challenged account accepts: a table opens with both seated and starts; its id."""
        challenge, sender, receiver = await self._row(user, challenge_id)
        if receiver.id != user.id:
            raise Code.NO_CHALLENGE.error("only the challenged account accepts")
        table_id = new_table_id()
        await self._close(challenge_id, "accepted", table_id=table_id)
        players = [(sender.id, sender.name), (receiver.id, receiver.name)]
        if secrets.randbelow(2):
            players.reverse()
        try:
            await self.matchmaking.open_seated(table_id, sender.id, spec_of(challenge), players)
        except BaseException:
            await self.db.run(store.reopen_challenge, challenge_id, table_id)
            raise
        await self._tell(challenge_id, "challenge_accepted")
        return table_id

    async def decline(self, user: User, challenge_id: str, reason: str) -> dict[str, Any]:
        """The challenged account declines, saying why (one of :data:`DECLINE_REASONS`)."""
        if reason not in DECLINE_REASONS:
            raise Code.BAD_REASON.error(reasons=", ".join(DECLINE_REASONS))
        _, _, receiver = await self._row(user, challenge_id)
        if receiver.id != user.id:
            raise Code.NO_CHALLENGE.error("only the challenged account declines")
        await self._close(challenge_id, "declined", reason=reason)
        return await self._tell(challenge_id, "challenge_declined")

    async def cancel(self, user: User, challenge_id: str) -> dict[str, Any]:
        """The challenger takes the challenge back."""
        _, sender, _ = await self._row(user, challenge_id)
        if sender.id != user.id:
            raise Code.NO_CHALLENGE.error("only the challenger cancels")
        await self._close(challenge_id, "cancelled")
        return await self._tell(challenge_id, "challenge_cancelled")

    async def _row(self, user: User, challenge_id: str) -> store.ChallengeRow:
        row = await self.db.run(store.challenge_by_id, challenge_id)
        if row is None or user.id not in (row[0].from_id, row[0].to_id):
            raise Code.NO_CHALLENGE.error()
        return row

    async def _close(self, challenge_id: str, status: str, **values: str) -> None:
        now = self.clock.now()
        if not await self.db.run(store.close_challenge, challenge_id, status, now, *_args(values)):
            raise Code.CHALLENGE_CLOSED.error()

    async def _tell(self, challenge_id: str, kind: str) -> dict[str, Any]:
        """Send a challenge's line of ``kind`` to both accounts' event streams; the challenge."""
        row = await self.db.run(store.challenge_by_id, challenge_id)
        assert row is not None  # challenges are never deleted
        shown = challenge_json(row, self.clock.now())
        line = {"type": kind, "challenge": shown}
        for user_id in (row[0].from_id, row[0].to_id):
            await publish_user_event(self.bus, str(user_id), line)
        return shown


def _args(values: dict[str, str]) -> tuple[str | None, str | None]:
    return values.get("reason"), values.get("table_id")
