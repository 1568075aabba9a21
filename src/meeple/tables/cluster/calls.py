"""Writes happen on a table's owner: a request on another server is forwarded over the bus.

A change of a table (:class:`~meeple.tables.cluster.writes.Writes`) runs where it is
asked for if this server owns the table; otherwise the cluster forwards it
(:meth:`~meeple.tables.cluster.cluster.Cluster.forward` finds the owner, or takes the
table over if it has none). The owner's :class:`CallRouter` runs the same change there and answers
on the caller's server channel with the result or the refusal, which the
caller raises as its own. A call carries a :data:`~meeple.tables.commands.Command` as its
tag and fields, read back into the same type on the owner (a tag outside
:data:`~meeple.tables.commands.COMMANDS` runs nothing); its result is JSON.
An owner with a public address (``MEEPLE_PUBLIC_URL``) gives it with each
answer, so the caller can tell its client where the table runs.

A call is sent again under the same id when its answer is late (the caller's time-out)
or the server asked no longer owns the table. The owner keeps each answer it gave, by
call id, for :data:`REMEMBER_S` seconds (:class:`Answers`): a repeat is answered from
there, and a repeat of a call still running waits for that run's answer, so a change is
never run twice by one owner. Only "not the owner" is forgotten at once: nothing ran,
and the same server may own the table by the time the call comes again.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from meeple.bus import Bus, Subscription
from meeple.errors import Code, MustWait, TableError
from meeple.games.base import JSON
from meeple.observe.request_ids import GOOD_ID, REQUEST_ID, on_table, working_for
from meeple.tables.commands import Command, command_json, command_of
from meeple.tasks import cancel_and_wait

if TYPE_CHECKING:
    from meeple.tables.core.table import Table

log = logging.getLogger(__name__)

Run = Callable[["Table", Command], Awaitable[JSON]]
"""Runs a command on a table this server owns; its JSON result."""


REMEMBER_S = 120.0
"""How long an owner keeps the answer of a call, for a repeat of it: longer than a caller
keeps sending one call (its time-outs until a lease runs out)."""

REMEMBER_MAX = 100_000
"""The most answers an owner keeps (the oldest go first): minutes of a busy server's calls."""


def new_call_id() -> str:
    """A fresh id for a call, kept by every repeat of it."""
    return uuid.uuid4().hex


def server_channel(server_id: str) -> str:
    """The bus channel where a server takes calls and replies."""
    return f"server:{server_id}"


def request_of(call: dict[str, Any]) -> str | None:
    """The id of the request a call was made for, on the caller's server (its log lines
    and the owner's name the same request)."""
    request_id = call.get("request")
    return request_id if isinstance(request_id, str) and GOOD_ID.fullmatch(request_id) else None


class NotOwner(Exception):
    """The server asked does not own the table (any more): look for its owner again."""


class CallTimeout(Exception):
    """The owner did not answer in time (it may be dead: its lease will expire)."""


def error_to_json(error: TableError) -> dict[str, JSON]:
    """A refusal as it crosses the bus."""
    return {**error.to_json(), "retry_after": getattr(error, "retry_after", None)}


def error_from_json(data: dict[str, Any]) -> TableError:
    """The refusal the owner raised, raised again here (a refusal that time lifts keeps its
    wait)."""
    code, message = Code.named(data["code"]), data["message"]
    reason, params = data.get("reason"), data.get("params")
    if data.get("retry_after") is not None:
        wait = int(data["retry_after"])
        return MustWait(code, message, retry_after=wait, reason=reason, params=params)
    return TableError(code, message, reason=reason, params=params)


@dataclass
class CallStats:
    """What this server's end of the calls has done since it started (operators, tests)."""

    sent: int = 0
    """Calls sent to another server, repeats included."""
    sent_again: int = 0
    """Calls sent again under the same id (the answer was late, or the owner had changed)."""
    timed_out: int = 0
    """Calls whose answer did not come in time."""
    answered: int = 0
    """Calls run here for another server."""
    answered_again: int = 0
    """Repeats of a call answered from memory (never run twice)."""

    def to_json(self) -> dict[str, int]:
        """The counts by name."""
        return asdict(self)


class Answers:
    """The answers this owner gave (or is giving), by call id, for a while."""

    def __init__(self, keep_s: float = REMEMBER_S, most: int = REMEMBER_MAX) -> None:
        self.keep_s, self.most = keep_s, most
        self._kept: OrderedDict[str, tuple[float, asyncio.Future[dict[str, Any]]]] = OrderedDict()

    def get(self, call_id: str) -> asyncio.Future[dict[str, Any]] | None:
        """The answer to ``call_id`` (a future while the call runs), if kept."""
        kept = self._kept.get(call_id)
        return None if kept is None else kept[1]

    def keep(self, call_id: str, answer: asyncio.Future[dict[str, Any]]) -> None:
        """Keep the answer to ``call_id``; let the oldest go past the age or the count."""
        now = time.monotonic()
        self._kept[call_id] = (now, answer)
        while self._kept:
            oldest, _ = next(iter(self._kept.values()))
            if now - oldest <= self.keep_s and len(self._kept) <= self.most:
                break
            self._kept.popitem(last=False)

    def forget(self, call_id: str) -> None:
        """Forget ``call_id`` (nothing ran: a repeat must run)."""
        self._kept.pop(call_id, None)

    def __len__(self) -> int:
        return len(self._kept)


