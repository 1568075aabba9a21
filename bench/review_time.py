"""How long a whole game's review takes: Summy (``meeple summy analyse``) and Slide
(``meeple slide analyse``), over recorded games of bots.

The games are played here first (seeded: greedy against random for Summy, greedy
against random for Slide, two players), then each is reviewed in one process and
timed (CPU time). Prints the median and the slowest, per game and per action.

    .venv/bin/python bench/review_time.py [--games 20] [--playouts 64]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

from meeple.arena.runner import GameSpec, play_game
from meeple.games import get_game
from meeple.games.base import GameRecord
from meeple.games.slide.review import review_slide_game
from meeple.games.summy.analysis.review import review_game
from meeple.games.summy.movegen.engine import engine


def bot_game(game_name: str, seed: int) -> GameRecord:
    """A two-player game of greedy against random, to its end (through the arena)."""
    options = get_game(game_name).default_options(2)
    spec = GameSpec(0, game_name, options, seed, ("greedy", "random"), 0.05)
    return play_game(spec).record


def main() -> None:
    """Play the games, review each, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=64, help="Slide: play-outs per option")
    args = parser.parse_args()
    console = Console(width=120)
    table = Table(title=f"Whole-game reviews, one process (Summy move generator: {engine()})")
    for column in ("game", "games", "actions (median)", "median s", "max s", "ms per action"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name, review in (
        ("summy", lambda r: review_game(r)),
        ("slide", lambda r: review_slide_game(r, args.playouts)),
    ):
        records = [bot_game(name, seed) for seed in range(args.games)]
        seconds = []
        for record in records:
            start = time.process_time()
            review(record)
            seconds.append(time.process_time() - start)
        actions = [len(r.actions) for r in records]
        per_action = sum(seconds) / sum(actions) * 1e3
        table.add_row(
            name if name == "summy" else f"slide ({args.playouts} play-outs per option)",
            str(len(records)),
            f"{statistics.median(actions):.0f}",
            f"{statistics.median(seconds):.2f}",
            f"{max(seconds):.2f}",
            f"{per_action:.1f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
