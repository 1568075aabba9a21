"""A table's notifications are made after the change is answered, yet dated at the change:
whether a player was away (and gets an email) is judged when their turn began."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

from meeple.tables.clock import ManualClock
from meeple.tables.core.log import PLAYING, SeatInfo
from meeple.tables.facts import TurnStarted
from meeple.tables.notices.notifications import NotificationKind
from meeple.tables.notices.table_notices import TableNotices


class RecordingNotifier:
    """Keeps what it is asked to notify, with the time it would store."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.made: list[tuple[int, str, float]] = []

    async def notify(self, user_id: int, kind: str, data: dict[str, Any], **kw: Any) -> None:
        at = kw.get("at")
        self.made.append((user_id, kind, self.clock.now() if at is None else at))


class FakeTable:
    """What TableNotices reads of a table."""

    def __init__(self) -> None:
        seats = [SeatInfo(seat=0, user_id=1, name="alice"), SeatInfo(seat=1, user_id=2, name="bob")]
        self.owned = True
        self.info = SimpleNamespace(id="t1", pace="turn", game="summy")
        self.snap = SimpleNamespace(status=PLAYING, version=3, seats=seats, state=None)


def test_a_turn_told_after_the_clock_moved_keeps_the_time_it_began() -> None:
    clock = ManualClock(start=1000.0)
    notifier = RecordingNotifier(clock)
    jobs: list[Callable[[], Awaitable[Any]]] = []
    notices = TableNotices(notifier, jobs.append)  # type: ignore[arg-type]
    notices.turn_started(TurnStarted(FakeTable(), frozenset({1})))  # type: ignore[arg-type]
    clock.advance(3600)  # the pass that stores it runs later: here, an hour later

    async def run_jobs() -> None:
        for job in jobs:
            await job()

    asyncio.run(run_jobs())
    assert notifier.made == [(2, NotificationKind.YOUR_TURN, 1000.0)]
