"""One table watched by many game streams: the moves a second it holds, the server's CPU per
move, and ``/api/health`` for everyone else meanwhile.

Starts ``meeple serve`` (SQLite in a temporary folder, no puzzle-pool bot games, the API
limits and any stream caps other than the per-token one raised), makes two bot accounts,
seats them at one two-seat table (Summy by default: its legal list is the expensive one)
and opens ``--streams`` game streams on it (``GET /api/stream/game/{id}``): the seated
accounts' own, 8 a token as the per-token cap allows, half each, and with
``--spectator-streams`` that many of them from accounts without a seat. ``--sockets`` adds
spectators' table sockets (guests). Each seated account plays from one of its streams, as
a bot does: it posts a random action from a line's ``legal`` at once. Every other stream
is read and thrown away (raw, not decompressed: the client costs little). After
``--seconds`` of play it prints the moves a second, the server's CPU seconds per move
(``/proc``, the server with its bot workers) and the round trip of ``GET /api/health``,
asked every 0.1 s from another client during the play. A game that ends before the time
is up is followed by a new table (its setting up is not counted).

    .venv/bin/python bench/streams_on_table.py --game summy --streams 160 --seconds 30
    .venv/bin/python bench/streams_on_table.py --game slide --streams 160 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from cluster_latency import usage
from server_latency import free_port, percentile, start_server

from meeple.config import Settings

PASSWORD = "Tile-Slider-42"
STREAMS_PER_TOKEN = 8
"""The default per-token cap (MEEPLE_MAX_STREAMS_PER_TOKEN), kept as a real bot meets it."""
STALE = {"not_your_turn", "conflict", "illegal"}
"""The refusals of an action answering a line the table has since moved past (a line of a
catch-up; in Slide the other seat may end the reveal meanwhile)."""


def raised_caps() -> dict[str, str]:
    """The server's settings this bench raises: the API and sign-up limits, the sockets per
    address, and every stream cap other than the per-token one (whatever this checkout has)."""
    settings = {
        "MEEPLE_LIMIT_API": "1000000/minute",
        "MEEPLE_LIMIT_AUTH": "100000/minute",
        "MEEPLE_LIMIT_GUESTS": "100000/minute",
        "MEEPLE_LIMIT_TABLES": "100000/minute",
        "MEEPLE_MAX_SOCKETS_PER_ADDRESS": "1000000",
        "MEEPLE_PUZZLE_POOL_TARGET": "0",
    }
    for name in Settings.model_fields:
        if name.startswith("max_streams") and name != "max_streams_per_token":
            settings[f"MEEPLE_{name.upper()}"] = "1000000"
    return settings


@dataclass
class Account:
    """A bot account and its ``bot:play`` tokens."""

    name: str
    tokens: list[str] = field(default_factory=list)


async def make_account(base: str, name: str, tokens: int) -> Account:
    """A new bot account with ``tokens`` tokens holding ``bot:play``."""
    account = Account(name)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        made = await http.post("/api/auth/register", json={"name": name, "password": PASSWORD})
        made.raise_for_status()
        (await http.post("/api/account/bot")).raise_for_status()
        for n in range(tokens):
            body = {"label": f"bench {n}", "scopes": ["bot:play"]}
            token = await http.post("/api/account/tokens", json=body)
            token.raise_for_status()
            account.tokens.append(str(token.json()["token"]))
    return account


def bearer(token: str) -> dict[str, str]:
    """The header of a request made with ``token``."""
    return {"Authorization": f"Bearer {token}"}


async def open_table(http: httpx.AsyncClient, game: str, host: Account, guest: Account) -> str:
    """A started two-seat table of ``game``: ``host`` at one seat, ``guest`` at the other."""
    spec = {"game": game, "seats": 2, "rated": False, "move_seconds": 3600}
    created = await http.post("/api/tables", json=spec, headers=bearer(host.tokens[0]))
    created.raise_for_status()
    table_id = str(created.json()["table"]["id"])
    path = f"/api/tables/{table_id}"
    (await http.post(f"{path}/join", json={}, headers=bearer(guest.tokens[0]))).raise_for_status()
    (await http.post(f"{path}/start", headers=bearer(host.tokens[0]))).raise_for_status()
    return table_id


@dataclass
class Run:
    """What one table's play counted."""

    moves: int = 0
    stale: int = 0
    """Actions refused as the table had moved on since the line they answered."""
    finished: bool = False
    stream_bytes: int = 0
    health_ms: list[float] = field(default_factory=list)


