"""Writes happen on a table's owner: a request on another server is forwarded over the bus.

A change of a table (:class:`~meeple.tables.writes.Writes`) runs where it is
asked for if this server owns the table; otherwise the cluster forwards it
(:meth:`~meeple.tables.cluster.Cluster.forward` finds the owner, or takes the
table over if it has none). The owner's :class:`CallRouter` runs the same change there and answers
on the caller's server channel with the result or the refusal, which the
caller raises as its own. Arguments and results are JSON (ids, names, actions).
An owner with a public address (``MEEPLE_PUBLIC_URL``) gives it with each
answer, so the caller can tell its client where the table runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from meeple.bus import Bus, Subscription
from meeple.games.base import JSON
from meeple.ratelimit import RateLimited
from meeple.tables.errors import TableError

if TYPE_CHECKING:
    from meeple.tables.table import Table

log = logging.getLogger(__name__)

Run = Callable[["Table", str, dict[str, Any]], Awaitable[Any]]
"""Runs a change (its name and arguments) on a table this server owns; its JSON result."""


def server_channel(server_id: str) -> str:
    """The bus channel where a server takes calls and replies."""
    return f"server:{server_id}"


class NotOwner(Exception):
    """The server asked does not own the table (any more): look for its owner again."""


class CallTimeout(Exception):
    """The owner did not answer in time (it may be dead: its lease will expire)."""


def error_to_json(error: TableError) -> dict[str, JSON]:
    """A refusal as it crosses the bus."""
    return {**error.to_json(), "retry_after": getattr(error, "retry_after", None)}


def error_from_json(data: dict[str, Any]) -> TableError:
    """The refusal the owner raised, raised again here (a rate limit keeps its wait)."""
    error: TableError
    if data.get("code") == "rate_limited":
        error = RateLimited.__new__(RateLimited)
        error.retry_after = int(data.get("retry_after") or 1)
    else:
        error = TableError.__new__(TableError)
    TableError.__init__(
        error, data["code"], data["message"], reason=data.get("reason"), params=data.get("params")
    )
    return error


class CallRouter:
    """This server's end of the calls: it runs calls for tables it owns and gets its replies."""

    def __init__(
        self,
        bus: Bus,
        server_id: str,
        find: Callable[[str], Awaitable[Table]],
        public_url: str | None = None,
        run: Run | None = None,
    ) -> None:
        """``public_url``: where clients reach this server, told to callers with each answer;
        ``run``: how a change asked for is run (by default, the table's method of that name)."""
        self.bus = bus
        self.run: Run = run or _call_method
        self.server_id = server_id
        self.find = find
        self.public_url = public_url
        self.addresses: dict[str, str] = {}
        """Where clients reach each server that answered a call of ours (its last answer's
        ``url``); dropped when it stops answering."""
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._waiting_on: dict[str, set[str]] = {}
        """The ids of the calls waiting, by table."""
        self._subscription: Subscription | None = None
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Listen on this server's channel."""
        self._subscription = await self.bus.subscribe(server_channel(self.server_id))
        self._task = asyncio.create_task(self._serve())

    async def stop(self) -> None:
        """Stop listening; calls still waiting fail as timed out."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._subscription is not None:
            await self._subscription.close()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(CallTimeout())

    async def call(
        self,
        owner: str,
        table_id: str,
        op: str,
        arguments: dict[str, Any],
        timeout: float,
        still_owner: Callable[[], Awaitable[bool]] | None = None,
        check_every: float = 0.5,
    ) -> Any:
        """Run ``op`` on ``owner``'s copy of the table; its result, or its refusal raised.

        While no answer has come, ``still_owner`` is asked every ``check_every`` seconds:
        once ``owner`` no longer holds the table (it died and its lease ran out), the call
        fails with :class:`CallTimeout` at once rather than at ``timeout``.
        """
        call_id = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = future
        self._waiting_on.setdefault(table_id, set()).add(call_id)
        try:
            await self.bus.publish(
                server_channel(owner),
                {
                    "type": "call",
                    "id": call_id,
                    "from": self.server_id,
                    "table": table_id,
                    "op": op,
                    "args": arguments,
                },
            )
            reply = await self._answer_to(future, timeout, still_owner, check_every)
        except CallTimeout:
            self.addresses.pop(owner, None)
            raise
        finally:
            self._pending.pop(call_id, None)
            waiting = self._waiting_on.get(table_id)
            if waiting is not None:
                waiting.discard(call_id)
                if not waiting:
                    del self._waiting_on[table_id]
        if reply.get("url"):
            self.addresses[owner] = reply["url"]
        if reply.get("not_owner"):
            raise NotOwner()
        if "error" in reply:
            raise error_from_json(reply["error"])
        return reply.get("result")

    def took_over(self, table_id: str) -> None:
        """This server runs the table now: the calls still waiting on its last owner (dead,
        most likely) stop waiting and are run here, rather than at the next look at the
        lease (up to a second later, for every pending action of a dead server's tables)."""
        for call_id in self._waiting_on.get(table_id, ()):
            future = self._pending.get(call_id)
            if future is not None and not future.done():
                future.set_result({"type": "reply", "id": call_id, "not_owner": True})

    @staticmethod
    async def _answer_to(
        future: asyncio.Future[dict[str, Any]],
        timeout: float,
        still_owner: Callable[[], Awaitable[bool]] | None,
        check_every: float,
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        while True:
            left = give_up - loop.time()
            wait = left if still_owner is None else min(left, check_every)
            try:
                return await asyncio.wait_for(asyncio.shield(future), max(wait, 0))
            except TimeoutError:
                if loop.time() >= give_up or (still_owner is not None and not await still_owner()):
                    raise CallTimeout() from None

    async def _serve(self) -> None:
        assert self._subscription is not None
        while True:
            message = await self._subscription.get()
            if message.get("type") == "reply":
                future = self._pending.get(message.get("id", ""))
                if future is not None and not future.done():
                    future.set_result(message)
            elif message.get("type") == "call":
                task = asyncio.create_task(self._answer(message))
                self._running.add(task)
                task.add_done_callback(self._running.discard)

    async def _answer(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"type": "reply", "id": message["id"]}
        try:
            table = await self.find(message["table"])
            if not table.owned:
                reply["not_owner"] = True
            else:
                if self.public_url:
                    reply["url"] = self.public_url
                result = await self.run(table, message["op"], message["args"])
                reply["result"] = list(result) if isinstance(result, tuple) else result
        except TableError as error:
            reply["error"] = error_to_json(error)
        except Exception:
            log.exception("call %s on table %s failed", message.get("op"), message.get("table"))
            reply["error"] = error_to_json(TableError("unavailable", "the table's server failed"))
        try:
            await self.bus.publish(server_channel(message["from"]), reply)
        except Exception:  # the caller times out and asks again: its client id applies once
            log.exception("answering call %s failed", message.get("id"))


async def _call_method(table: Table, op: str, arguments: dict[str, Any]) -> Any:
    return await getattr(table, op)(**arguments)
