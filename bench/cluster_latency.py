"""Many tables on one server or several, clients in their own processes, optionally a server
killed half way: round trips, actions lost, take-over time, CPU and memory per server.

Each table is a two-seat Slide game between two guests. With several servers the
table is opened on server ``n % S`` and its two players connect to different
servers, so actions are forwarded to the table's owner. A player thinks a random
time averaging ``--think`` before each action; the round trip of every action is
from sending it until the player has both its acknowledgement and the table event
it made, whichever comes last (with several servers the event often comes first).
Every player connects before anyone
plays (the time all the connections took is printed): the round trips are those
of play, not of a thousand handshakes in the same second. ``--kill-at T`` SIGKILLs server 0
T seconds into the play: its players reconnect to another server (with the
version they had) and send again the action they were waiting for (same id:
applied once); the script counts actions never acknowledged (lost), the time
until another server owns every table server 0 owned (Redis lease keys), and how
long after the kill each of those tables had an action applied again (what its
players saw of the take-over).
``--players-at`` places the players: ``spread`` (above), ``owner`` (both on
the table's owner) or ``follow`` (spread, and a player moves to the owner when a
server sends it an ``owner`` message, as the pages do; every server is given its
address as ``MEEPLE_PUBLIC_URL``). The round trips are also given from 20 s into
the play, after the start's connections and moves.
With ``--db postgresql…`` each run gets a new database on that server (created
and dropped by the bench, so the user needs ``CREATEDB``): a run must not
review an earlier run's games. ``--profile DIR`` samples each server with
py-spy for 20 s and prints where its time goes. Every run prints each server's
forwarded calls (sent, sent again, timed out, answered from memory: ``/api/health``) and
the servers' CPU per action; ``--play-for S`` stops the players S seconds into the play
(the guard test, tests/tables/test_cluster_load.py, runs 800 tables for 15 s) and
``--json FILE`` writes the main figures. The servers run with no puzzle-pool bot games.

    .venv/bin/python bench/cluster_latency.py --tables 500 --think 1
    .venv/bin/python bench/cluster_latency.py --servers 2 --tables 1000 --think 1 \\
        --db postgresql+psycopg://postgres@127.0.0.1/test --redis redis://127.0.0.1:6379/14
    ... --kill-at 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from meeple.bots import get_bot

sys.path.insert(0, str(Path(__file__).parent))
from server_latency import free_port, fresh_database, guest, percentile, start_server


def tree(pid: int) -> list[int]:
    """The process and its descendants (the bot workers), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def usage(pid: int) -> tuple[float, float, float]:
    """CPU seconds (user + system), resident MB and the system's share of those CPU seconds
    (the kernel's: socket writes and reads) of a server and its bot workers."""
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = rss = system = 0.0
    for p in tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / ticks
            system += int(fields[12]) / ticks
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss += int(line.split()[1]) / 1024
        except (OSError, IndexError, ValueError):
            continue
    return cpu, rss, system


SHARED_TLS = ssl.create_default_context()
"""One TLS context for every client (the servers speak plain HTTP): making one per client,
for thousands of clients, would be most of the time spent opening the tables."""


async def open_table(
    bases: list[str], n: int, bot: str | None = None, at_owner: bool = False
) -> tuple[str, list[tuple[str, str]]]:
    """A started Slide table opened on server n % S (which owns it), two guests (and a bot in a
    third seat if ``bot``); each guest seat's (server, cookie). The second guest is on the next
    server, or with ``at_owner`` on the owner too."""
    home = bases[n % len(bases)]
    other = home if at_owner else bases[(n + 1) % len(bases)]
    async with (
        httpx.AsyncClient(base_url=home, verify=SHARED_TLS) as host,
        httpx.AsyncClient(base_url=other, verify=SHARED_TLS) as guest2,
    ):
        cookies = [await guest(host), await guest(guest2)]
        # The longest real-time clock: opening 1,000 tables takes longer than the default
        # minute, and the first tables' clocks would run out before their players connect.
        spec: dict[str, Any] = {"game": "slide", "seats": 2, "move_seconds": 3600}
        if bot:
            spec = {**spec, "seats": 3, "bots": {"2": bot}}
        created = await host.post("/api/tables", json=spec)
        created.raise_for_status()
        table_id = created.json()["table"]["id"]
        (await guest2.post(f"/api/tables/{table_id}/join", json={})).raise_for_status()
        started = await host.post(f"/api/tables/{table_id}/start")
        if started.is_error:
            raise SystemExit(f"starting table {n} failed: {started.status_code} {started.text}")
    return table_id, [(home, cookies[0]), (other, cookies[1])]


