"""The arena: many bot-against-bot games in parallel, and what each bot did.

>>> from meeple.arena.schedule import parse_lineup
>>> parse_lineup("strong,greedy")
('strong', 'greedy')
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from meeple.arena.parallel import run_games
from meeple.arena.report import BotSummary, run_json, summarize
from meeple.arena.runner import BotError, GameOutcome, GameSpec, play_game
from meeple.arena.schedule import LineupError, build_schedule, parse_lineup
from meeple.games import get_game
from meeple.games.base import JSON

__all__ = [
    "ArenaRun",
    "BotError",
    "GameOutcome",
    "GameSpec",
    "LineupError",
    "build_schedule",
    "parse_lineup",
    "play_game",
    "run_arena",
]


@dataclass(frozen=True)
class ArenaRun:
    """A finished arena run: its settings, per-bot summaries and every game."""

    settings: dict[str, JSON]
    summaries: list[BotSummary]
    outcomes: list[GameOutcome]

    def to_json(self) -> dict[str, JSON]:
        """Everything about the run as JSON (what ``--out`` writes)."""
        return run_json(self.settings, self.summaries, self.outcomes)


def run_arena(
    game: str,
    lineup: Sequence[str],
    players: int,
    games: int,
    seed: int,
    budget_s: float,
    jobs: int,
    console: Console | None = None,
) -> ArenaRun:
    """Play ``games`` games of ``lineup`` and summarize them.

    With a ``console``, a progress bar (with the running win or score figures)
    is drawn on it while the games are played.
    """
    options = get_game(game).default_options(players)
    specs = build_schedule(game, lineup, players, games, seed, budget_s, options)
    started = time.perf_counter()
    if console is None:
        outcomes = run_games(specs, jobs)
    else:
        outcomes = _run_with_progress(specs, jobs, players == 1, console)
    wall_s = time.perf_counter() - started
    settings: dict[str, JSON] = {
        "game": game,
        "players": players,
        "lineup": list(lineup),
        "games": games,
        "seed": seed,
        "budget_s": budget_s,
        "jobs": jobs,
        "options": dict(options),
        "wall_s": round(wall_s, 3),
    }
    return ArenaRun(settings, summarize(outcomes), outcomes)


def _run_with_progress(
    specs: Sequence[GameSpec], jobs: int, solo: bool, console: Console
) -> list[GameOutcome]:
    """``run_games`` with a rich progress bar showing the running figures."""
    finished: list[GameOutcome] = []
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[standings]}"),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("games", total=len(specs), standings="")

        def on_done(outcome: GameOutcome) -> None:
            finished.append(outcome)
            if len(finished) % 5 == 0 or len(finished) == len(specs):
                parts = [
                    f"{s.bot} {s.mean_score:.1f}" if solo else f"{s.bot} {s.win_rate:.0%}"
                    for s in summarize(finished)
                ]
                progress.update(task, standings="  ".join(parts))
            progress.advance(task)

        return run_games(specs, jobs, on_done)
