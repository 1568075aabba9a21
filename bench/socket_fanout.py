"""Many sockets on one table, against a real server process: messages, server CPU, health.

Starts ``meeple serve`` on a free loopback port (SQLite in a temporary folder),
seats one guest at a two-seat Slide table with a socket, then opens
``--sockets`` in all on that table (the others anonymous spectators,
``--concurrency`` opening at a time), waits until the seated player is told the
final count, and closes them all. Meanwhile ``GET /api/health`` is timed every
``--health-every`` seconds. Prints the frames every client received (the
``watchers`` among them), the server process's CPU seconds (``/proc``), and the
health latencies. Every socket comes from one address: the cap per address is
raised for the run (``MEEPLE_MAX_SOCKETS_PER_ADDRESS``). ``--idle S`` keeps every
socket open and idle S seconds before closing them, and prints the server's resident
memory per open socket (its growth from before the spectators opened to the end of the
idle time) and its CPU while idle.

    .venv/bin/python bench/socket_fanout.py --sockets 1000
    .venv/bin/python bench/socket_fanout.py --sockets 10000 --idle 20

``--src`` runs the server from another checkout's ``src`` (a figure before a
change: ``git worktree add /tmp/before HEAD``, then ``--src /tmp/before/src``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from bot_api_latency import rss_mb
from rich.console import Console
from rich.table import Table
from server_latency import free_port, start_server
from websockets.asyncio.client import ClientConnection, connect

SRC = Path(__file__).resolve().parents[1] / "src"


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class Counts:
    """What every client received."""

    frames: int = 0
    watchers: int = 0
    refused: int = 0
    health_ms: list[float] = field(default_factory=list)


async def receive(ws: ClientConnection, counts: Counts) -> None:
    """Count every frame ``ws`` receives until it closes."""
    with contextlib.suppress(Exception):
        async for text in ws:
            counts.frames += 1
            if json.loads(text).get("type") == "watchers":
                counts.watchers += 1


async def sample_health(base: str, every_s: float, counts: Counts, done: asyncio.Event) -> None:
    """Time ``GET /api/health`` every ``every_s`` seconds until ``done``."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not done.is_set():
            started = time.perf_counter()
            (await http.get("/api/health")).raise_for_status()
            counts.health_ms.append(1000 * (time.perf_counter() - started))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), every_s)


async def run(
    base: str, sockets: int, concurrency: int, health_every_s: float, idle_s: float, pid: int
) -> dict[str, float]:
    """Open the sockets, keep them ``idle_s`` seconds, close them; returns the figures (the
    whole run's CPU is measured by the caller; the server's memory and idle CPU here)."""
    ws_base = "ws" + base.removeprefix("http")
    counts = Counts()
    async with httpx.AsyncClient(base_url=base, timeout=30) as host:
        (await host.post("/api/auth/guest")).raise_for_status()
        created = await host.post("/api/tables", json={"game": "slide", "seats": 2})
        created.raise_for_status()
        table_id = created.json()["table"]["id"]
        cookie = "; ".join(f"{k}={v}" for k, v in host.cookies.items())
    url = f"{ws_base}/ws/tables/{table_id}"
    done = asyncio.Event()
    health = asyncio.create_task(sample_health(base, health_every_s, counts, done))
    latest: dict[str, int] = {"spectators": -1}

    seated = await connect(url, additional_headers={"Cookie": cookie}, max_size=None)

    async def read_seated() -> None:
        with contextlib.suppress(Exception):
            async for text in seated:
                counts.frames += 1
                message = json.loads(text)
                if message.get("type") == "watchers":
                    counts.watchers += 1
                    latest["spectators"] = message["spectators"]
                elif message.get("type") == "hello":
                    latest["spectators"] = message["table"]["spectators"]

    readers = [asyncio.create_task(read_seated())]
    await asyncio.sleep(1)
    rss_before = rss_mb(pid)
    spectators: list[ClientConnection] = []
    gate = asyncio.Semaphore(concurrency)

    async def open_one() -> None:
        async with gate:
            ws = await connect(url, open_timeout=120, max_size=None)
        spectators.append(ws)
        readers.append(asyncio.create_task(receive(ws, counts)))

    started = time.perf_counter()
    await asyncio.gather(*(open_one() for _ in range(sockets - 1)))
    opened_s = time.perf_counter() - started
    while latest["spectators"] != sockets - 1:  # the last news reached the seated player
        await asyncio.sleep(0.05)
    told_s = time.perf_counter() - started
    await asyncio.sleep(2)  # any news still on its way
    opened_frames = counts.frames
    idle_cpu = cpu_seconds(pid)
    await asyncio.sleep(idle_s)
    idle_cpu = cpu_seconds(pid) - idle_cpu
    rss_open = rss_mb(pid)
    started = time.perf_counter()
    await asyncio.gather(*(ws.close() for ws in spectators))
    while latest["spectators"] != 0:
        await asyncio.sleep(0.05)
    closed_s = time.perf_counter() - started
    await asyncio.sleep(2)
    await seated.close()
    done.set()
    await health
    for reader in readers:
        reader.cancel()
    health_ms = sorted(counts.health_ms)
    return {
        "opened_s": opened_s,
        "told_s": told_s,
        "closed_s": closed_s,
        "frames_opening": opened_frames,
        "frames": counts.frames,
        "watchers": counts.watchers,
        "health_samples": len(health_ms),
        "health_p50_ms": statistics.median(health_ms),
        "health_p99_ms": health_ms[min(len(health_ms) - 1, int(0.99 * len(health_ms)))],
        "health_max_ms": health_ms[-1],
        "rss_before_mb": rss_before,
        "rss_open_mb": rss_open,
        "idle_cpu_s": idle_cpu,
    }