async def player(
    bases: list[str],
    home: str,
    table_id: str,
    cookie: str,
    seed: int,
    think: float,
    stats: dict[str, Any],
    all_connected: asyncio.Event,
    connected: Any,
    follow: bool = False,
    play_for: float | None = None,
) -> None:
    """Play one seat to the end (or, with ``play_for``, for that many seconds from when every
    player is connected); reconnect to another
    server if its own goes away.

    The first action waits until every player of the run is connected
    (``all_connected``; ``connected()`` says this one is). With ``follow`` the player
    moves to its table's owner when a server tells it where that is (``owner``), and back
    to its own list of servers if that connection fails, as the browser does."""
    bot = get_bot("slide", "random", seed)
    pause = random.Random(seed)
    order = [home] + [b for b in bases if b != home]
    version, pending, sent_at, server, need = 0, None, 0.0, 0, 0
    timing = False  # an action acknowledged whose event has not come yet
    owner_url: str | None = None  # where a server said the table's owner is
    lost_at: float | None = None  # when its connection failed, until it is back
    stop_at: float | None = None  # with play_for: when it stops acting
    while True:
        base = order[server % len(order)]
        url = owner_url or f"ws{base.removeprefix('http')}/ws/tables/{table_id}"
        if version:
            url += f"?since={version}"
        connecting_at = time.time()
        try:
            async with connect(
                url,
                additional_headers={"Cookie": cookie},
                max_size=2**22,
                compression=None,
                open_timeout=30,
            ) as ws:
                opened_at = time.time()
                first = json.loads(await ws.recv())
                if lost_at is not None:
                    stats["back"].append((lost_at, connecting_at, opened_at, time.time()))
                    lost_at = None
                if first["type"] == "error":  # a refusal at the door is the bench's mistake
                    raise SystemExit(f"the server refused a player's socket: {first}")
                if first["type"] == "hello":
                    seat, view, to_act = first["seat"], first["view"], first["table"]["to_act"]
                    version = first["version"]
                if not all_connected.is_set():
                    connected()
                    await all_connected.wait()
                if play_for is not None and stop_at is None:
                    stop_at = time.time() + play_for
                if pending is not None:  # the action we were waiting for: again, same id
                    await ws.send(
                        json.dumps({"type": "action", "id": pending[0], "action": pending[1]})
                    )
                while view["result"] is None:
                    if pending is None and stop_at is not None and time.time() >= stop_at:
                        stats["stopped"] += 1
                        return
                    if pending is None and version >= need and seat in to_act:
                        action = bot.choose(view, seat, 0.01)
                        if think > 0:
                            await asyncio.sleep(pause.uniform(0, 2 * think))
                        pending = (f"a{stats['sent']}-{seed}", action)
                        stats["sent"] += 1
                        sent_at = time.perf_counter()
                        await ws.send(
                            json.dumps({"type": "action", "id": pending[0], "action": action})
                        )
                    if stop_at is not None and pending is None:
                        # Past the end the other player may have stopped: wait no longer.
                        try:
                            raw = await asyncio.wait_for(ws.recv(), max(0.1, stop_at - time.time()))
                        except TimeoutError:
                            continue
                        message = json.loads(raw)
                    else:
                        message = json.loads(await ws.recv())
                    if message["type"] == "ack" and pending and message.get("id") == pending[0]:
                        stats["acked"] += 1
                        stats["acks"].setdefault(table_id, []).append(time.time())
                        pending, need = None, message["version"]  # act again once it is seen
                        timing = True
                    elif message["type"] == "error":
                        if pending and message.get("id") == pending[0]:
                            stats["refused"] += 1
                            codes = stats["refused_codes"]
                            codes[message.get("code")] = codes.get(message.get("code"), 0) + 1
                            pending = None
                    elif message["type"] == "event":
                        version = message["version"]
                        view, to_act = message.get("view") or view, message["to_act"]
                    elif message["type"] == "owner" and follow and owner_url is None:
                        owner_url = message["url"]
                        raise MovedToOwner()
                    elif message["type"] == "hello":
                        seat, view, to_act = (
                            message["seat"],
                            message["view"],
                            message["table"]["to_act"],
                        )
                        version = message["version"]
                    if timing and version >= need:  # acknowledged and its event seen: timed
                        stats["times"].append(time.perf_counter() - sent_at)
                        stats["sent_at"].append(time.time() - (time.perf_counter() - sent_at))
                        timing = False
                while pending is not None:  # the last action's ack may follow the final event
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message.get("id") == pending[0]:
                        stats["acked" if message["type"] == "ack" else "refused"] += 1
                        pending = None
                stats["finished"] += 1
                return
        except MovedToOwner:
            stats["moved"] += 1
            stats["moved_at"].append(time.time())
        except (ConnectionClosed, OSError, TimeoutError) as exc:
            stats["reconnects"] += 1
            why = f"{type(exc).__name__} on {'the owner' if owner_url else 'a server'}"
            stats["reconnect_why"][why] = stats["reconnect_why"].get(why, 0) + 1
            lost_at = lost_at or time.time()
            if owner_url is None:
                server += 1  # its server went away: the next one
            owner_url = None  # the owner went away: back to the site's address, as the page does
            await asyncio.sleep(0.5 * random.uniform(0.5, 1.5))  # as the browser's first retry


