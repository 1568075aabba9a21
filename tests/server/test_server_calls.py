"""Forwarded calls: a caller waiting on a dead owner stops waiting once the lease has moved."""

from __future__ import annotations

import asyncio
import time

import pytest

from meeple.bus.memory import InProcessBus
from meeple.tables.calls import CallRouter, CallTimeout


def test_a_call_to_an_owner_whose_lease_moved_fails_at_once_not_at_its_time_out() -> None:
    async def scenario() -> tuple[float, int]:
        bus = InProcessBus()
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await caller.start()
        checks = 0

        async def still_owner() -> bool:
            nonlocal checks
            checks += 1
            return checks < 3  # the dead owner's lease runs out at the third look

        started = time.monotonic()
        with pytest.raises(CallTimeout):
            # "west" is dead: nobody listens on its channel.
            await caller.call(
                "west", "t1", "act", {}, timeout=30, still_owner=still_owner, check_every=0.05
            )
        took = time.monotonic() - started
        await caller.stop()
        return took, checks

    took, checks = asyncio.run(scenario())
    assert checks == 3
    assert took < 2  # three looks 50 ms apart, not the 30 s time-out


def test_a_slow_owner_still_holding_the_lease_is_waited_for() -> None:
    async def scenario() -> tuple[object, int]:
        bus = InProcessBus()
        checks = 0

        class SlowTable:
            owned = True

            async def act(self) -> str:
                await asyncio.sleep(0.3)
                return "done"

        async def find(table_id: str) -> SlowTable:
            return SlowTable()

        async def still_owner() -> bool:
            nonlocal checks
            checks += 1
            return True

        owner = CallRouter(bus, "west", find=find)  # type: ignore[arg-type]
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await owner.start()
        await caller.start()
        result = await caller.call(
            "west", "t1", "act", {}, timeout=5, still_owner=still_owner, check_every=0.05
        )
        await caller.stop()
        await owner.stop()
        return result, checks

    result, checks = asyncio.run(scenario())
    assert result == "done"
    assert checks >= 3  # it looked at the lease while it waited, and kept waiting
