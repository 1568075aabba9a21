"""The changes people ask of a table, each checked and written under the table's lock.

:class:`TableChanges` belongs to one :class:`~meeple.tables.table.Table` and
runs only on the table's owner: :class:`~meeple.tables.writes.Writes` forwards
a change asked for elsewhere. Each change returns its result and an
:class:`~meeple.tables.outcomes.Outcome` (the lobby to tell, a rematch to
open) for its caller to act on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.base import JSON
from meeple.tables.bot_accounts import is_bot_account
from meeple.tables.errors import TableError
from meeple.tables.log import CLOSED, OPEN, PLAYING
from meeple.tables.outcomes import LOBBY, NOTHING, TURN, Outcome

if TYPE_CHECKING:
    from meeple.tables.table import Table

QUICK_PLAY_BOT = "greedy"
"""The level of the bots that take a quick-play table's free seats (the casual bot)."""


class TableChanges:
    """The checked changes of one table: seats, start and close, actions, chat, rematch."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def join(self, user_id: int, name: str, seat: int | None) -> tuple[int, Outcome]:
        """Seat a user (at ``seat`` or the first free one); returns the seat."""
        async with self.table.lock:
            if self.table.snap.status == CLOSED:
                raise TableError("closed", "this table was closed before its game started")
            if self.table.snap.status != OPEN:
                raise TableError("started", "the game has already started")
            if seat is None:
                free = [s.seat for s in self.table.snap.seats if s.empty]
                if not free:
                    raise TableError("full", "there is no free seat at this table")
                seat = free[0]
            data: dict[str, JSON] = {"name": name}
            if await is_bot_account(self.table.ctx.db, user_id):
                data["bot_account"] = True
            await self.table.write("join", seat, data, user_id=user_id)
            await self.table.runtime.settle(None)
        return seat, LOBBY

    async def leave(self, user_id: int) -> tuple[None, Outcome]:
        """Leave: before the start the seat is freed; during the game a zombie bot takes it."""
        async with self.table.lock:
            seat = self._seat_of(user_id)
            if self.table.snap.status == OPEN:
                await self.table.write("leave", seat, {}, user_id=user_id)
                if all(s.user_id is None for s in self.table.snap.seats):
                    await self.table.write("close", None, {"reason": "everyone left"})
            elif self.table.snap.status == PLAYING:
                await self.table.write("zombie", seat, {"reason": "left"}, user_id=user_id)
            else:
                raise TableError("over", "the game is over; there is nothing to leave")
            await self.table.runtime.settle(None)
        return None, LOBBY

    async def kick(self, user_id: int, seat: int) -> tuple[None, Outcome]:
        """The creator removes whoever sits in ``seat`` before the start."""
        async with self.table.lock:
            self._creator_only(user_id, "remove a player")
            await self.table.write("kick", seat, {}, user_id=user_id)
        return None, LOBBY

    async def fill_with_bots(
        self, user_id: int | None, level: str = QUICK_PLAY_BOT
    ) -> tuple[None, Outcome]:
        """Seat a bot of ``level`` in every free seat (a quick-play table then starts).

        ``user_id`` ``None``: the table's own wait ran out. A person may ask for it
        too ("play bots now"): the creator only, whose seats these are to fill.
        """
        async with self.table.lock:
            if user_id is not None:
                self._creator_only(user_id, "fill the free seats with bots")
                self._seat_of(user_id)
            if self.table.snap.status != OPEN:
                raise TableError("started", "the game has already started")
            for seat in [s.seat for s in self.table.snap.seats if s.empty]:
                await self.table.write("join", seat, {"name": f"bot ({level})", "bot": level})
            await self.table.runtime.settle(None)
        return None, LOBBY

    async def start(self, user_id: int) -> tuple[None, Outcome]:
        """The creator starts the game; every seat must be taken."""
        async with self.table.lock:
            self._creator_only(user_id, "start the game")
            await self.table.write("start", None, {}, user_id=user_id)
            await self.table.runtime.settle(None)
        return None, LOBBY

    async def close(self, user_id: int) -> tuple[None, Outcome]:
        """The creator closes a table that has not started."""
        async with self.table.lock:
            self._creator_only(user_id, "close the table")
            await self.table.write(
                "close", None, {"reason": "closed by its creator"}, user_id=user_id
            )
        return None, LOBBY

    async def act(
        self, user_id: int, client_id: str | None, action: JSON, seat: int | None = None
    ) -> tuple[tuple[int, bool], Outcome]:
        """A player's action: ``(version, duplicate)``; a repeated client id applies once.

        If another server wrote to the table first, the table catches up and the
        action is checked again against the new position (a few times at most).
        """
        for _attempt in range(3):
            try:
                return await self._act_once(user_id, client_id, action, seat)
            except TableError as exc:
                if exc.code != "conflict":
                    raise
        raise TableError("conflict", "the table is changing too fast; try again")

    async def _act_once(
        self, user_id: int, client_id: str | None, action: JSON, seat: int | None
    ) -> tuple[tuple[int, bool], Outcome]:
        async with self.table.lock:
            if client_id is not None and (user_id, client_id) in self.table.client_ids:
                return (self.table.client_ids[(user_id, client_id)], True), NOTHING
            own = self.table.snap.seat_of(user_id)
            if own is None:
                raise TableError("not_seated", "you have no seat at this table")
            if seat is not None and seat != own:
                raise TableError("not_your_seat", f"seat {seat} is not yours (you are seat {own})")
            if self.table.snap.status == PLAYING and self.table.snap.seats[own].zombie:
                raise TableError("zombie", "a bot plays your seat for the rest of this game")
            event = await self.table.write_action(
                own, action, "player", user_id=user_id, client_id=client_id
            )
            await self.table.runtime.settle(own)
        return (event.version, False), LOBBY if self.table.snap.status != PLAYING else TURN

    async def chat(self, user_id: int, name: str, text: str) -> tuple[int, Outcome]:
        """Post a chat line (kept raw; pages escape it); returns its version.

        The per-user limit is checked and counted in one step before the line
        is written, so lines sent at once cannot all slip under it.
        """
        settings = self.table.ctx.settings
        text = text.strip()
        if not text:
            raise TableError("chat_empty", "a chat message cannot be empty")
        if len(text) > settings.chat_max_chars:
            raise TableError(
                "chat_too_long", f"a chat message has at most {settings.chat_max_chars} characters"
            )
        await self.table.ctx.limits.hit("chat", str(user_id))
        async with self.table.lock:
            seat = self.table.snap.seat_of(user_id)
            event = await self.table.write(
                "chat", seat, {"name": name, "text": text}, user_id=user_id
            )
        return event.version, NOTHING

    async def ask_rematch(self, user_id: int) -> tuple[str | None, Outcome]:
        """Vote for a rematch: the rematch's id if it is open; once every player still seated
        agrees, an outcome asking the caller to open it (:meth:`rematch_opened`)."""
        async with self.table.lock:
            if self.table.snap.rematch_id is not None:
                return self.table.snap.rematch_id, NOTHING
            seat = self._seat_of(user_id)
            if not self.table.snap.seats[seat].wants_rematch:
                await self.table.write("rematch_vote", seat, {}, user_id=user_id)
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
            raise TableError("not_seated", "you have no seat at this table")
        return seat

    def _creator_only(self, user_id: int, what: str) -> None:
        if user_id != self.table.info.creator_id:
            raise TableError("not_creator", f"only the table's creator can {what}")
