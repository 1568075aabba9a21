"""What happens to a table, as typed facts, and the one hook every feature follows them by.

A table tells what a change did to it as facts (frozen dataclasses, subclasses of
:class:`Fact`): it opened, a seat was taken or left, the game started, seats' turns
began, an action was applied, a player asked for a rematch, the game finished (its
result, rated or aborted), the table closed. The table's owner publishes each fact
once, as the event that made it is stored (:func:`facts_of`, called by the table's
single writer); no other server does, so a fact is told once across servers.

Features follow the facts through :class:`TableFacts`, subscribing where the server
is put together (``web/services.py``): ``facts.subscribe(GameFinished, reviewer.finished)``.
A subscriber is told of each fact of its kind at once, under the table's lock, and
only notes what to do: cheap, no I/O (whose turn began, which notification is due).
The work runs after the change is answered, in passes of one background task at
most every ``every_s`` seconds: each subscriber's pass (:meth:`TableFacts.each_pass`)
does at once what it noted since the last (one query counts the turns of every account
to tell), then the one-off jobs queued with :meth:`TableFacts.soon` run in order (a
notification each). Nothing here can delay, fail or undo a change: a subscriber or
a job that fails is logged and counted, and the others go on. What waits is
bounded: at most ``max_jobs`` jobs (one beyond that is dropped, logged and counted).

The table core names no feature: the lobby, My turns, notifications, reviews are
subscribers, and a new feature is one more subscription.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from meeple.games.base import Result
from meeple.observe.request_ids import carrying
from meeple.tables.core.log import PLAYING, LogEvent, SeatInfo, Snapshot
from meeple.tasks import cancel_and_wait

if TYPE_CHECKING:
    from meeple.tables.core.table import Table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Fact:
    """Something that happened to a table, told once by the server that runs it."""

    table: Table
    """The table as this server runs it (read it at once: it goes on changing)."""

    @property
    def table_id(self) -> str:
        """The table's id."""
        return self.table.info.id


@dataclass(frozen=True)
class TableOpened(Fact):
    """A table was opened (a new one, a rematch, an accepted challenge) and stored."""


@dataclass(frozen=True)
class SeatTaken(Fact):
    """Someone sat down before the start: an account (``user_id``) or a server bot (``None``)."""

    seat: int
    user_id: int | None


@dataclass(frozen=True)
class SeatLeft(Fact):
    """A player left a seat: freed before the start (left or removed by the creator), or
    handed to a zombie bot during the game."""

    seat: int
    user_id: int | None


@dataclass(frozen=True)
class GameStarted(Fact):
    """The game began: every seat is taken."""


@dataclass(frozen=True)
class TurnStarted(Fact):
    """These seats became due to act (seats due already before are not told again)."""

    seats: frozenset[int]


@dataclass(frozen=True)
class ActionApplied(Fact):
    """A seat's action was applied (``by``: "player", "bot", "zombie" or "timeout")."""

    seat: int
    version: int
    by: str


@dataclass(frozen=True)
class RematchAsked(Fact):
    """A player at the finished table asked for a rematch (once each)."""

    user_id: int | None


@dataclass(frozen=True)
class GameFinished(Fact):
    """The game ended: its result, the seats as they ended, and how it counts."""

    result: Result
    seats: tuple[SeatInfo, ...]
    rated: bool
    """The game changed its players' ratings (a rated game with people, not aborted)."""
    aborted: bool
    """A player left or lost on time before their first moves: it counts for nothing."""


@dataclass(frozen=True)
class TableClosed(Fact):
    """The table closed before its game started (``reason``: its creator, everyone left,
    nobody came in time)."""

    reason: str


def _to_act(table: Table, snap: Snapshot) -> frozenset[int]:
    return table.game.to_act(snap.state) if snap.status == PLAYING else frozenset()