def main() -> None:
    """Parse the options, start the server, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000, help="sockets in all (one seated)")
    parser.add_argument("--concurrency", type=int, default=50, help="sockets opening at a time")
    parser.add_argument("--health-every", type=float, default=0.05, help="seconds")
    parser.add_argument("--idle", type=float, default=0, help="seconds all stay open, idle")
    parser.add_argument("--src", type=Path, default=SRC, help="the server's package folder")
    args = parser.parse_args()
    _, most = resource.getrlimit(resource.RLIMIT_NOFILE)  # the server inherits it
    resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))
    with tempfile.TemporaryDirectory() as home:
        port = free_port()
        server = start_server(Path(home), port, None, src=args.src)
        try:
            before = cpu_seconds(server.pid)
            figures = asyncio.run(
                run(
                    f"http://127.0.0.1:{port}",
                    args.sockets,
                    args.concurrency,
                    args.health_every,
                    args.idle,
                    server.pid,
                )
            )
            figures["server_cpu_s"] = cpu_seconds(server.pid) - before
        finally:
            server.terminate()
            server.wait(timeout=30)
    table = Table(title=f"{args.sockets} sockets on one table (server from {args.src})")
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows = [
        ("sockets opened in", f"{figures['opened_s']:.1f} s"),
        ("last count told to the seated player after", f"{figures['told_s']:.1f} s"),
        ("frames received while opening", f"{figures['frames_opening']:,.0f}"),
        ("frames received in all (open and close)", f"{figures['frames']:,.0f}"),
        ("of which watchers", f"{figures['watchers']:,.0f}"),
        ("all closed and told after", f"{figures['closed_s']:.1f} s"),
        ("server CPU", f"{figures['server_cpu_s']:.1f} s"),
        (
            "server RSS before the spectators / with all open",
            f"{figures['rss_before_mb']:.0f} / {figures['rss_open_mb']:.0f} MB",
        ),
        (
            "server RSS per open socket",
            f"{1024 * (figures['rss_open_mb'] - figures['rss_before_mb']) / (args.sockets - 1):.1f}"
            " KiB",
        ),
        (
            f"server CPU while all idle ({args.idle:.0f} s)",
            f"{100 * figures['idle_cpu_s'] / max(args.idle, 1e-9):.1f}% of a core",
        ),
        (
            f"GET /api/health p50 / p99 / max ({figures['health_samples']:.0f} samples)",
            f"{figures['health_p50_ms']:.0f} / {figures['health_p99_ms']:.0f}"
            f" / {figures['health_max_ms']:.0f} ms",
        ),
    ]
    for name, value in rows:
        table.add_row(name, value)
    Console().print(table)


if __name__ == "__main__":
    main()
