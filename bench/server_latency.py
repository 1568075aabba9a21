"""Round trip of an action with many tables playing at once, against a real server process.

Starts ``meeple serve`` on a free loopback port (SQLite in a temporary folder
unless --db is given), opens --tables two-seat Slide tables, each with two
guest players on their own WebSocket, and lets every player play as fast as
the game allows. The round trip of an action is the time from sending it to
receiving the table event it made. Choosing the action (a random bot on the
client side) is not timed. Prints the median and percentiles.

    .venv/bin/python bench/server_latency.py --tables 100 --actions 24
    .venv/bin/python bench/server_latency.py --tables 100 --actions 24 --think 1

With ``--think 0`` every player acts the moment it may, so the figures show
the server saturated; ``--think`` gives players a human-like pause.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from meeple.bots import get_bot

ENTRY = "import sys; from meeple.cli import main; sys.exit(main())"


def free_port() -> int:
    """A free loopback TCP port."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def fresh_database(url: str | None) -> Iterator[str | None]:
    """A new, empty PostgreSQL database beside the one ``url`` names, dropped afterwards.

    Runs must not inherit an earlier run's games: a new server reviews the
    finished games it finds, and that work would be measured too. SQLite
    (``None``) is already fresh: a file in the run's temporary folder.
    """
    if not url or not url.startswith("postgresql"):
        yield url
        return
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    name = f"meeple_bench_{os.getpid()}"
    admin = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield parsed.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start_server(
    data_home: Path,
    port: int,
    db: str | None,
    settings: dict[str, str] | None = None,
    src: Path | None = None,
) -> subprocess.Popen[bytes]:
    """``meeple serve`` in a child process (``settings``: more ``MEEPLE_*``), once it answers.

    ``src`` runs another checkout's code (a figure before a change); this one's by default.
    """
    src = src or Path(__file__).resolve().parents[1] / "src"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEEPLE_")}
    env.update(XDG_DATA_HOME=str(data_home), PYTHONPATH=str(src))
    # Every player here is a guest from one address: the per-address limits (guests, tables,
    # open sockets) are not measured.
    env.update(MEEPLE_LIMIT_GUESTS="100000/hour", MEEPLE_LIMIT_TABLES="100000/hour")
    env.update(MEEPLE_MAX_SOCKETS_PER_ADDRESS="1000000")
    # The bots' background games that fill the puzzle pool would be measured with the play
    # (a bench that wants them passes MEEPLE_PUZZLE_POOL_TARGET in ``settings``).
    env.update(MEEPLE_PUZZLE_POOL_TARGET="0")
    env.update(settings or {})
    command = [sys.executable, "-c", ENTRY, "serve", "--port", str(port), "--log-level", "warning"]
    if db:
        command += ["--db", db]
    process = subprocess.Popen(command, env=env)
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise SystemExit("meeple serve stopped at start-up")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit("meeple serve did not answer")
        time.sleep(0.1)


async def guest(http: httpx.AsyncClient) -> str:
    """Sign a new guest in; returns its Cookie header."""
    response = await http.post("/api/auth/guest")
    response.raise_for_status()
    return "; ".join(f"{k}={v}" for k, v in http.cookies.items())


async def open_table(base: str) -> tuple[str, list[str]]:
    """A started two-seat Slide table and the cookies of its two players."""
    cookies = []
    async with httpx.AsyncClient(base_url=base) as host, httpx.AsyncClient(base_url=base) as other:
        cookies.append(await guest(host))
        cookies.append(await guest(other))
        created = await host.post("/api/tables", json={"game": "slide", "seats": 2})
        table_id = created.json()["table"]["id"]
        (await other.post(f"/api/tables/{table_id}/join", json={})).raise_for_status()
        (await host.post(f"/api/tables/{table_id}/start")).raise_for_status()
    return table_id, cookies


async def player(
    ws_base: str,
    table_id: str,
    cookie: str,
    actions: int,
    seed: int,
    times: list[float],
    think_s: float,
) -> None:
    """Play up to ``actions`` actions at one seat, timing each round trip.

    Before each action the player thinks for a random time averaging ``think_s``.
    """
    bot = get_bot("slide", "random", seed)
    pause = random.Random(seed)
    url = f"{ws_base}/ws/tables/{table_id}"
    async with connect(
        url, additional_headers={"Cookie": cookie}, max_size=2**22, compression=None
    ) as ws:
        hello = json.loads(await ws.recv())
        seat, view, to_act = hello["seat"], hello["view"], hello["table"]["to_act"]
        done = 0
        while done < actions and view["result"] is None:
            if seat not in to_act:
                message = json.loads(await ws.recv())
                if message["type"] == "event":
                    view, to_act = message["view"], message["to_act"]
                continue
            action = bot.choose(view, seat, 0.01)
            if think_s > 0:
                await asyncio.sleep(pause.uniform(0, 2 * think_s))
            started = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "id": f"a{done}", "action": action}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "error":
                    raise RuntimeError(message)
                if message["type"] != "event":
                    continue
                view, to_act = message["view"], message["to_act"]
                if message["kind"] == "action" and message["seat"] == seat:
                    times.append(time.perf_counter() - started)
                    break
            done += 1


async def run(base: str, tables: int, actions: int, think_s: float) -> tuple[list[float], float]:
    """Open the tables, then let every player play at once; the round trips and wall time."""
    opened = await asyncio.gather(*(open_table(base) for _ in range(tables)))
    ws_base = "ws" + base.removeprefix("http")
    times: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(
        *(
            player(ws_base, table_id, cookie, actions, 100 * n + seat, times, think_s)
            for n, (table_id, cookies) in enumerate(opened)
            for seat, cookie in enumerate(cookies)
        )
    )
    return times, time.perf_counter() - started


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    """Parse the arguments, run the benchmark, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=24, help="actions per player")
    parser.add_argument("--db", help="database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--url", help="measure a server already running there instead")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a player thinks before acting"
    )
    args = parser.parse_args()
    if args.url:
        times, wall = asyncio.run(run(args.url.rstrip("/"), args.tables, args.actions, args.think))
        report(args, times, wall)
        return
    with tempfile.TemporaryDirectory() as folder, fresh_database(args.db) as db:
        port = free_port()
        server = start_server(Path(folder), port, db)
        try:
            times, wall = asyncio.run(
                run(f"http://127.0.0.1:{port}", args.tables, args.actions, args.think)
            )
        finally:
            server.terminate()
            server.wait(timeout=30)
    report(args, times, wall)


def report(args: argparse.Namespace, times: list[float], wall: float) -> None:
    """Print the figures."""
    ms = [t * 1000 for t in times]
    print(f"tables playing at once: {args.tables} (two players each, {2 * args.tables} sockets)")
    print(f"players think {args.think:.2f} s on average before each action")
    print(f"actions timed: {len(ms)} in {wall:.1f} s ({len(ms) / wall:.0f} actions/s)")
    print(f"round trip median: {statistics.median(ms):.1f} ms")
    print(f"round trip p90:    {percentile(ms, 0.90):.1f} ms")
    print(f"round trip p99:    {percentile(ms, 0.99):.1f} ms")
    print(f"round trip max:    {max(ms):.1f} ms")


if __name__ == "__main__":
    main()
