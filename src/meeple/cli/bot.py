"""``meeple bot run --server URL --token TOKEN``: a bot plays on a meeple server.

It runs any :class:`meeple.games.kit.bots.Bot` through the Bot API (see
:mod:`meeple.client.bridge`): a built-in level (``--bot expert``: the game's
own bot of that level for each table) or your own class (``--module
my_bot:MyBot``, made with a seed as the arena makes bots). It accepts the
challenges for the games in ``--accept``, plays every game it is seated at
to the end, and with ``--game`` opens tables itself against built-in bots.
Ctrl-C lets the request in flight finish, closes the streams and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.logging import RichHandler

from meeple.client import MeepleClient, MeepleError
from meeple.client.bridge import Bridge, BridgeError, Seek, builtin_bots, module_bots
from meeple.games.kit.bots import LEVELS
from meeple.games.kit.commands import fail

TOKEN_VARIABLE = "MEEPLE_TOKEN"
"""Where the token is read from when ``--token`` is not given (keeps it out of ``ps``)."""


def register(subparsers: Any) -> None:
    """Add the ``bot`` command group and its ``run`` command."""
    group = subparsers.add_parser("bot", help="run a bot on a meeple server (the Bot API)")
    commands = group.add_subparsers(dest="bot_command", required=True, metavar="COMMAND")
    parser = commands.add_parser(
        "run",
        help="play as a bot account: accept challenges, play every game to the end",
        description=(
            "Sign in with a personal access token (scope bot:play) and play: accept the "
            "challenges for the games in --accept (decline others), play every game the "
            "account is seated at, and with --game open tables against built-in bots. "
            "Ctrl-C stops cleanly."
        ),
    )
    parser.add_argument(
        "--server", required=True, help="the server's URL, e.g. https://meeple.example"
    )
    parser.add_argument("--token", help=f"the access token (default: ${TOKEN_VARIABLE})")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--bot", choices=LEVELS, default="expert", help="a built-in level (default expert)"
    )
    which.add_argument(
        "--module",
        action="append",
        metavar="MODULE:CLASS",
        help="your bot class, made as Class(seed) like the arena's; repeat for several games",
    )
    parser.add_argument(
        "--accept", help="games whose challenges to accept (default: every game the bot plays)"
    )
    parser.add_argument("--game", help="open tables of this game against built-in bots")
    parser.add_argument(
        "--players", type=int, default=2, help="seats at an opened table (default 2)"
    )
    parser.add_argument(
        "--opponents", choices=LEVELS, default="greedy", help="their level (default greedy)"
    )
    parser.add_argument(
        "--games", type=int, default=1, help="tables to open, one after the other (default 1)"
    )
    parser.add_argument("--move-seconds", type=int, help="the move clock of an opened table")
    parser.add_argument(
        "--budget", type=float, default=2.0, help="most seconds a move may take (default 2)"
    )
    parser.add_argument(
        "--trace", metavar="DIR", help="write every game's stream lines to DIR/<table>.ndjson"
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning"])
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the bridge until Ctrl-C (or the opened tables are over); 2 for bad arguments."""
    token = args.token or os.environ.get(TOKEN_VARIABLE)
    if not token:
        fail(f"give --token or set {TOKEN_VARIABLE}")
    try:
        factory, games = module_bots(args.module) if args.module else builtin_bots(args.bot)
    except BridgeError as exc:
        fail(str(exc))
    accept = set(args.accept.split(",")) if args.accept else set(games)
    if not accept <= games:
        fail(f"no bot for {', '.join(sorted(accept - games))}; it plays {', '.join(sorted(games))}")
    seek = None
    if args.game:
        if args.game not in games:
            fail(f"no bot for {args.game}; it plays {', '.join(sorted(games))}")
        if args.games < 1 or args.players < 2:
            fail("--games must be at least 1 and --players at least 2")
        seek = Seek(args.game, args.players, args.opponents, args.games, args.move_seconds)
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(message)s",
        handlers=[RichHandler(console=Console(stderr=True), show_path=False)],
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        trace = Path(args.trace) if args.trace else None
        if trace is not None:
            trace.mkdir(parents=True, exist_ok=True)
        make = partial(
            Bridge,
            factory=factory,
            playable=games,
            accept=accept,
            budget_s=args.budget,
            trace_dir=trace,
        )
        asyncio.run(_main(args.server, token, make, seek))
    except MeepleError as exc:
        fail(f"the server refused: {exc}", status=1)
    except BridgeError as exc:
        fail(str(exc))
    return 0


async def _main(
    server: str, token: str, make: Callable[[MeepleClient], Bridge], seek: Seek | None
) -> None:
    """Run the bridge ``make`` builds on a client of ``server``; SIGINT or SIGTERM stops it."""
    async with MeepleClient(server, token) as client:
        bridge = make(client)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, bridge.stop)
        await bridge.run(seek)