def facts_of(table: Table, event: LogEvent, before: Snapshot, rated: bool) -> list[Fact]:
    """What the stored ``event`` did to ``table`` (``table.snap`` is after it, ``before``
    before it; ``rated``: the table's game changes ratings)."""
    after = table.snap
    seat = event.seat
    found: list[Fact] = []
    if event.kind == "join" and seat is not None:
        found.append(SeatTaken(table, seat, event.user_id))
    elif event.kind in ("leave", "kick") and seat is not None:
        found.append(SeatLeft(table, seat, before.seats[seat].user_id))
    elif event.kind == "zombie" and seat is not None and after.seats[seat].left:
        found.append(SeatLeft(table, seat, after.seats[seat].user_id))
    elif event.kind == "start":
        found.append(GameStarted(table))
    elif event.kind == "action" and seat is not None:
        found.append(ActionApplied(table, seat, event.version, str(event.data.get("by"))))
    elif event.kind == "rematch_vote":
        found.append(RematchAsked(table, event.user_id))
    elif event.kind == "finish" and after.result is not None:
        counts = rated and not after.aborted
        found.append(GameFinished(table, after.result, after.seats, counts, after.aborted))
    elif event.kind == "close":
        found.append(TableClosed(table, str(event.data.get("reason", ""))))
    began = _to_act(table, after) - _to_act(table, before)
    if began:
        found.append(TurnStarted(table, began))
    return found


F = TypeVar("F", bound=Fact)

AfterPass = Callable[[], Awaitable[None]]
"""Does what a subscriber noted since the last pass."""

Job = Callable[[], Awaitable[object]]
"""One piece of work to run after the change that queued it is answered."""


class TableFacts:
    """The hook: the facts of the tables this server runs, told to their subscribers at once,
    and the work they note done in coalesced passes off the changes' path."""

    def __init__(self, every_s: float = 0.05, max_jobs: int = 10_000) -> None:
        self.every_s, self.max_jobs = every_s, max_jobs
        self._subscribers: list[tuple[type[Fact], Callable[[Any], None]]] = []
        self._passes: list[AfterPass] = []
        self._jobs: deque[Job] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.published = 0
        """Facts published."""
        self.passes = 0
        """Passes run (each does what was noted since the one before)."""
        self.failures = 0
        """Subscribers, passes and jobs that raised (logged)."""
        self.dropped = 0
        """Jobs dropped because ``max_jobs`` were waiting."""

    def subscribe(self, kind: type[F], on_fact: Callable[[F], None]) -> None:
        """Tell ``on_fact`` of every fact of ``kind`` (its subclasses too: :class:`Fact` for
        all) as it is published."""
        self._subscribers.append((kind, on_fact))

    def each_pass(self, work: AfterPass) -> None:
        """Run ``work`` in every pass: a subscriber does there what it noted since the last."""
        self._passes.append(work)

    def publish(self, fact: Fact) -> None:
        """Tell ``fact`` to its subscribers now; their work follows in the next pass."""
        self.published += 1
        for kind, on_fact in self._subscribers:
            if not isinstance(fact, kind):
                continue
            try:
                on_fact(fact)
            except Exception:
                self.failures += 1
                log.exception("a subscriber to %s of table %s failed", kind.__name__, fact.table_id)
        self._wake.set()

    def publish_all(self, facts: Sequence[Fact]) -> None:
        """Tell each of ``facts`` in order (:meth:`publish`)."""
        for fact in facts:
            self.publish(fact)

    def soon(self, job: Job) -> None:
        """Run ``job`` in the next pass (dropped, and counted, past ``max_jobs`` waiting)."""
        if len(self._jobs) >= self.max_jobs:
            self.dropped += 1
            log.warning("more than %d jobs after changes: one dropped", self.max_jobs)
            return
        self._jobs.append(carrying(job))  # its log lines name the request that queued it
        self._wake.set()

    def start(self) -> None:
        """Run the passes in the background."""
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self, settle_s: float = 5.0) -> None:
        """Run what is due (for at most ``settle_s``), then stop."""
        await cancel_and_wait(self._task)
        self._task = None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settle(), settle_s)

    async def settle(self) -> None:
        """Run a pass, then more while jobs are waiting."""
        await self.run_pass()
        while self._jobs:
            await self.run_pass()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self.run_pass()
            # Facts that come meanwhile wait for the next pass, together.
            await asyncio.sleep(self.every_s)

    async def run_pass(self) -> None:
        """Do what every subscriber noted, then run every job waiting, once."""
        waiting = len(self._jobs)  # the jobs queued meanwhile wait for the next pass
        self.passes += 1
        for after_pass in self._passes:
            await self._guarded(after_pass(), "a subscriber's pass")
        for _ in range(waiting):
            job = self._jobs.popleft()
            try:
                await self._guarded(job(), "a job after a change")
            except asyncio.CancelledError:
                self._jobs.appendleft(job)  # stopped mid-job: run again by the last pass
                raise

    async def _guarded(self, work: Awaitable[object], what: str) -> None:
        try:
            await work
        except Exception:
            self.failures += 1
            log.exception("%s failed", what)