async def spectator(base: str, table_id: str, connected: Any, done: asyncio.Event) -> None:
    """Watch a table (a socket with no cookie: a spectator's) until ``done``, reading all."""
    url = f"ws{base.removeprefix('http')}/ws/tables/{table_id}"
    async with connect(url, max_size=2**22, compression=None, open_timeout=30) as ws:
        await ws.recv()
        connected()

        async def read() -> None:
            async for _message in ws:
                pass

        reading = asyncio.create_task(read())
        await done.wait()
        reading.cancel()


class MovedToOwner(Exception):
    """A server told the player where its table's owner is: reconnect there."""


def client_process(
    bases: list[str],
    tables: list[tuple[str, list[tuple[str, str]]]],
    think: float,
    first_seed: int,
    out: Any,
    barrier: Any,
    follow: bool = False,
    play_for: float | None = None,
    spectators: int = 0,
) -> None:
    """One client process: connect its share of the players (and ``spectators`` watchers of
    each table), wait at ``barrier`` for the other processes' players, play, put its figures
    on ``out``."""
    stats: dict[str, Any] = {
        "sent": 0,
        "acked": 0,
        "refused": 0,
        "refused_codes": {},
        "finished": 0,
        "stopped": 0,
        "reconnects": 0,
        "moved": 0,
        "moved_at": [],
        "back": [],
        "reconnect_why": {},
        "times": [],
        "sent_at": [],
        "acks": {},
    }

    async def play() -> None:
        all_connected = asyncio.Event()
        waiting = [(2 + spectators) * len(tables)]
        done = asyncio.Event()

        def connected() -> None:
            waiting[0] -= 1
            if waiting[0] == 0:
                task = asyncio.create_task(asyncio.to_thread(barrier.wait))
                task.add_done_callback(lambda _: all_connected.set())
                background.append(task)

        background: list[asyncio.Task[Any]] = []
        watching = [
            asyncio.create_task(spectator(seats[0][0], table_id, connected, done))
            for table_id, seats in tables
            for _ in range(spectators)
        ]
        await asyncio.gather(
            *(
                player(
                    bases,
                    home,
                    table_id,
                    cookie,
                    first_seed + 2 * n + seat,
                    think,
                    stats,
                    all_connected,
                    connected,
                    follow,
                    play_for,
                )
                for n, (table_id, seats) in enumerate(tables)
                for seat, (home, cookie) in enumerate(seats)
            )
        )
        done.set()
        await asyncio.gather(*watching)

    asyncio.run(play())
    out.put(stats)


