"""The analysis board's work is bounded: refused before any work when it cannot happen in a
game, and stopped when its caller gives up (issue 27). Workers are real processes here, so
what they still burn after the answer is read from ``/proc``."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import make_settings, running

import meeple.web.routes.analysis as analysis_route

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SUPPORT = Path(__file__).resolve().parents[1] / "support"

WIDE = {
    "tiles": [{"row": 0, "col": 0, "tile": "="}, {"row": 0, "col": 100000000, "tile": "1"}],
    "hand": ["1", "+", "2", "="],
}
"""The 119-byte body of issue 27: one tile 10^8 cells from the start, a line as wide."""

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def workers_cpu_seconds() -> float:
    """CPU time (user and system) used so far by this process's children: the bot workers."""
    total = 0
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) "
        if int(fields[1]) == me:  # the parent's pid
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def workers_busy_for(seconds: float) -> float:
    """CPU seconds the workers use over the next ``seconds``."""
    before = workers_cpu_seconds()
    time.sleep(seconds)
    return workers_cpu_seconds() - before


def workers_cpu_until_idle(most: float = 10.0) -> tuple[float, float]:
    """Wait until the workers use no CPU for 0.3 s: (CPU seconds they used, seconds waited)."""
    started = time.monotonic()
    first = last = workers_cpu_seconds()
    still_since = started
    while time.monotonic() - started < most:
        time.sleep(0.05)
        now = workers_cpu_seconds()
        if now != last:
            last, still_since = now, time.monotonic()
        elif time.monotonic() - still_since >= 0.3:
            break
    return last - first, still_since - started


def post(url: str, body: Any, limit: int = 1) -> tuple[int, dict[str, Any], float]:
    """POST a position to the analysis board: status, JSON answer and seconds taken."""
    started = time.monotonic()
    response = httpx.post(f"{url}/api/analysis/summy?limit={limit}", json=body, timeout=60)
    return response.status_code, response.json(), time.monotonic() - started


def process_server(tmp_path: Path) -> Any:
    """A server whose bots (and analyses) run in two worker processes."""
    return running(make_settings(tmp_path, bot_executor="process", bot_workers=2))


def test_a_position_out_of_reach_is_refused_at_once_and_burns_no_worker(tmp_path: Path) -> None:
    with process_server(tmp_path) as server:
        midgame = json.loads((EXAMPLES / "summy-midgame.json").read_text())
        assert post(server.url, midgame)[0] == 200  # the workers are up
        status, answer, took = post(server.url, WIDE)
        assert status == 422 and took < 1.0, (status, took)
        assert (answer["code"], answer["family"]) == ("out_of_reach", "invalid")
        assert answer["params"] == {"row": 0, "col": 100000000, "reach": 93}
        for col in (10**13, 10**39):  # were a MemoryError and an OverflowError: 500
            far = {**WIDE, "tiles": [WIDE["tiles"][0], {"row": 0, "col": col, "tile": "1"}]}
            assert post(server.url, far)[0] == 422
        time.sleep(max(0.0, 3.0 - took))
        assert workers_busy_for(1.0) < 0.2
        assert post(server.url, midgame)[0] == 200  # and the board still answers


def test_an_analysis_too_slow_for_its_caller_stops_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bag-legal position that costs the Python search about half a second of CPU, asked
    with 0.02 s to wait: the 503 comes, and the worker stops then rather than when the search
    would end (CPU time, unlike wall time, does not depend on what else the machine runs)."""
    monkeypatch.setenv("MEEPLE_SUMMY_ENGINE", "python")  # the workers start with it
    expensive = json.loads((SUPPORT / "summy_expensive_position.json").read_text())
    with process_server(tmp_path) as server:
        midgame = json.loads((EXAMPLES / "summy-midgame.json").read_text())
        assert post(server.url, midgame)[0] == 200  # a worker is up
        workers_cpu_until_idle()
        monkeypatch.setattr(analysis_route, "ANALYSIS_SECONDS", 0.02)
        before = workers_cpu_seconds()
        status, answer, took = post(server.url, expensive)
        assert status == 503 and took < 1.0, (status, took, answer)
        _after, idle_after = workers_cpu_until_idle()
        spent = workers_cpu_seconds() - before
        assert idle_after < 0.5 and spent < 0.15, (idle_after, spent)
        monkeypatch.setattr(analysis_route, "ANALYSIS_SECONDS", 30.0)
        # Given the time, the same worker answers it whole: the stop cached nothing wrong.
        assert post(server.url, expensive)[0] == 200
