"""The bot pool's queue: real-time before turn-based, tables take turns, a budget counts from a
worker, and a bot that cannot get a worker in time plays its greedy move instead."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from server_harness import run_async

import meeple.tables.core.bots as bots_module
from meeple.tables.core.bots import BotPool


def sleepy(game: str, level: str, seed: int, view: Any, seat: int, budget_s: float) -> Any:
    """A worker's bot that thinks for ``view["think"]`` seconds and answers its name."""
    time.sleep(view["think"])
    return view["name"]


def test_tables_take_turns_and_real_time_goes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots_module, "choose_in_worker", sleepy)
    done: list[str] = []

    async def scenario() -> None:
        pool = BotPool(1, "thread")

        async def ask(name: str, table: str, realtime: bool = True) -> None:
            view = {"think": 0.05, "name": name}
            done.append(await pool.choose("slide", "expert", 1, view, 0, 1.0, table=table,
                                          realtime=realtime))  # fmt: skip

        first = asyncio.create_task(ask("busy", "a"))
        await asyncio.sleep(0.01)  # the worker is taken
        rest = [asyncio.create_task(ask(f"a{n}", "a")) for n in range(3)]
        await asyncio.sleep(0)
        rest.append(asyncio.create_task(ask("turn-based", "c", realtime=False)))
        await asyncio.sleep(0)
        rest.append(asyncio.create_task(ask("b0", "b")))
        await asyncio.gather(first, *rest)
        pool.close()
        stats = pool.stats.to_json()
        assert stats["requests"] == 6 and stats["fallbacks"] == {}

    run_async(scenario())
    # Table b's one request passes table a's second and third; the turn-based table waits.
    assert done == ["busy", "a0", "b0", "a1", "a2", "turn-based"]


def test_a_bot_with_no_worker_in_time_plays_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots_module, "choose_in_worker", sleepy)

    async def scenario() -> tuple[Any, Any, float]:
        pool = BotPool(1, "thread")

        async def greedy(reason: str) -> str:
            return f"greedy ({reason})"

        hog = asyncio.create_task(
            pool.choose("slide", "expert", 1, {"think": 1.25, "name": "slow"}, 0, 0.1, table="a")
        )
        await asyncio.sleep(0.01)
        started = time.monotonic()
        late = await pool.choose("slide", "expert", 2, {"think": 0.0, "name": "fast"}, 0, 0.1,
                                 table="b", fallback=greedy)  # fmt: skip
        waited = time.monotonic() - started
        first = await hog
        pool.close()
        assert pool.stats.fallbacks["queue"] == 1
        return first, late, waited

    first, late, waited = run_async(scenario())
    assert late == "greedy (queue)" and 0.9 < waited < 1.5  # patience: max(1 s, 2 x budget)
    assert first == "slow"  # 1.25 s of thinking is within 4 x budget + 1 s from its worker


def test_health_reports_the_bot_pools_work(server: Any) -> None:
    """Operators and benches read the pool's queue waits and fallbacks from ``/api/health``."""
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
    sock = alice.connect(table_id)
    sock.recv()
    alice.post(f"/api/tables/{table_id}/start")
    sock.recv_until(lambda m: m.get("kind") == "action" and m["seat"] == 1)
    bots = alice.get("/api/health")["bots"]
    assert bots["requests"] >= 1 and bots["fallbacks"] == {}
    assert 0 <= bots["queue_wait_p50"] <= bots["queue_wait_p95"] <= bots["queue_wait_max"] < 1