async def watch(
    http: httpx.AsyncClient, table_id: str, token: str, run: Run, opened: asyncio.Queue[str]
) -> None:
    """One game stream, read to its end (or until cancelled) and thrown away."""
    path = f"/api/stream/game/{table_id}"
    async with http.stream("GET", path, headers=bearer(token)) as response:
        response.raise_for_status()
        opened.put_nowait(token)
        async for chunk in response.aiter_raw():
            run.stream_bytes += len(chunk)


async def watch_socket(
    base: str, table_id: str, run: Run, opened: asyncio.Queue[str], cookie: str
) -> None:
    """One spectator's table socket, read and thrown away."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    async with connect(url, additional_headers={"Cookie": cookie}, max_size=2**24) as ws:
        opened.put_nowait("socket")
        async for message in ws:
            run.stream_bytes += len(message)


async def play(
    http: httpx.AsyncClient,
    table_id: str,
    token: str,
    seed: int,
    run: Run,
    go: asyncio.Event,
    opened: asyncio.Queue[str],
) -> None:
    """One seat, played from its own game stream: a random legal action the moment a line
    offers ``legal`` (once ``go`` is set)."""
    rng = random.Random(seed)
    path = f"/api/stream/game/{table_id}"
    acted = 0
    async with http.stream("GET", path, headers=bearer(token)) as response:
        response.raise_for_status()
        opened.put_nowait(token)
        async for raw in response.aiter_lines():
            if not raw:
                continue
            line = json.loads(raw)
            if line.get("kind") == "finish" or line.get("table", {}).get("status") == "finished":
                run.finished = True
                return
            legal = line.get("legal")
            if not legal:
                continue
            await go.wait()
            acted += 1
            body = {"id": f"{seed}-{acted}", "action": rng.choice(legal)}
            answer = await http.post(
                f"/api/tables/{table_id}/actions", json=body, headers=bearer(token)
            )
            if answer.status_code == 200:
                run.moves += 1
            elif answer.json().get("code") in STALE:
                run.stale += 1
            else:
                raise SystemExit(f"an action was refused: {answer.status_code} {answer.text}")


async def ask_health(base: str, run: Run, stop: asyncio.Event) -> None:
    """``GET /api/health`` every 0.1 s until ``stop``, each round trip kept."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            started = time.perf_counter()
            (await http.get("/api/health")).raise_for_status()
            run.health_ms.append(1000 * (time.perf_counter() - started))
            await asyncio.sleep(0.1)


async def guest_cookie(base: str) -> str:
    """A new guest's Cookie header."""
    async with httpx.AsyncClient(base_url=base) as http:
        (await http.post("/api/auth/guest")).raise_for_status()
        return "; ".join(f"{k}={v}" for k, v in http.cookies.items())


async def one_table(
    base: str,
    pid: int,
    args: argparse.Namespace,
    seated: list[Account],
    watchers: list[Account],
    cookies: list[str],
    seconds: float,
    round_no: int,
) -> tuple[Run, float, float]:
    """Open a table and its streams, play for up to ``seconds``; the run, its play time and
    the server's CPU seconds meanwhile."""
    run = Run()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(60, read=None)
    headers = {"Accept-Encoding": "gzip" if args.gzip else "identity"}
    client = httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout, headers=headers)
    async with client as http:
        table_id = await open_table(http, args.game, seated[0], seated[1])
        opened: asyncio.Queue[str] = asyncio.Queue()
        go = asyncio.Event()
        tasks = [
            asyncio.create_task(
                play(http, table_id, account.tokens[0], 1000 * round_no + n, run, go, opened)
            )
            for n, account in enumerate(seated)
        ]
        # The other streams, 8 a token: the seated accounts' after the players' own, then the
        # watching accounts'.
        tokens = [
            token
            for account in seated
            for n, token in enumerate(account.tokens)
            for _ in range(STREAMS_PER_TOKEN - (n == 0))
        ]
        seated_others = args.streams - args.spectator_streams - len(seated)
        spare = [t for a in watchers for t in a.tokens for _ in range(STREAMS_PER_TOKEN)]
        chosen = tokens[: max(0, seated_others)] + spare[: args.spectator_streams]
        tasks += [asyncio.create_task(watch(http, table_id, t, run, opened)) for t in chosen]
        tasks += [
            asyncio.create_task(watch_socket(base, table_id, run, opened, c)) for c in cookies
        ]
        for _ in range(len(tasks)):
            await asyncio.wait_for(opened.get(), 60)
        await asyncio.sleep(0.5)  # the hellos' legal lists, computed before the play
        stop = asyncio.Event()
        health = asyncio.create_task(ask_health(base, run, stop))
        cpu_before, _rss, _system = usage(pid)
        started = time.perf_counter()
        go.set()
        await asyncio.wait(tasks[: len(seated)], timeout=seconds)
        elapsed = time.perf_counter() - started
        cpu_after, _rss, _system = usage(pid)
        stop.set()
        await health
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return run, elapsed, cpu_after - cpu_before


