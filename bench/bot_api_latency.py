"""The Bot API against the socket on one server: an action's round trip, and idle streams' memory.

Starts ``meeple serve`` (SQLite in a temporary folder, one bot worker process) and
plays two-seat games against the built-in random bot, one action at a time:
- over the API: a bot account's token, ``POST /api/tables/{id}/actions``,
  and the game stream (``GET /api/stream/game/{id}``);
- over the socket: a guest on ``/ws/tables/{id}``, the ``action`` message.
The round trip runs from sending the action until the client has both the
answer (the POST's, the socket's ``ack``) and the event line it made,
whichever comes last. Choosing the action is not timed (a random legal one:
from ``legal`` over the API, from the random bot over the socket). Then it
opens ``--streams`` account event streams (``--accounts`` bot accounts, each
with one token) that stay idle but for keep-alives, and gives the server
process's RSS before and after. ``--playing N`` times the round trips while N
other bot accounts play over the API all along, each game after game against the
random bot, thinking a random time averaging ``--think`` before each action.

    .venv/bin/python bench/bot_api_latency.py --actions 200 --streams 500
    .venv/bin/python bench/bot_api_latency.py --actions 200 --streams 0 --playing 100
    .venv/bin/python bench/bot_api_latency.py --game summy --actions 100 --streams 0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from idle_streams import raised_caps
from server_latency import free_port, percentile, start_server
from websockets.asyncio.client import connect

from meeple.bots import get_bot
from meeple.client import MeepleClient

PASSWORD = "Tile-Slider-42"


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MB (``/proc/PID/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def bot_token(base: str, name: str) -> str:
    """A new bot account's token with ``bot:play``."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        (
            await http.post("/api/auth/register", json={"name": name, "password": PASSWORD})
        ).raise_for_status()
        (await http.post("/api/account/bot")).raise_for_status()
        made = await http.post(
            "/api/account/tokens", json={"label": "bench", "scopes": ["bot:play"]}
        )
        made.raise_for_status()
        return str(made.json()["token"])


async def api_round_trips(
    base: str,
    token: str,
    game: str,
    actions: int,
    answers: list[float],
    think_s: float = 0.0,
    times: list[float] | None = None,
    stop: asyncio.Event | None = None,
) -> list[float]:
    """Round trips of ``actions`` actions over the API, game after game against a random bot,
    thinking a random time averaging ``think_s`` before each (not timed); each is added to
    ``times``, the time of the POST's answer alone to ``answers``; ``stop`` ends it after
    the action under way."""
    times = [] if times is None else times
    rng = random.Random(token)
    async with MeepleClient(base, token) as client:
        while len(times) < actions and not (stop and stop.is_set()):
            spec = {"game": game, "seats": 2, "bots": {"1": "random"}}
            table_id = (await client.request("POST", "/api/tables", spec))["table"]["id"]
            await client.request("POST", f"/api/tables/{table_id}/start")
            game_stream = client.game(table_id)
            stream = aiter(game_stream)
            line: dict[str, Any] = dict(await anext(stream))
            acted_through = 0
            while not (
                line.get("kind") == "finish" or len(times) >= actions or (stop and stop.is_set())
            ):
                if line.get("legal") and line["version"] >= acted_through:
                    if think_s:
                        await asyncio.sleep(rng.expovariate(1 / think_s))
                    action = rng.choice(line["legal"])
                    started = time.perf_counter()
                    answer = await client.act(table_id, action)
                    answers.append(time.perf_counter() - started)
                    acted_through = answer["version"]
                    while (line := dict(await anext(stream))).get("version", 0) < acted_through:
                        pass
                    times.append(time.perf_counter() - started)
                else:
                    line = dict(await anext(stream))
            await game_stream.aclose()
    return times


