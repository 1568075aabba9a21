"""``meeple arena GAME --bots expert,greedy ...``: bots play many games, figures per bot."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from meeple.arena import BotError, LineupError, parse_lineup, run_arena
from meeple.arena.report import print_summary
from meeple.arena.schedule import seats_for
from meeple.games import GAME_NAMES, get_game
from meeple.games.kit.commands import fail


def register(subparsers: Any) -> None:
    """Add the ``arena`` command."""
    parser = subparsers.add_parser(
        "arena",
        help="bots play many games against each other; win rates, scores, move times",
        description=(
            "Play many games between bots in parallel processes, rotating seats and "
            "sharing deals so luck evens out, then print per bot: games, wins (a shared "
            "victory counts 1/k), win rate with a 95%% Wilson interval, mean score and "
            "time per move."
        ),
    )
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument(
        "--bots",
        required=True,
        help="one bot level per seat, e.g. expert,greedy or expert,greedy*3 "
        "(solo: every listed bot plays every deal)",
    )
    parser.add_argument("--players", type=int, help="seats per game (default: one per bot)")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    parser.add_argument(
        "--budget", type=float, default=1.0, help="seconds per move for every bot (default 1.0)"
    )
    parser.add_argument("--out", help="write the figures and every game's record as JSON here")
    parser.add_argument("--no-progress", action="store_true", help="do not draw the progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the arena and print the per-bot table; 2 for bad arguments."""
    try:
        lineup = parse_lineup(args.bots)
        players = args.players if args.players is not None else len(lineup)
        game = get_game(args.game)
        if not game.min_players <= players <= game.max_players:
            raise LineupError(
                f"{args.game} takes {game.min_players} to {game.max_players} players, not {players}"
            )
        seats_for(lineup, players)
    except LineupError as exc:
        fail(str(exc))
    if args.games < 1:
        fail("--games must be at least 1")
    if args.jobs < 1:
        fail("--jobs must be at least 1")
    if args.budget <= 0:
        fail("--budget must be a positive number of seconds")
    console = Console(stderr=True)
    try:
        arena = run_arena(
            args.game,
            lineup,
            players,
            args.games,
            args.seed,
            args.budget,
            args.jobs,
            console=None if args.no_progress else console,
        )
    except BotError as exc:
        fail(str(exc), status=1)
    width = None if sys.stdout.isatty() else 132  # keep the table on one line per bot in logs
    print_summary(arena.summaries, players == 1, Console(file=sys.stdout, width=width))
    print(f"{args.games} games in {arena.settings['wall_s']} s with {args.jobs} job(s)")
    if args.out:
        Path(args.out).write_text(json.dumps(arena.to_json()) + "\n", encoding="utf-8")
    return 0
