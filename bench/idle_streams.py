"""What idle Bot API event streams cost a server: resident memory per stream, CPU while idle.

Starts ``meeple serve`` (SQLite in a temporary folder, or ``--db``; ``--redis`` to count
the streams in Redis as several servers do), with the stream caps and the API limit
raised so one client opens them all, makes ``--accounts`` bot accounts with one
``bot:play`` token each and opens ``--streams`` event streams
(``GET /api/stream/events``) spread over them, asking for gzip as httpx does by default
(``--no-gzip``: not compressed). Once every stream is open and has settled, it prints the
server process's resident memory growth per stream (KiB, ``/proc``, from before the
first stream) and the server's CPU over ``--idle`` seconds of nothing but keep-alive
lines (a percentage of one core, and per stream).

    .venv/bin/python bench/idle_streams.py --streams 1000 --idle 20
    .venv/bin/python bench/idle_streams.py --streams 1000 --idle 20 --no-gzip
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from cluster_latency import usage
from server_latency import free_port, start_server

from meeple.config import Settings

PASSWORD = "Tile-Slider-42"
SETTLE_S = 3.0
"""Wait after the last stream opened before reading the memory: the first lines go out."""


def raised_caps(streams: int) -> dict[str, str]:
    """The settings that let one client from one address open ``streams`` streams: the API
    and sign-up limits, and every stream cap this checkout has."""
    settings = {
        "MEEPLE_LIMIT_API": "1000000/minute",
        "MEEPLE_LIMIT_AUTH": "100000/minute",
        "MEEPLE_MAX_SOCKETS_PER_ADDRESS": "1000000",
    }
    for name in Settings.model_fields:
        if name.startswith("max_streams"):
            settings[f"MEEPLE_{name.upper()}"] = str(streams + 10)
    return settings


async def bot_token(http: httpx.AsyncClient, name: str) -> str:
    """A new bot account's ``bot:play`` token (the client keeps the account's cookie)."""
    made = await http.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    made.raise_for_status()
    (await http.post("/api/account/bot")).raise_for_status()
    body = {"label": "bench", "scopes": ["bot:play"]}
    token = await http.post("/api/account/tokens", json=body)
    token.raise_for_status()
    return str(token.json()["token"])


async def measure(args: argparse.Namespace, base: str, pid: int) -> None:
    """Open the streams, then read the server's memory and its CPU while they idle."""
    tokens = []
    for n in range(args.accounts):
        async with httpx.AsyncClient(base_url=base, timeout=60) as signup:
            tokens.append(await bot_token(signup, f"idle-{n}"))
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(60, read=None)
    encoding = "gzip" if args.gzip else "identity"
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as http:
        warm = await http.get("/api/auth/me", headers={"Authorization": f"Bearer {tokens[0]}"})
        warm.raise_for_status()
        await asyncio.sleep(1)
        _cpu, rss_before, _system = usage(pid)
        opened = 0
        all_open = asyncio.Event()
        keepalives = 0

        async def hold(token: str) -> None:
            nonlocal opened, keepalives
            headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": encoding}
            async with http.stream("GET", "/api/stream/events", headers=headers) as response:
                response.raise_for_status()
                opened += 1
                if opened == args.streams:
                    all_open.set()
                async for line in response.aiter_lines():
                    keepalives += not line.strip()

        started = time.perf_counter()
        tasks = [asyncio.create_task(hold(tokens[n % len(tokens)])) for n in range(args.streams)]
        waiting = asyncio.create_task(all_open.wait())
        await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done() and task.exception() is not None:
                raise SystemExit(f"a stream failed to open: {task.exception()!r}")
        open_s = time.perf_counter() - started
        await asyncio.sleep(SETTLE_S)
        cpu_before, rss_after, _system = usage(pid)
        keepalives_before = keepalives
        await asyncio.sleep(args.idle)
        cpu_after, _rss, _system = usage(pid)
        idle_keepalives = keepalives - keepalives_before
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    grown_kib = (rss_after - rss_before) * 1024
    cpu_s = cpu_after - cpu_before
    print(
        f"{args.streams} idle event streams ({args.accounts} bot accounts, {encoding}), "
        f"opened in {open_s:.1f} s"
    )
    print(
        f"server RSS {rss_before:.1f} MB -> {rss_after:.1f} MB: "
        f"{grown_kib / args.streams:.1f} KiB per stream"
    )
    print(
        f"server CPU over {args.idle:.0f} s idle: {cpu_s:.2f} s "
        f"({100 * cpu_s / args.idle:.1f}% of a core, "
        f"{1e6 * cpu_s / args.idle / args.streams:.1f} us a second per stream); "
        f"{idle_keepalives} keep-alive lines"
    )


def main() -> None:
    """Parse the options, start the server, measure, stop it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--accounts", type=int, default=10)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle to time")
    parser.add_argument("--no-gzip", dest="gzip", action="store_false")
    parser.add_argument("--db", help="a database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--redis", help="a Redis URL: the streams are counted there")
    parser.add_argument("--src", type=Path, help="another checkout's src (a figure before)")
    args = parser.parse_args()
    settings = raised_caps(args.streams)
    if args.redis:
        settings["MEEPLE_REDIS"] = args.redis
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        server = start_server(Path(home), port, args.db, settings, args.src)
        try:
            asyncio.run(measure(args, f"http://127.0.0.1:{port}", server.pid))
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