async def socket_round_trips(base: str, game: str, actions: int) -> list[float]:
    """Round trips of ``actions`` actions over the socket, game after game against a random bot."""
    times: list[float] = []
    mind = get_bot(game, "random", 1)
    sent = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        (await http.post("/api/auth/guest")).raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        while len(times) < actions:
            spec = {"game": game, "seats": 2, "bots": {"1": "random"}}
            table_id = (await http.post("/api/tables", json=spec)).json()["table"]["id"]
            (await http.post(f"/api/tables/{table_id}/start")).raise_for_status()
            url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
            async with connect(url, additional_headers={"Cookie": cookie}, max_queue=None) as ws:
                hello = json.loads(await ws.recv())
                seat, view = hello["seat"], hello["view"]
                to_act, version = hello["table"]["to_act"], hello["version"]
                finished = False
                while not finished and len(times) < actions:
                    if seat in to_act:
                        action = mind.choose(view, seat, 0.05)
                        sent += 1
                        started = time.perf_counter()
                        await ws.send(
                            json.dumps({"type": "action", "id": f"a{sent}", "action": action})
                        )
                        acked: int | None = None
                        while acked is None or version < acked:
                            message = json.loads(await ws.recv())
                            if message["type"] == "ack" and message["id"] == f"a{sent}":
                                acked = message["version"]
                            elif message["type"] == "error":
                                raise RuntimeError(message)
                            elif message["type"] == "event":
                                version, view = message["version"], message["view"]
                                to_act, finished = message["to_act"], message["kind"] == "finish"
                        times.append(time.perf_counter() - started)
                    else:
                        message = json.loads(await ws.recv())
                        if message["type"] == "event":
                            version, view = message["version"], message["view"]
                            to_act, finished = message["to_act"], message["kind"] == "finish"
    return times


async def idle_streams(
    base: str, pid: int, streams: int, accounts: int, hold_s: float, gzip: bool
) -> None:
    """Open ``streams`` event streams, idle but for keep-alives; print the server's RSS.

    ``gzip``: the streams ask for a compressed answer, as httpx does by default."""
    tokens = [await bot_token(base, f"idle-{n}") for n in range(accounts)]
    limits = httpx.Limits(max_connections=streams + 10, max_keepalive_connections=streams + 10)
    timeout = httpx.Timeout(60, read=None)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as http:
        warm = await http.get("/api/auth/me", headers={"Authorization": f"Bearer {tokens[0]}"})
        warm.raise_for_status()
        await asyncio.sleep(1)
        before = rss_mb(pid)
        opened = asyncio.Event()
        count = 0
        keepalives = 0

        async def hold(token: str) -> None:
            nonlocal count, keepalives
            headers = {
                "Authorization": f"Bearer {token}",
                "Accept-Encoding": "gzip" if gzip else "identity",
            }
            async with http.stream("GET", "/api/stream/events", headers=headers) as response:
                response.raise_for_status()
                count += 1
                if count == streams:
                    opened.set()
                async for raw in response.aiter_lines():
                    keepalives += not raw.strip()

        tasks = [asyncio.create_task(hold(tokens[n % accounts])) for n in range(streams)]
        started = time.perf_counter()
        await asyncio.wait_for(opened.wait(), 120)
        open_s = time.perf_counter() - started
        await asyncio.sleep(hold_s)
        after = rss_mb(pid)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(
        f"{streams} idle event streams ({accounts} bot accounts, "
        f"{'gzip' if gzip else 'not compressed'}): opened in {open_s:.1f} s, "
        f"{keepalives} keep-alive lines in {hold_s:.0f} s; server RSS {before:.1f} MB -> "
        f"{after:.1f} MB (+{after - before:.1f} MB, {1024 * (after - before) / streams:.0f} KB "
        "per stream)"
    )


