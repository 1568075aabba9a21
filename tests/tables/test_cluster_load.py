"""The guard on the several-servers path: two servers under load answer every forwarded action
in time, and send none of them twice.

Two ``meeple serve`` processes share a fresh PostgreSQL database and Redis; 800 two-seat
Slide tables (fewer on a slower machine: :func:`guard_tables`) are opened on them in turn,
each table's second player on the other server, so half of the actions are forwarded to the
table's owner. The players (in two client processes of ``bench/cluster_latency.py``) think
about a second between actions and play for 15 s. The assertions are on counts, never on
times: every action acknowledged, no forwarded call timed out (the owner answered within its
2 s) and none sent again. When each action's answer waited for the "your turn" counts (one
store read per account whose turn changed, queued with every other read), this load timed
out 279 forwarded calls in 15 s.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_harness import PG_URL, require_redis

BENCH = Path(__file__).resolve().parents[2] / "bench" / "cluster_latency.py"

FULL_TABLES = 800
"""The load on a machine as fast as the one it was sized on: two servers at about 65% of a
core each, where the code that awaited the counts timed out hundreds of calls."""
SIZED_ON_S = 0.042
""":func:`interpreter_seconds` on that machine."""
FEWEST_TABLES = 200


def interpreter_seconds() -> float:
    """The best of five timings of a fixed piece of pure-Python work (a million additions):
    how fast this machine runs the servers' kind of code."""
    best = float("inf")
    for _ in range(5):
        start, total = time.perf_counter(), 0
        for number in range(1_000_000):
            total += number
        best = min(best, time.perf_counter() - start)
    return best


def guard_tables() -> int:
    """The tables that load this machine as 800 load the machine the guard was sized on.

    The guard asks that no call time out while the servers have room: on a machine three
    times slower, 800 tables saturate both servers and any code times out (measured: 630eb8a,
    the good commit of issue 40, timed out a third of its calls there), while 300 leave them
    at 73% of a core and still time out the code that awaited the counts (median 2.4 s).
    """
    scaled = round(FULL_TABLES * SIZED_ON_S / interpreter_seconds())
    return max(FEWEST_TABLES, min(FULL_TABLES, scaled))


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_two_servers_under_load_time_out_and_repeat_no_forwarded_call(
    pg_url: str, tmp_path: Path
) -> None:
    redis_url = require_redis()  # pg_url has checked PostgreSQL already
    figures_file = tmp_path / "figures.json"
    command = [
        sys.executable,
        str(BENCH),
        "--servers",
        "2",
        "--tables",
        str(tables := guard_tables()),
        "--think",
        "1",
        "--play-for",
        "15",
        "--db",
        PG_URL,  # the bench makes (and drops) a database of its own beside it
        "--redis",
        redis_url,
        "--json",
        str(figures_file),
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(figures_file.read_text())
    calls = figures["calls"]
    assert len(calls) == 2 and all(calls), run.stdout
    assert figures["sent"] > 5 * tables, run.stdout  # the load was there
    assert figures["acked"] == figures["sent"], run.stdout  # nothing lost or refused
    # Half of the actions crossed to the other server; each reached it once and in time.
    assert sum(c["sent"] for c in calls) > 2.5 * tables, run.stdout
    assert [c["timed_out"] for c in calls] == [0, 0], run.stdout
    assert [c["sent_again"] for c in calls] == [0, 0], run.stdout
    assert [c["answered_again"] for c in calls] == [0, 0], run.stdout
