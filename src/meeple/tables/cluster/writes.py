"""Every request to change a table (a :data:`~meeple.tables.commands.Command`), run on its
owner with its outcome acted on.

A :class:`~meeple.tables.core.table.Table` runs a change only where it is owned and
returns what its caller must do (:class:`~meeple.tables.core.outcomes.Outcome`: a
rematch to open); it never forwards a write nor calls up into the manager, and what
the change did reaches the features around the table as facts
(:mod:`meeple.tables.facts`), not through here. :class:`Writes` is its caller: on the
owner it runs the change and acts on the outcome; elsewhere it forwards the change to
the owner (:meth:`Cluster.forward`), whose :class:`~meeple.tables.cluster.calls.CallRouter`
reads it back into the same command and runs it through :meth:`Writes.here` in turn.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, assert_never

from meeple.errors import TableError
from meeple.games.base import JSON
from meeple.observe.request_ids import on_table
from meeple.tables.cluster.cluster import Cluster
from meeple.tables.commands import (
    Act,
    AskRematch,
    Chat,
    Claim,
    Close,
    Command,
    FillWithBots,
    Join,
    Kick,
    Leave,
    Start,
    TableCommand,
    Takeback,
    closed,
)
from meeple.tables.core.table import Table

log = logging.getLogger(__name__)

R = TypeVar("R")

CommandTimer = Callable[[str, str, float], None]
"""Told of each command :meth:`Writes.run` answered: its tag, its outcome (``done``,
``refused`` or ``failed``) and the seconds from the call to the answer."""


def _no_timer(command: str, outcome: str, seconds: float) -> None:
    """Times nothing."""


class Writes:
    """The one way a request changes a table: forwarded to its owner, outcomes acted on."""

    def __init__(
        self,
        cluster: Cluster,
        open_rematch: Callable[[Table], Awaitable[str]],
        timed: CommandTimer = _no_timer,
    ) -> None:
        self.cluster = cluster
        self.open_rematch = open_rematch
        """Opens the rematch of a finished table; its id."""
        self.timed = timed
        """Counts each command and its latency (the server's metrics)."""

    async def run(self, table: Table, command: TableCommand[R]) -> R:
        """Run ``command`` on the table's owner (here, or forwarded there); its result."""
        asked = closed(command)
        started = time.perf_counter()
        outcome = "failed"
        with on_table(table.info.id):
            try:
                if table.owned:
                    answer = await self.here(table, asked)
                else:
                    answer = await self.cluster.forward(table, asked, self.here)
                outcome = "done"
            except TableError:
                outcome = "refused"
                raise
            finally:
                seconds = time.perf_counter() - started
                self.timed(asked.tag, outcome, seconds)
                log.debug("%s %s in %.1f ms", asked.tag, outcome, seconds * 1000)
        return command.result_of(answer)

    async def here(self, table: Table, command: Command) -> JSON:
        """Run ``command`` on a table this server owns; its answer (JSON: it may answer a
        call forwarded from another server)."""
        changes = table.changes
        result: JSON
        match command:
            case Join():
                result, _ = await changes.join(command)
            case Leave():
                result, _ = await changes.leave(command)
            case Kick():
                result, _ = await changes.kick(command)
            case FillWithBots():
                result, _ = await changes.fill_with_bots(command)
            case Start():
                result, _ = await changes.start(command)
            case Close():
                result, _ = await changes.close(command)
            case Act():
                result, _ = await changes.act(command)
            case Chat():
                result, _ = await changes.chat(command)
            case Claim():
                result, _ = await changes.claim(command)
            case Takeback():
                result, _ = await changes.takeback(command)
            case AskRematch():
                return await self._ask_rematch(table, command)
            case _:
                assert_never(command)
        return result

    async def _ask_rematch(self, table: Table, command: AskRematch) -> str | None:
        # One vote at a time per table, so the last two votes never open two rematches.
        async with table.rematch_lock:
            rematch_id, outcome = await table.changes.ask_rematch(command)
            if outcome.rematch:
                rematch_id = await table.changes.rematch_opened(await self.open_rematch(table))
            return rematch_id
