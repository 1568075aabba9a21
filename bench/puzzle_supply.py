"""How many puzzles the background supply yields: games between the server's bots, per hour.

Plays ``--games`` games of each game that cuts puzzles exactly as a server whose pool is
short does (:meth:`meeple.tables.study.puzzle_supply.PuzzleSupply.play_one`: its puzzle lineup,
fresh seeds, piece by piece in the bot pool's one background worker process, cut and
stored in a SQLite file of its own), and prints, per game: puzzles per game, seconds per
game, and puzzles per hour of that one worker's time (wall-clock, so a busy machine
gives fewer).

    .venv/bin/python bench/puzzle_supply.py [--games 40] [--budget 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from meeple.analysis.bot_games import puzzle_lineup
from meeple.games import games_with
from meeple.store.database import Database
from meeple.tables.clock import SystemClock
from meeple.tables.core.bots import BotPool
from meeple.tables.study.puzzle_supply import PuzzleSupply


async def measure(game: str, games: int, budget_s: float, folder: Path) -> tuple[int, float]:
    """Play ``games`` supply games of ``game``; the puzzles stored and the seconds taken."""
    db = Database(f"sqlite:///{folder / f'{game}.db'}")
    db.migrate()
    pool = BotPool(1, "process")
    supply = PuzzleSupply(db, pool, SystemClock(), games * 100, budget_s)
    await pool.background(puzzle_lineup, game)  # the worker is up before the clock starts
    started = time.perf_counter()
    for _ in range(games):
        await supply.play_one(game)
    took = time.perf_counter() - started
    pool.close()
    db.close()
    return supply.puzzles, took


def main() -> None:
    """Measure each game that cuts puzzles and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--budget", type=float, default=0.5, help="bot budget per move (s)")
    args = parser.parse_args()
    table = Table(title=f"puzzle supply: {args.games} games each, budget {args.budget} s")
    for column in ("game", "lineup", "puzzles", "per game", "s per game", "per hour"):
        table.add_column(column, justify="left" if column in ("game", "lineup") else "right")
    with tempfile.TemporaryDirectory() as folder:
        for game in games_with("puzzles"):
            puzzles, took = asyncio.run(measure(game, args.games, args.budget, Path(folder)))
            table.add_row(
                game,
                " v ".join(puzzle_lineup(game)),
                str(puzzles),
                f"{puzzles / args.games:.2f}",
                f"{took / args.games:.2f}",
                f"{puzzles * 3600 / took:.0f}",
            )
    Console().print(table)


if __name__ == "__main__":
    main()
