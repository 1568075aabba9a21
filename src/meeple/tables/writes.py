"""Every request to change a table, run on its owner with its outcome acted on.

A :class:`~meeple.tables.table.Table` runs a change only where it is owned and
returns what follows from it (:class:`~meeple.tables.table.Outcome`: the
lobby to tell, a rematch to open); it never forwards a write nor calls up into
the manager. :class:`Writes` is its caller: on the owner it runs the change
and acts on the outcome; elsewhere it forwards the change to the owner
(:meth:`Cluster.forward`), whose :class:`~meeple.tables.calls.CallRouter` runs
it through :meth:`Writes.here` in turn. The table's own clocks and bots report
their outcomes on :attr:`TableContext.outcomes`, acted on by :meth:`Writes.drain`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from meeple.games.base import JSON
from meeple.tables.changes import QUICK_PLAY_BOT
from meeple.tables.cluster import Cluster
from meeple.tables.lobby import LobbyNews
from meeple.tables.outcomes import Outcome
from meeple.tables.table import Table

log = logging.getLogger(__name__)

OPS = frozenset(
    {"join", "leave", "kick", "fill_with_bots", "start", "close", "act", "chat", "ask_rematch"}
)
"""The table's changes a request may ask for (the names a forwarded call may carry)."""


class Writes:
    """The one way a request changes a table: forwarded to its owner, outcomes acted on."""

    def __init__(
        self,
        cluster: Cluster,
        news: LobbyNews,
        open_rematch: Callable[[Table], Awaitable[str]],
    ) -> None:
        self.cluster, self.news = cluster, news
        self.open_rematch = open_rematch
        """Opens the rematch of a finished table; its id."""
        self.turn_watchers: list[Callable[[Table], Awaitable[None]]] = []
        """Told of a table after every change that may have changed whose turn it is (a
        move, a start, an end, a leave), on its owner; each keeps its own work cheap."""

    async def join(self, table: Table, user_id: int, name: str, seat: int | None) -> int:
        """Seat a user (at ``seat`` or the first free one); the seat."""
        return int(await self._write(table, "join", user_id=user_id, name=name, seat=seat))

    async def leave(self, table: Table, user_id: int) -> None:
        """Leave: before the start the seat is freed; during the game a zombie bot takes it."""
        await self._write(table, "leave", user_id=user_id)

    async def kick(self, table: Table, user_id: int, seat: int) -> None:
        """The creator removes whoever sits in ``seat`` before the start."""
        await self._write(table, "kick", user_id=user_id, seat=seat)

    async def fill_with_bots(
        self, table: Table, user_id: int | None, level: str = QUICK_PLAY_BOT
    ) -> None:
        """Seat a bot of ``level`` in every free seat (the creator asks, or the wait ran out)."""
        await self._write(table, "fill_with_bots", user_id=user_id, level=level)

    async def start(self, table: Table, user_id: int) -> None:
        """The creator starts the game; every seat must be taken."""
        await self._write(table, "start", user_id=user_id)

    async def close(self, table: Table, user_id: int) -> None:
        """The creator closes a table that has not started."""
        await self._write(table, "close", user_id=user_id)

    async def act(
        self, table: Table, user_id: int, client_id: str | None, action: JSON, seat: int | None
    ) -> tuple[int, bool]:
        """A player's action: ``(version, duplicate)``; a repeated client id applies once."""
        version, duplicate = await self._write(
            table, "act", user_id=user_id, client_id=client_id, action=action, seat=seat
        )
        return int(version), bool(duplicate)

    async def chat(self, table: Table, user_id: int, name: str, text: str) -> int:
        """Post a chat line; its version."""
        return int(await self._write(table, "chat", user_id=user_id, name=name, text=text))

    async def ask_rematch(self, table: Table, user_id: int) -> str | None:
        """Vote for a rematch; once every player still seated agrees, the new table's id."""
        rematch_id = await self._write(table, "ask_rematch", user_id=user_id)
        return None if rematch_id is None else str(rematch_id)

    async def _write(self, table: Table, op: str, **arguments: Any) -> Any:
        if table.owned:
            return await self.here(table, op, arguments)
        return await self.cluster.forward(table, op, arguments, self.here)

    async def here(self, table: Table, op: str, arguments: dict[str, Any]) -> Any:
        """Run ``op`` on a table this server owns and act on its outcome; its result (JSON:
        it may answer a call forwarded from another server)."""
        if op not in OPS:
            raise ValueError(f"no such table change: {op}")
        if op == "ask_rematch":
            return await self._ask_rematch(table, **arguments)
        result, outcome = await getattr(table.changes, op)(**arguments)
        await self.act_on(table, outcome)
        return result

    async def _ask_rematch(self, table: Table, user_id: int) -> str | None:
        # One vote at a time per table, so the last two votes never open two rematches.
        async with table.rematch_lock:
            rematch_id, outcome = await table.changes.ask_rematch(user_id)
            if outcome.rematch:
                rematch_id = await table.changes.rematch_opened(await self.open_rematch(table))
            elif rematch_id is None:
                await self.news.notices.rematch_asked(table, user_id)
            return rematch_id

    async def act_on(self, table: Table, outcome: Outcome) -> None:
        """Do what a change of ``table`` made due."""
        if outcome.lobby:
            await self.news.changed(table)
        if outcome.lobby or outcome.turn:
            for watcher in self.turn_watchers:
                try:
                    await watcher(table)
                except Exception:  # the change is made: a watcher's failure does not undo it
                    log.exception("table %s: a turn watcher failed", table.info.id)

    async def drain(self, outcomes: asyncio.Queue[tuple[Table, Outcome]]) -> None:
        """Act on the outcomes the tables' clocks and bots report, as they come."""
        while True:
            table, outcome = await outcomes.get()
            try:
                await self.act_on(table, outcome)
            except Exception:
                log.exception("table %s: acting on a change failed", table.info.id)
