"""The changes people ask of a table, each checked and written under the table's lock.

:class:`TableChanges` belongs to one :class:`~meeple.tables.core.table.Table` and
runs only on the table's owner: :class:`~meeple.tables.cluster.writes.Writes` forwards
a change asked for elsewhere and hands each its
:data:`~meeple.tables.commands.Command`. Each change returns its result and an
:class:`~meeple.tables.core.outcomes.Outcome` (a rematch to open) for its caller to
act on; what it did is published by the table's writer as facts (:mod:`meeple.tables.facts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.errors import Code, TableError
from meeple.games.base import JSON
from meeple.tables.commands import (
    Act,
    AskRematch,
    Chat,
    Claim,
    Close,
    FillWithBots,
    Join,
    Kick,
    Leave,
    Start,
    Takeback,
)
from meeple.tables.core import takebacks
from meeple.tables.core.bot_accounts import is_bot_account
from meeple.tables.core.log import CLOSED, OPEN, PLAYING, SPECTATORS_ROOM
from meeple.tables.core.outcomes import NOTHING, Outcome
from meeple.tables.moderation.mutes import check_may_chat

if TYPE_CHECKING:
    from meeple.tables.core.table import Table


class TableChanges:
    """The checked changes of one table: seats, start and close, actions, chat, rematch."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def join(self, command: Join) -> tuple[int, Outcome]:
        """Seat a user (at ``seat`` or the first free one); returns the seat."""
        user_id, seat = command.user_id, command.seat
        async with self.table.lock:
            if self.table.snap.status == CLOSED:
                raise Code.CLOSED.error()
            if self.table.snap.status != OPEN:
                raise Code.STARTED.error()
            if seat is None:
                free = [s.seat for s in self.table.snap.seats if s.empty]
                if not free:
                    raise Code.FULL.error()
                seat = free[0]
            data: dict[str, JSON] = {"name": command.name}
            if await is_bot_account(self.table.ctx.db, user_id):
                data["bot_account"] = True
            await self.table.write("join", seat, data, user_id=user_id)
            await self.table.runtime.settle(None)
        return seat, NOTHING

    async def leave(self, command: Leave) -> tuple[None, Outcome]:
        """Leave: before the start the seat is freed; during the game a zombie bot takes it."""
        user_id = command.user_id
        async with self.table.lock:
            seat = self._seat_of(user_id)
            if self.table.snap.status == OPEN:
                await self.table.write("leave", seat, {}, user_id=user_id)
                if all(s.user_id is None for s in self.table.snap.seats):
                    await self.table.write("close", None, {"reason": "everyone left"})
            elif self.table.snap.status == PLAYING:
                await self.table.write("zombie", seat, {"reason": "left"}, user_id=user_id)
            else:
                raise Code.OVER.error()
            await self.table.runtime.settle(None)
        return None, NOTHING

    async def kick(self, command: Kick) -> tuple[None, Outcome]:
        """The creator removes whoever sits in ``seat`` before the start."""
        async with self.table.lock:
            self._creator_only(command.user_id, "remove a player")
            await self.table.write("kick", command.seat, {}, user_id=command.user_id)
        return None, NOTHING

    async def fill_with_bots(self, command: FillWithBots) -> tuple[None, Outcome]:
        """Seat a bot of ``level`` in every free seat (a quick-play table then starts).

        ``user_id`` ``None``: the table's own wait ran out. A person may ask for it
        too ("play bots now"): the creator only, whose seats these are to fill.
        """
        user_id, level = command.user_id, command.level
        async with self.table.lock:
            if user_id is not None:
                self._creator_only(user_id, "fill the free seats with bots")
                self._seat_of(user_id)
            if self.table.snap.status != OPEN:
                raise Code.STARTED.error()
            for seat in [s.seat for s in self.table.snap.seats if s.empty]:
                await self.table.write("join", seat, {"name": f"bot ({level})", "bot": level})
            await self.table.runtime.settle(None)
        return None, NOTHING

    async def expire(self) -> bool:
        """Close the table if it still waits for players and nobody acted at it in time
        (:attr:`TableRuntime.expires_at`); whether it closed (not if someone acted meanwhile)."""
        async with self.table.lock:
            at = self.table.runtime.expires_at
            if at is None or self.table.ctx.clock.now() < at:
                return False
            await self.table.write("close", None, {"reason": "expired"})
        return True

    async def start(self, command: Start) -> tuple[None, Outcome]:
        """The creator starts the game; every seat must be taken."""
        async with self.table.lock:
            self._creator_only(command.user_id, "start the game")
            await self.table.write("start", None, {}, user_id=command.user_id)
            await self.table.runtime.settle(None)
        return None, NOTHING

    async def close(self, command: Close) -> tuple[None, Outcome]:
        """The creator closes a table that has not started."""
        async with self.table.lock:
            self._creator_only(command.user_id, "close the table")
            await self.table.write(
                "close", None, {"reason": "closed by its creator"}, user_id=command.user_id
            )
        return None, NOTHING

    async def act(self, command: Act) -> tuple[tuple[int, bool], Outcome]:
        """A player's action: ``(version, duplicate)``; a repeated client id applies once.

        If another server wrote to the table first, the table catches up and the
        action is checked again against the new position (a few times at most).
        """
        for _attempt in range(3):
            try:
                return await self._act_once(command)
            except TableError as exc:
                if exc.code is not Code.CONFLICT:
                    raise
        raise Code.CONFLICT.error("the table is changing too fast; try again")

    async def _act_once(self, command: Act) -> tuple[tuple[int, bool], Outcome]:
        user_id, client_id, seat = command.user_id, command.client_id, command.seat
        async with self.table.lock:
            if client_id is not None and (user_id, client_id) in self.table.client_ids:
                return (self.table.client_ids[(user_id, client_id)], True), NOTHING
            own = self.table.snap.seat_of(user_id)
            if own is None:
                raise Code.NOT_SEATED.error()
            if seat is not None and seat != own:
                raise Code.NOT_YOUR_SEAT.error(seat=seat, own=own)
            if self.table.snap.status == PLAYING and self.table.snap.seats[own].zombie:
                raise Code.ZOMBIE.error()
            event = await self.table.write_action(
                own, command.action, "player", user_id=user_id, client_id=client_id
            )
            await self.table.runtime.settle(own)
        return (event.version, False), NOTHING

    async def chat(self, command: Chat) -> tuple[int, Outcome]:
        """Post a chat line (kept raw; pages escape it); returns its version.

        The per-user limit is checked and counted in one step before the line
        is written, so lines sent at once cannot all slip under it.
        """
        settings = self.table.ctx.settings
        user_id, text = command.user_id, command.text.strip()
        if not text:
            raise Code.CHAT_EMPTY.error()
        if len(text) > settings.chat_max_chars:
            raise Code.CHAT_TOO_LONG.error(limit=settings.chat_max_chars)
        await check_may_chat(self.table.ctx.db, self.table.ctx.clock, user_id)
        await self.table.ctx.limits.hit("chat", str(user_id))
        async with self.table.lock:
            seat = self.table.snap.seat_of(user_id)
            data: dict[str, JSON] = {"name": command.name, "text": text}
            if seat is None and self.table.snap.status == PLAYING:
                data["room"] = SPECTATORS_ROOM  # kept from the players until the end
            event = await self.table.write("chat", seat, data, user_id=user_id)
        return event.version, NOTHING

    async def takeback(self, command: Takeback) -> tuple[int, Outcome]:
        """Take back my last move, or answer the takeback asked of me
        (:mod:`meeple.tables.core.takebacks`); the version of the last event written."""
        async with self.table.lock:
            if command.answer is None:
                return await takebacks.ask(self.table, command.user_id), NOTHING
            accept = command.answer == "accept"
            return await takebacks.answer(self.table, command.user_id, accept), NOTHING

    async def claim(self, command: Claim) -> tuple[bool, Outcome]:
        """Give the guest's seat to the account they signed in to; whether it did (not when
        the guest holds no seat here, or the account already sits at the table)."""
        async with self.table.lock:
            seats = self.table.snap.seats
            held = [s.seat for s in seats if s.user_id == command.guest_id]
            if not held or any(s.user_id == command.user_id for s in seats):
                return False, NOTHING
            data: dict[str, JSON] = {"name": command.name, "from_user_id": command.guest_id}
            await self.table.write("claim", held[0], data, user_id=command.user_id)
        return True, NOTHING

    async def ask_rematch(self, command: AskRematch) -> tuple[str | None, Outcome]:
        """Vote for a rematch: the rematch's id if it is open; once every player still seated
        agrees, an outcome asking the caller to open it (:meth:`rematch_opened`)."""
        async with self.table.lock:
            if self.table.snap.rematch_id is not None:
                return self.table.snap.rematch_id, NOTHING
            seat = self._seat_of(command.user_id)
            if not self.table.snap.seats[seat].wants_rematch:
                await self.table.write("rematch_vote", seat, {}, user_id=command.user_id)
            waiting = [
                s
                for s in self.table.snap.seats
                if s.user_id is not None and not s.left and not s.wants_rematch
            ]
            return None, NOTHING if waiting else Outcome(rematch=True)

    async def rematch_opened(self, new_id: str) -> str:
        """Record the rematch the caller opened; its id (the one recorded first, if any)."""
        async with self.table.lock:
            if self.table.snap.rematch_id is None:
                await self.table.write("rematch", None, {"table_id": new_id})
            return self.table.snap.rematch_id or new_id

    def _seat_of(self, user_id: int) -> int:
        seat = self.table.snap.seat_of(user_id)
        if seat is None:
            raise Code.NOT_SEATED.error()
        return seat

    def _creator_only(self, user_id: int, what: str) -> None:
        if user_id != self.table.info.creator_id:
            raise Code.NOT_CREATOR.error(what=what)