async def round_trips(
    base: str, token: str, game: str, actions: int, playing: int, think_s: float
) -> tuple[list[float], list[float], list[float], float]:
    """Round trips over the API (and the POSTs' answers alone) and over the socket, in
    alternate short runs so a drift of the machine touches both paths alike, while
    ``playing`` other bot accounts play over the API; and those bots' actions a second
    meanwhile."""
    tokens = [await bot_token(base, f"playing-{n}") for n in range(playing)]
    played: list[list[float]] = [[] for _ in tokens]
    stop = asyncio.Event()
    background = [
        asyncio.create_task(api_round_trips(base, t, game, 10**9, [], think_s, played[n], stop))
        for n, t in enumerate(tokens)
    ]
    if playing:
        await asyncio.sleep(2 * think_s)  # every one of them into its game
    started, played_before = time.perf_counter(), sum(len(times) for times in played)
    api: list[float] = []
    answers: list[float] = []
    socket: list[float] = []
    chunk = max(10, actions // 4)
    while len(api) < actions:
        api += await api_round_trips(base, token, game, chunk, answers)
        socket += await socket_round_trips(base, game, chunk)
    rate = (sum(len(times) for times in played) - played_before) / (time.perf_counter() - started)
    stop.set()
    ended = await asyncio.gather(*background, return_exceptions=True)
    failed = [outcome for outcome in ended if isinstance(outcome, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} playing bots stopped: {failed[0]!r}")
    return api, answers, socket, rate


def summary(label: str, times: list[float]) -> str:
    """Median and percentiles in milliseconds."""
    ms = [t * 1000 for t in times]
    return (
        f"{label}: {len(ms)} actions, median {statistics.median(ms):.2f} ms, "
        f"p90 {percentile(ms, 0.9):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms"
    )


def main() -> None:
    """Parse the arguments, run the benchmark, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="slide")
    parser.add_argument("--actions", type=int, default=200, help="timed actions per path")
    parser.add_argument("--streams", type=int, default=500, help="idle event streams (0: none)")
    parser.add_argument("--accounts", type=int, default=50, help="bot accounts holding them")
    parser.add_argument("--hold", type=float, default=12.0, help="seconds the streams stay open")
    parser.add_argument("--playing", type=int, default=0, help="bots playing meanwhile")
    parser.add_argument("--think", type=float, default=1.0, help="their mean think, seconds")
    parser.add_argument(
        "--no-gzip", action="store_true", help="idle streams ask for no compression"
    )
    args = parser.parse_args()
    # The bots (and the reviews of finished games, which share their pool) in one worker
    # process: in threads, a review would hold the server's interpreter and its time would
    # be counted in the round trips.
    settings = {
        "MEEPLE_BOT_WORKERS": "1",
        "MEEPLE_BOT_BUDGET_S": "0.05",
        "MEEPLE_BOT_MIN_THINK_S": "0",
        "MEEPLE_LIMIT_API": "1000000/minute",
        "MEEPLE_LIMIT_AUTH": "100000/hour",
        "MEEPLE_PUZZLE_POOL_TARGET": "0",
    }
    # Every stream cap raised too (per address, per account...): one client opens them all.
    settings.update(raised_caps(args.streams + args.playing))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder), port, None, settings)
        try:
            print(f"{args.game}, one server on this machine ({os.cpu_count()} cores)")
            token = asyncio.run(bot_token(base, "bench-api"))
            api, answers, socket, rate = asyncio.run(
                round_trips(base, token, args.game, args.actions, args.playing, args.think)
            )
            if args.playing:
                print(
                    f"meanwhile {args.playing} bots played over the API, thinking "
                    f"{args.think:g} s on average: {rate:.0f} actions a second"
                )
            print(summary("API (POST, then its line on the game stream)", api))
            print(summary("  of which the POST's answer", answers))
            print(summary("socket (action message, ack and event)", socket))
            if args.streams:
                asyncio.run(
                    idle_streams(
                        base, server.pid, args.streams, args.accounts, args.hold, not args.no_gzip
                    )
                )
        finally:
            server.terminate()
            server.wait(20)


if __name__ == "__main__":
    main()