async def bench(base: str, pid: int, args: argparse.Namespace) -> None:
    """Make the accounts, play tables until ``--seconds`` of play, print the figures."""
    per_seat = -(-(args.streams - args.spectator_streams) // 2)
    tokens = max(1, -(-per_seat // STREAMS_PER_TOKEN))
    seated = [await make_account(base, f"seat-{n}", tokens) for n in range(2)]
    spectators = -(-args.spectator_streams // STREAMS_PER_TOKEN)
    watchers = [
        await make_account(base, f"watcher-{n}", min(20, spectators - 20 * n))
        for n in range(-(-spectators // 20))
    ]
    cookies = [await guest_cookie(base) for _ in range(args.sockets)]
    moves, stale, elapsed, cpu, tables, stream_bytes = 0, 0, 0.0, 0.0, 0, 0
    health: list[float] = []
    while elapsed < args.seconds - 0.5:
        run, took, spent = await one_table(
            base, pid, args, seated, watchers, cookies, args.seconds - elapsed, tables
        )
        moves, elapsed, cpu = moves + run.moves, elapsed + took, cpu + spent
        stale += run.stale
        health += run.health_ms
        stream_bytes += run.stream_bytes
        tables += 1
    print(
        f"{args.game}, {args.streams} game streams ({args.spectator_streams} without a seat)"
        f" and {args.sockets} spectator sockets on one table, {'gzip' if args.gzip else 'plain'}:"
        f" {moves} moves in {elapsed:.1f} s of play ({tables} table(s), {stale} stale refused),"
        f" {moves / elapsed:.1f} moves/s, server CPU {1000 * cpu / max(1, moves):.1f} ms per"
        f" move ({100 * cpu / elapsed:.0f}% of a core), {stream_bytes / 1e6:.1f} MB read;"
        f" /api/health median {statistics.median(health):.1f} ms,"
        f" p95 {percentile(health, 0.95):.1f} ms, max {max(health):.1f} ms ({len(health)} asked)"
    )


def main() -> None:
    """Parse the arguments, start the server, run the bench, stop the server."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["summy", "slide"], default="summy")
    parser.add_argument("--streams", type=int, default=160, help="game streams on the table")
    parser.add_argument(
        "--spectator-streams",
        type=int,
        default=0,
        metavar="N",
        help="how many of --streams come from accounts without a seat",
    )
    parser.add_argument("--sockets", type=int, default=0, help="spectators' table sockets too")
    parser.add_argument("--seconds", type=float, default=30, help="of play")
    parser.add_argument(
        "--gzip",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="streams ask for gzip, as httpx does by default (--no-gzip: plain)",
    )
    parser.add_argument("--src", type=Path, help="run another checkout's src (a figure before)")
    args = parser.parse_args()
    if args.streams < 2 or args.spectator_streams > args.streams - 2:
        parser.error("--streams holds the two players' own and the --spectator-streams")
    with tempfile.TemporaryDirectory() as home:
        port = free_port()
        server = start_server(Path(home), port, None, raised_caps(), src=args.src)
        try:
            asyncio.run(bench(f"http://127.0.0.1:{port}", server.pid, args))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