class CallRouter:
    """This server's end of the calls: it runs calls for tables it owns and gets its replies."""

    def __init__(
        self,
        bus: Bus,
        server_id: str,
        find: Callable[[str], Awaitable[Table]],
        public_url: str | None = None,
    ) -> None:
        """``find``: a table by id, as this server has it; ``public_url``: where clients
        reach this server, told to callers with each answer."""
        self.bus = bus
        self.run: Run | None = None
        """How a command asked for is run (given at :meth:`start`; a server that runs none
        answers every call ``unavailable``)."""
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
        self.answers = Answers()
        """The answers given to other servers' calls, for their repeats."""
        self.stats = CallStats()

    async def start(self, run: Run | None = None) -> None:
        """Listen on this server's channel; run the calls for tables owned here with ``run``
        (:meth:`Writes.here <meeple.tables.cluster.writes.Writes.here>`)."""
        self.run = run
        self._subscription = await self.bus.subscribe(server_channel(self.server_id))
        self._task = asyncio.create_task(self._serve())

    async def stop(self) -> None:
        """Stop listening; calls still waiting fail as timed out."""
        await cancel_and_wait(self._task)
        if self._subscription is not None:
            await self._subscription.close()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(CallTimeout())

    async def call(
        self,
        owner: str,
        table_id: str,
        command: Command,
        timeout: float,
        still_owner: Callable[[], Awaitable[bool]] | None = None,
        check_every: float = 0.5,
        call_id: str | None = None,
        again: bool = False,
    ) -> Any:
        """Run ``command`` on ``owner``'s copy of the table; its result, or its refusal raised.

        While no answer has come, ``still_owner`` is asked every ``check_every`` seconds:
        once ``owner`` no longer holds the table (it died and its lease ran out), the call
        fails with :class:`CallTimeout` at once rather than at ``timeout``. ``call_id``:
        the id of a call sent before (``again``: this is a repeat of it), so the owner runs
        it once (:class:`Answers`); a new id by default.
        """
        call_id = call_id or new_call_id()
        self.stats.sent += 1
        self.stats.sent_again += again
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = future
        self._waiting_on.setdefault(table_id, set()).add(call_id)
        tag, fields = command_json(command)
        try:
            await self.bus.publish(
                server_channel(owner),
                {
                    "type": "call",
                    "id": call_id,
                    "from": self.server_id,
                    "table": table_id,
                    "op": tag,
                    "args": fields,
                    "request": REQUEST_ID.get(),
                },
            )
            reply = await self._answer_to(future, timeout, still_owner, check_every)
        except CallTimeout:
            self.stats.timed_out += 1
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
                task = asyncio.create_task(self._take(message))
                self._running.add(task)
                task.add_done_callback(self._running.discard)

    async def _take(self, message: dict[str, Any]) -> None:
        """Answer a call: run it, or give a repeat the answer its first run gave."""
        call_id = str(message.get("id", ""))
        answer = self.answers.get(call_id)
        if answer is not None:
            self.stats.answered_again += 1
            reply = await asyncio.shield(answer)
        else:
            answer = asyncio.get_running_loop().create_future()
            self.answers.keep(call_id, answer)
            try:
                with working_for(request_of(message)), on_table(str(message.get("table"))):
                    reply = await self._answer(message)
            except BaseException:
                self.answers.forget(call_id)
                answer.cancel()
                raise
            answer.set_result(reply)
            if reply.get("not_owner"):
                self.answers.forget(call_id)
        try:
            await self.bus.publish(server_channel(message["from"]), reply)
        except Exception:  # the caller times out and asks again: answered from memory
            log.exception("answering call %s failed", call_id)

    async def _answer(self, message: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = {"type": "reply", "id": message["id"]}
        try:
            table = await self.find(message["table"])
            if not table.owned:
                reply["not_owner"] = True
            else:
                if self.public_url:
                    reply["url"] = self.public_url
                if self.run is None:
                    raise RuntimeError("this server runs no forwarded commands")
                command = command_of(str(message["op"]), dict(message["args"]))
                self.stats.answered += 1
                result = await self.run(table, command)
                reply["result"] = list(result) if isinstance(result, tuple) else result
        except TableError as error:
            reply["error"] = error_to_json(error)
        except Exception:
            log.exception("call %s on table %s failed", message.get("op"), message.get("table"))
            reply["error"] = error_to_json(Code.UNAVAILABLE.error("the table's server failed"))
        return reply