async def owners(redis_url: str, table_ids: list[str]) -> list[str | None]:
    """The owner of each table (its Redis lease)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url)
    values = await client.mget([f"meeple:owner:{t}" for t in table_ids])
    await client.aclose()
    return [v.decode() if v else None for v in values]


def main() -> None:
    """Start the servers, open the tables, play them from client processes, print figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument(
        "--play-for",
        type=float,
        metavar="S",
        help="stop acting S seconds after every player connected (default: play every game out)",
    )
    parser.add_argument(
        "--json",
        metavar="FILE",
        help="also write the main figures and each server's forwarded-call counts as JSON",
    )
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--db", help="database URL (default: SQLite; PostgreSQL for several)")
    parser.add_argument("--redis", help="Redis URL (needed for several servers)")
    parser.add_argument("--kill-at", type=float, help="SIGKILL server 0 this many seconds in")
    parser.add_argument("--bot", help="a bot of this level in a third seat of every table")
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        metavar="N",
        help="N spectators' sockets at every table, on its owner, reading every line",
    )
    parser.add_argument(
        "--players-at",
        choices=["spread", "owner", "follow"],
        default="spread",
        help="spread: a table's two players on two servers (half of the actions forwarded);"
        " owner: both on the table's owner; follow: spread, and a player moves to the owner"
        " when its server says where that is (the servers' MEEPLE_PUBLIC_URL)",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="py-spy each server (--profile-for seconds) from 10 s into the play, or from the"
        " kill with --kill-at (only the thread holding the GIL: where the CPU goes); raw"
        " stacks and a summary in DIR",
    )
    parser.add_argument(
        "--profile-for",
        type=float,
        default=20,
        metavar="S",
        help="how long --profile samples (default 20 s; 5 s shows a take-over on its own)",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        default=0,
        metavar="N",
        help="also N Summy games of two bots on server 0, finishing during the run: the"
        " background reviewer reviews them while the players play",
    )
    args = parser.parse_args()
    if args.servers > 1 and not (args.db and args.redis):
        raise SystemExit("several servers need --db (PostgreSQL) and --redis")
    settings: dict[str, str] = {}
    if args.redis:
        settings["MEEPLE_REDIS"] = args.redis
    with tempfile.TemporaryDirectory() as folder, fresh_database(args.db) as db:
        ports = [free_port() for _ in range(args.servers)]
        servers = []
        for n, port in enumerate(ports):
            home = Path(folder) / str(n)
            home.mkdir()
            public = {"MEEPLE_PUBLIC_URL": f"http://127.0.0.1:{port}"}
            servers.append(start_server(home, port, db, {**settings, **public}))
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            opened = asyncio.run(
                _open_all(bases, args.tables, args.bot, args.players_at == "owner")
            )
            before = [usage(s.pid) for s in servers]
            killed_ids: list[str] = []
            if args.kill_at is not None:
                on_zero = [t for n, (t, _s) in enumerate(opened) if n % args.servers == 0]
                killed_ids = on_zero
            spawn = multiprocessing.get_context("spawn")
            out: Any = spawn.Queue()
            barrier = spawn.Barrier(args.clients + 1)
            shares = [opened[k :: args.clients] for k in range(args.clients)]
            clients = [
                spawn.Process(
                    target=client_process,
                    args=(
                        bases,
                        share,
                        args.think,
                        1000 * k,
                        out,
                        barrier,
                        args.players_at == "follow",
                        args.play_for,
                        args.spectators,
                    ),
                )
                for k, share in enumerate(shares)
            ]
            connecting = time.perf_counter()
            print(f"{len(opened)} tables open; connecting", file=sys.stderr, flush=True)
            for c in clients:
                c.start()
            barrier.wait()
            started, started_wall = time.perf_counter(), time.time()
            connected_in = started - connecting
            print(f"connected in {connected_in:.1f} s; playing", file=sys.stderr, flush=True)
            profilers = []
            if args.profile:  # with --kill-at: the take-over, from the kill on
                after_s = 10 if args.kill_at is None else args.kill_at
                profilers = profile_servers(servers, args.profile, after_s, args.profile_for)
            if args.reviews:
                asyncio.run(_bot_games(bases[0], args.reviews))
            takeover, killed_at = None, 0.0
            if args.kill_at is not None:
                time.sleep(args.kill_at)
                victim = asyncio.run(owners(args.redis, killed_ids[:1]))[0]
                servers[0].send_signal(signal.SIGKILL)
                killed, killed_at = time.perf_counter(), time.time()
                while takeover is None and time.perf_counter() - killed < 60:
                    now = asyncio.run(owners(args.redis, killed_ids))
                    if all(o is not None and o != victim for o in now):
                        takeover = time.perf_counter() - killed
                    time.sleep(0.1)
            results = [out.get() for _ in clients]
            for profiler in profilers:
                profiler.wait()
            for c in clients:
                c.join()
            wall = time.perf_counter() - started
            after = [usage(s.pid) if s.poll() is None else None for s in servers]
            if args.reviews:
                reviewed = sum(
                    httpx.get(f"{bases[0]}/api/tables/{t}/review", timeout=10).status_code == 200
                    for t in review_ids
                )
                print(f"{reviewed} of {args.reviews} bot games reviewed by the end of the run")
            health = [
                httpx.get(f"{base}/api/health", timeout=10).json() if s.poll() is None else {}
                for base, s in zip(bases, servers, strict=True)
            ]
            bots = [h.get("bots") for h in health]
        finally:
            for s in servers:
                if s.poll() is None:
                    s.terminate()
                    s.wait(timeout=30)
    figures = report(args, results, wall, before, after, takeover, connected_in)
    calls = [h.get("calls") for h in health]
    report_calls(calls)
    if args.json:
        Path(args.json).write_text(json.dumps({**figures, "calls": calls}, indent=1) + "\n")
    report_settled(results, started_wall + 20)
    if args.kill_at is not None:
        report_resumed(results, killed_ids, killed_at)
        report_back(results, killed_at)
        report_others(results, killed_ids, killed_at)
        moved_after = sum(1 for r in results for t in r["moved_at"] if t > killed_at)
        why: Counter[str] = Counter()
        for r in results:
            why.update(r["reconnect_why"])
        print(f"moved to an owner after the kill: {moved_after}; reconnects: {dict(why)}")
    if args.profile:
        for raw in sorted(Path(args.profile).glob("server*.raw")):
            summary = summarise_profile(raw)
            (raw.with_suffix(".txt")).write_text(summary + "\n")
            print(summary)
    for n, stats in enumerate(bots):
        if stats:
            print(
                f"server {n} bots: {stats['requests']} moves, queue wait median "
                f"{1000 * stats['queue_wait_p50']:.0f} ms, "
                f"p95 {1000 * stats['queue_wait_p95']:.0f} ms, "
                f"max {1000 * stats['queue_wait_max']:.0f} ms; "
                f"greedy instead: {stats['fallbacks'] or 'none'}"
            )


