"""What a table does by itself: finish the game, start a full quick-play table, clocks, bots.

:class:`TableRuntime` belongs to one :class:`~meeple.tables.core.table.Table`. After
every change the table calls :meth:`TableRuntime.settle`, which writes the
``finish`` or ``start`` the change made due, sets the move clocks of the seats
to act and wakes the bots (and zombies) whose turn it is. A clock that runs out
has a greedy bot move for the seat; too many such time-outs hand the seat to a
zombie. Everything it writes goes through the table's single writer, under the
table's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from meeple.errors import TableError
from meeple.games.base import JSON
from meeple.tables.commands import FillWithBots
from meeple.tables.core.bots import bot_seed, choose_in_worker
from meeple.tables.core.log import OPEN, PLAYING
from meeple.tables.core.ratings import unbegun_seats
from meeple.tasks import cancel_and_wait

if TYPE_CHECKING:
    from meeple.tables.core.table import Table

log = logging.getLogger(__name__)

SEAT_CHANGES = ("create", "join", "leave", "kick")
"""The events that count as someone acting at a table waiting for players (chat does not:
a stranger's line keeps no table open)."""


CLOCK_EVENTS = ("start", "action", "takeback")
"""The events that start move clocks: the start and a takeback every due person's, an action
the clocks of those it makes due."""


class TableRuntime:
    """One table's move clocks and server-played seats (bots, zombies, time-outs)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.deadlines: dict[int, float] = {}
        """Seat -> when its move clock runs out (seats of people to act only)."""
        self._thinking: dict[int, asyncio.Task[None]] = {}
        self._timer: asyncio.Task[None] | None = None
        self._timer_at = 0.0
        """When :attr:`_timer` wakes next (to play the due clocks' timeouts, or look again)."""
        self._filler: asyncio.Task[None] | None = None
        self._expiry: asyncio.Task[None] | None = None
        self._closed = False

    def _to_act(self, seat: int) -> bool:
        """Whether the game runs and ``seat`` may act in it now."""
        snap = self.table.snap
        return snap.status == PLAYING and seat in self.table.game.to_act(snap.state)

    async def resume(self) -> None:
        """After loading or taking the table over: finish what a crash interrupted, restart
        clocks and bots. The clocks come from the stored log (:meth:`deadlines_from_log`),
        so a restart or a new owner gives nobody extra time."""
        async with self.table.lock:
            self.deadlines = self.deadlines_from_log()
            await self.settle(None)

    def deadlines_from_log(self) -> dict[int, float]:
        """Each person's move clock as the stored events set it.

        A seat's clock started at the last event after which it had to act without
        interruption: its own last action, or the event that made it due (a start, or
        someone else's action after which it had to act and before which it did not).
        """
        table = self.table
        snap = table.snap
        if snap.status != PLAYING:
            return {}
        humans = {s.seat for s in snap.seats if not s.played_by_server}
        due = table.game.to_act(snap.state) & humans
        deadlines: dict[int, float] = {}
        for seat in sorted(due):
            since = None
            for event in reversed(table.events):
                if event.kind not in CLOCK_EVENTS:
                    continue
                since = event.at
                if event.kind != "action" or event.seat == seat:
                    break  # a start, or a takeback: a fresh clock for everyone due
                before = snap.state_at(event.version - 1)
                if before is None or seat not in table.game.to_act(before):
                    break
            if since is not None:
                deadlines[seat] = since + table.info.move_seconds
        return deadlines

    async def stand_down(self) -> None:
        """Another server owns the table now: stop its clock, bots and bot fill here."""
        await cancel_and_wait(self._timer, self._filler, self._expiry, *self._thinking.values())
        self._timer = self._filler = self._expiry = None
        self._thinking.clear()
        self.deadlines.clear()

    def after_takeback(self) -> None:
        """A takeback was written: the bots' moves chosen on the position taken back are
        dropped, and every person to act gets a fresh clock at the next :meth:`settle`."""
        for task in self._thinking.values():
            task.cancel()
        self._thinking.clear()
        self.deadlines.clear()

    async def settle(self, acted_seat: int | None) -> None:
        """After a change: write the finish or start it made due, set the clocks, wake bots."""
        snap = self.table.snap
        result = self.table.game.result(snap.state) if snap.status == PLAYING else None
        if result is not None:
            data: dict[str, JSON] = {"result": result.to_json()}
            if unbegun_seats(self.table.game, snap.seats, self.table.events):
                data["aborted"] = True
            await self.table.write("finish", None, data)
        elif (
            snap.status == OPEN
            and self.table.info.auto_start
            and not any(s.empty for s in snap.seats)
        ):
            await self.table.write("start", None, {})
        self.reset_deadlines(acted_seat)
        self.wake_bots()
        self.arm_bot_fill()
        self.arm_expiry()

    @property
    def bots_at(self) -> float | None:
        """When bots take the free seats of this quick-play table, if they will."""
        table, wait = self.table, self.table.ctx.settings.quick_play_bots_after_s
        snap = table.snap
        if not wait or not table.info.auto_start or snap.status != OPEN:
            return None
        if not any(s.empty for s in snap.seats):
            return None
        return table.info.created_at + wait

    def arm_bot_fill(self) -> None:
        """A quick-play table still waiting gets bots at :attr:`bots_at`: nobody waits for ever."""
        at = self.bots_at
        if at is None or self._closed or self._filler is not None or not self.table.owned:
            return
        self._filler = asyncio.create_task(self._fill_later(at))

    async def _fill_later(self, at: float) -> None:
        try:
            await self.table.ctx.clock.sleep_until(at)
            if not self.table.owned:
                return  # its owner now fills it
            await self.table.changes.fill_with_bots(FillWithBots(user_id=None))
        except asyncio.CancelledError:
            raise
        except TableError:
            pass  # someone filled or closed it meanwhile
        except Exception:
            log.exception("table %s: seating bots failed", self.table.info.id)
        finally:
            self._filler = None

    @property
    def expires_at(self) -> float | None:
        """When this table closes if it still waits for players: its seats' last change (an
        opening, a join, a leave, a kick, as the stored log dates them, so a restart or a
        new owner keeps the deadline) plus ``MEEPLE_WAITING_EXPIRY_REALTIME_S`` or, at a
        turn-based table, ``MEEPLE_WAITING_EXPIRY_TURN_S``. ``None`` unless it waits."""
        table = self.table
        if table.snap.status != OPEN:
            return None
        settings = table.ctx.settings
        turn_based = table.info.pace == "turn"
        wait = settings.waiting_expiry_turn_s if turn_based else settings.waiting_expiry_realtime_s
        seated = [event.at for event in table.events if event.kind in SEAT_CHANGES]
        return max(seated, default=table.info.created_at) + wait

    def arm_expiry(self) -> None:
        """A table waiting for players closes at :attr:`expires_at` unless someone acts at it
        first; only its owner keeps the watch (:meth:`_expire_later`)."""
        if self.expires_at is None or self._closed or self._expiry is not None:
            return
        if self.table.owned:
            self._expiry = asyncio.create_task(self._expire_later())

    async def _expire_later(self) -> None:
        # One watch per table, never cancelled by a change: it wakes at the deadline it read
        # and reads it again, so a join meanwhile just puts the close off.
        clock = self.table.ctx.clock
        try:
            while (at := self.expires_at) is not None and self.table.owned:
                if clock.now() < at:
                    await clock.sleep_until(at)
                    continue
                if await self.table.changes.expire():
                    return
        except asyncio.CancelledError:
            raise
        except TableError:
            pass  # closed or started meanwhile
        except Exception:
            log.exception("table %s: closing the expired table failed", self.table.info.id)
        finally:
            self._expiry = None

    def reset_deadlines(self, acted_seat: int | None) -> None:
        """Clocks for the seats to act: kept for those still due, new for the newly due."""
        to_act: frozenset[int] = frozenset()
        if self.table.snap.status == PLAYING:
            to_act = self.table.game.to_act(self.table.snap.state)
        humans = {s.seat for s in self.table.snap.seats if not s.played_by_server}
        for seat in list(self.deadlines):
            if seat not in to_act or seat not in humans or seat == acted_seat:
                del self.deadlines[seat]
        now = self.table.ctx.clock.now()
        for seat in sorted(to_act & humans):
            self.deadlines.setdefault(seat, now + self.table.info.move_seconds)
        if not self.deadlines or self._closed or not self.table.owned:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            return
        # One timer task per table, not one per move: one that wakes no later than the
        # earliest clock stays and looks again when it wakes (a move mostly ends one
        # clock and starts a later one).
        moment = min(self.deadlines.values())
        if self._timer is not None and self._timer_at <= moment:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = moment
        self._timer = asyncio.create_task(self._timer_loop())

    async def _timer_loop(self) -> None:
        clock = self.table.ctx.clock
        try:
            while self.deadlines:
                await clock.sleep_until(self._timer_at)
                now = clock.now()
                due = {seat: at for seat, at in self.deadlines.items() if at <= now}
                if due:
                    for seat, at in due.items():
                        self._think(seat, "greedy", "timeout", at)
                    return
                self._timer_at = min(self.deadlines.values(), default=now)
        finally:
            if self._timer is asyncio.current_task():
                self._timer = None

    def wake_bots(self) -> None:
        """Start thinking for every bot or zombie seat to act (only on the table's owner)."""
        if self.table.snap.status != PLAYING or self._closed or not self.table.owned:
            return
        for seat in self.table.game.to_act(self.table.snap.state):
            info = self.table.snap.seats[seat]
            if info.played_by_server:
                level = info.bot_level or "greedy"
                self._think(seat, level, "bot" if info.bot_level else "zombie", None)

    def _think(self, seat: int, level: str, by: str, deadline: float | None) -> None:
        if seat in self._thinking:
            return
        task = asyncio.create_task(self._server_move(seat, level, by, deadline))
        self._thinking[seat] = task

    async def _server_move(self, seat: int, level: str, by: str, deadline: float | None) -> None:
        """A bot, a zombie or a timed-out player's stand-in moves for ``seat``."""
        clock = self.table.ctx.clock
        # A bot (not a stand-in for a late player) takes a visible moment, however fast it is.
        shown_at = clock.now() + (self.table.ctx.settings.bot_min_think_s if by == "bot" else 0)
        try:
            for _attempt in range(5):
                if not self._to_act(seat):
                    return
                takebacks = self.table.snap.takebacks
                action = await self._choose(seat, level)
                if clock.now() < shown_at:
                    await clock.sleep_until(shown_at)
                async with self.table.lock:
                    if deadline is not None and self.deadlines.get(seat) != deadline:
                        return
                    if not self._to_act(seat):
                        return
                    if self.table.snap.takebacks != takebacks:
                        continue  # chosen on a position since taken back: choose again
                    try:
                        await self.table.write_action(seat, action, by)
                    except TableError:
                        continue  # refused, or another server moved first: look again
                    log.debug(
                        "the %s in seat %s moved", by, seat, extra={"table_id": self.table.info.id}
                    )
                    self._thinking.pop(seat, None)
                    limit = self.table.ctx.settings.timeouts_before_zombie
                    info = self.table.snap.seats[seat]
                    if by == "timeout" and info.timeouts >= limit and not info.zombie:
                        await self.table.write("zombie", seat, {"reason": "timeouts"})
                    await self.settle(seat)
                return
            log.error(
                "table %s: the %s bot found no legal move for seat %s",
                self.table.info.id,
                level,
                seat,
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: server move for seat %s failed", self.table.info.id, seat)
        finally:
            if self._thinking.get(seat) is asyncio.current_task():
                del self._thinking[seat]

    async def _choose(self, seat: int, level: str) -> JSON:
        """The bot's choice for ``seat``; its greedy move if it cannot think in time.

        The game must go on: the pool plays the seat's greedy move (computed here,
        cheap) when no worker is free soon enough or the bot overruns its budget.
        """
        table = self.table
        state = table.snap.state
        view = table.game.view(state, seat)
        seed = bot_seed(table.info.seed, seat)

        async def greedy(reason: str) -> JSON:
            log.warning("table %s: the %s bot for seat %s %s; it plays its greedy move",
                        table.info.id, level, seat, "waited too long" if reason == "queue"
                        else "overran")  # fmt: skip
            return await asyncio.to_thread(choose_in_worker, table.info.game, "greedy", seed, view,
                                           seat, 0.05)  # fmt: skip

        return await table.ctx.bots.choose(
            table.info.game,
            level,
            seed,
            view,
            seat,
            table.ctx.settings.bot_budget_s,
            table=table.info.id,
            realtime=table.info.pace != "turn",
            fallback=greedy,
        )

    async def shutdown(self) -> None:
        """Stop the clock and the bots of this table (the server is stopping)."""
        self._closed = True
        extra = [task for task in (self._timer, self._filler, self._expiry) if task is not None]
        tasks = [*self._thinking.values(), *extra]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