def profile_servers(
    servers: list[Any], folder: str, after_s: float = 10, for_s: float = 20
) -> list[subprocess.Popen[bytes]]:
    """Start py-spy on each server: ``for_s`` seconds of samples of the thread holding the
    GIL, from ``after_s`` on."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    Path(folder).mkdir(parents=True, exist_ok=True)
    record = f"{spy} record --gil -r 100 -d {for_s:g} -f raw"
    return [
        subprocess.Popen(
            ["sh", "-c", f"sleep {after_s} && exec {record} -o {folder}/server{n}.raw -p {s.pid}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for n, s in enumerate(servers)
    ]


def summarise_profile(raw: Path, top: int = 25) -> str:
    """The functions the most samples of a py-spy raw file end in, and the callers they sum to."""
    own: Counter[str] = Counter()
    within: Counter[str] = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames, n = stack.split(";"), int(count)
        total += n
        own[frames[-1]] += n
        for frame in set(frames):
            within[frame] += n
    lines = [f"{raw.name}: {total} samples (100 a second while holding the GIL)", "self:"]
    lines += [f"  {100 * n / total:5.1f}%  {f}" for f, n in own.most_common(top)]
    lines.append("within (meeple's own functions):")
    ours = [(f, n) for f, n in within.most_common() if "meeple/" in f]
    lines += [f"  {100 * n / total:5.1f}%  {f}" for f, n in ours[:top]]
    return "\n".join(lines)


review_ids: list[str] = []
"""The bot games opened for ``--reviews``."""


async def _bot_games(base: str, count: int) -> None:
    """Open and start ``count`` Summy games of two greedy bots on one server."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        (await client.post("/api/auth/guest")).raise_for_status()
        for _ in range(count):
            body = {"game": "summy", "seats": 2, "bots": {"0": "greedy", "1": "greedy"}}
            answer = await client.post("/api/tables", json={**body, "sit": False})
            answer.raise_for_status()
            table_id = answer.json()["table"]["id"]
            (await client.post(f"/api/tables/{table_id}/start")).raise_for_status()
            review_ids.append(table_id)


async def _open_all(
    bases: list[str], tables: int, bot: str | None, at_owner: bool = False
) -> list[tuple[str, list[tuple[str, str]]]]:
    """Open the tables, a few at a time."""
    gate = asyncio.Semaphore(20)

    async def one(n: int) -> tuple[str, list[tuple[str, str]]]:
        async with gate:
            return await open_table(bases, n, bot, at_owner)

    return list(await asyncio.gather(*(one(n) for n in range(tables))))


def report(
    args: argparse.Namespace,
    results: list[dict[str, Any]],
    wall: float,
    before: list[tuple[float, float]],
    after: list[tuple[float, float] | None],
    takeover: float | None,
    connected_in: float,
) -> dict[str, Any]:
    """Print the figures; the main ones."""
    times = [t * 1000 for r in results for t in r["times"]]
    total = {
        k: sum(r[k] for r in results)
        for k in ("sent", "acked", "refused", "finished", "stopped", "reconnects", "moved")
    }
    print(
        f"servers: {args.servers}, tables: {args.tables} (two players each), think {args.think} s, "
        f"client processes: {args.clients}"
        + (f", players: {args.players_at}" if args.servers > 1 else "")
        + (f", spectators per table: {args.spectators}" if args.spectators else "")
    )
    print(
        f"actions acknowledged: {total['acked']} of {total['sent']} sent in {wall:.1f} s "
        f"({total['acked'] / wall:.0f}/s); refused {total['refused']}; "
        f"lost {total['sent'] - total['acked'] - total['refused']}"
    )
    codes: dict[str, int] = {}
    for r in results:
        for code, count in r["refused_codes"].items():
            codes[code] = codes.get(code, 0) + count
    if codes:
        print("refused, by code: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
    print(f"all {2 * args.tables} players connected in {connected_in:.1f} s, then played")
    print(
        f"players who finished their game: {total['finished']} of {2 * args.tables}; "
        f"reconnects: {total['reconnects']}; moved to the owner when told: {total['moved']}"
    )
    if times:
        print(
            f"round trip ({len(times)} timed) median {statistics.median(times):.1f} ms, "
            f"p90 {percentile(times, 0.9):.1f} ms, "
            f"p99 {percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms"
        )
    cpus: list[float] = []
    for n, (b, a) in enumerate(zip(before, after, strict=True)):
        if a is None:
            print(f"server {n}: killed")
            continue
        cpu = (a[0] - b[0]) / wall
        kernel = (a[2] - b[2]) / max(a[0] - b[0], 1e-9)
        print(
            f"server {n}: CPU {100 * cpu:.0f}% of a core (with its bot workers; "
            f"{100 * kernel:.0f}% of it in the kernel), memory {a[1]:.0f} MB"
        )
        cpus.append(a[0] - b[0])
    if args.kill_at is not None:
        print(
            f"server 0 killed at {args.kill_at:.0f} s; its tables owned by another server after "
            f"{'never' if takeover is None else f'{takeover:.1f} s'}"
        )
    if total["acked"] and cpus:
        print(f"servers' CPU per action: {1000 * sum(cpus) / total['acked']:.2f} ms")
    return {
        **total,
        "wall_s": wall,
        "median_ms": statistics.median(times) if times else None,
        "p99_ms": percentile(times, 0.99) if times else None,
        "cpu_per_action_ms": 1000 * sum(cpus) / total["acked"] if total["acked"] else None,
    }


def report_calls(calls: list[dict[str, int] | None]) -> None:
    """Each server's forwarded changes: sent, sent again, timed out, repeats answered."""
    for n, counts in enumerate(calls):
        if counts:
            print(
                f"server {n} forwarded calls: sent {counts['sent']}, sent again"
                f" {counts['sent_again']}, timed out {counts['timed_out']}; answered"
                f" {counts['answered']}, repeats answered from memory {counts['answered_again']}"
            )


def report_settled(results: list[dict[str, Any]], since: float) -> None:
    """The round trips of the actions sent from ``since`` on: play once every player has
    connected and (with ``--players-at follow``) moved, without the start's burst."""
    times = [
        1000 * t
        for r in results
        for t, at in zip(r["times"], r["sent_at"], strict=True)
        if at >= since
    ]
    if times:
        print(
            f"round trip from 20 s into the play ({len(times)} timed) median "
            f"{statistics.median(times):.1f} ms, p90 {percentile(times, 0.9):.1f} ms, "
            f"p99 {percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms"
        )


def report_resumed(results: list[dict[str, Any]], killed_ids: list[str], killed_at: float) -> None:
    """How long after the kill each of the killed server's tables had an action applied
    again (the players' side of a take-over: lease, folding, resuming, reconnecting)."""
    waits, still = [], 0
    for table_id in killed_ids:
        after = [t for r in results for t in r["acks"].get(table_id, []) if t > killed_at]
        if after:
            waits.append(min(after) - killed_at)
        else:
            still += 1
    if waits:
        print(
            f"server 0's tables moving again after the kill: median {statistics.median(waits):.1f}"
            f" s, 90% within {percentile(waits, 0.9):.1f} s, all within {max(waits):.1f} s"
            f" ({len(waits)} tables; {still} with no action after the kill)"
        )


def report_others(results: list[dict[str, Any]], killed_ids: list[str], killed_at: float) -> None:
    """The actions acknowledged at the other tables (the survivor's own) in each second after
    the kill: whether taking in the dead server's players stalls them."""
    killed = set(killed_ids)
    per_second = [0] * 12
    for r in results:
        for table_id, times in r["acks"].items():
            if table_id in killed:
                continue
            for at in times:
                if 0 <= at - killed_at < len(per_second):
                    per_second[int(at - killed_at)] += 1
    print(f"the other tables' actions in each second after the kill: {per_second}")


def report_back(results: list[dict[str, Any]], killed_at: float) -> None:
    """How long the players whose connection failed after the kill took to be back (their
    first message from a server), counted from the failure; and the parts of it: opening
    the socket (the server's accepting it and the handshake), then its first message."""
    backs = [b for r in results for b in r["back"] if b[0] >= killed_at]
    if not backs:
        return
    waits = [back - lost for lost, _connecting, _opened, back in backs]
    opening = [opened - connecting for _lost, connecting, opened, _back in backs]
    first = [back - opened for _lost, _connecting, opened, back in backs]
    print(
        f"players back after losing their server: median {statistics.median(waits):.1f} s,"
        f" 90% within {percentile(waits, 0.9):.1f} s, all within {max(waits):.1f} s"
        f" ({len(waits)} players); opening the socket: median"
        f" {statistics.median(opening):.1f} s, 90% within {percentile(opening, 0.9):.1f} s;"
        f" then its first message: median {statistics.median(first):.1f} s,"
        f" 90% within {percentile(first, 0.9):.1f} s"
    )


if __name__ == "__main__":
    main()
