"""Measure the bots against their targets (issues 4 and 32) with the arena, and print a table.

Usage: ``python bench/arena_targets.py [--scale 1.0] [--jobs 2] [--budget-summy 1.0]
[--budget-slide 1.0] [--only NAME ...] [--out-dir DIR]``

Each run is an ordinary ``meeple arena`` run (its command is printed, and its
JSON is written to ``--out-dir``); ``--scale`` multiplies the game counts of
the issue (1000 two-player games, 200 solo deals) for a shorter session.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from meeple.cli import main


@dataclass(frozen=True)
class Target:
    """One measured claim: a run, the bot it is about and what must hold."""

    name: str
    game: str
    bots: str
    players: int
    games: int
    bot: str
    claim: str


TARGETS = (
    Target("summy-greedy-greedy", "summy", "greedy,greedy", 2, 1000, "greedy", "runs < 600 s"),
    Target("summy-strong-greedy", "summy", "strong,greedy", 2, 1000, "strong", "win >= 60%"),
    Target("summy-expert-greedy", "summy", "expert,greedy", 2, 1000, "expert", "win >= 70%"),
    Target("summy-expert-strong", "summy", "expert,strong", 2, 1000, "expert", "CI low > 50%"),
    Target("summy-solo", "summy", "expert,greedy", 1, 400, "expert", "mean >= 1.15 x greedy"),
    Target("slide-expert-greedy", "slide", "expert,greedy", 2, 1000, "expert", "win >= 65%"),
    Target("slide-4p", "slide", "expert,greedy*3", 4, 1000, "expert", "win >= 55%"),
    Target("slide-6p", "slide", "expert,greedy*5", 6, 1000, "expert", "win >= 35%"),
)


def run(target: Target, scale: float, jobs: int, budget: float, out_dir: Path) -> dict[str, object]:
    """Run one target's arena and return its JSON."""
    games = max(2, round(target.games * scale))
    out = out_dir / f"{target.name}.json"
    argv = [
        "arena",
        target.game,
        "--bots",
        target.bots,
        "--players",
        str(target.players),
        "--games",
        str(games),
        "--jobs",
        str(jobs),
        "--seed",
        "1000",
        "--budget",
        str(budget),
        "--out",
        str(out),
        "--no-progress",
    ]
    print("meeple " + " ".join(argv), flush=True)
    main(argv)
    data: dict[str, object] = json.loads(out.read_text())
    return data


def verdict(target: Target, data: dict[str, object]) -> tuple[str, str]:
    """The measured figure in words, and whether the claim holds."""
    bots: dict[str, dict[str, float]] = data["bots"]  # type: ignore[assignment]
    arena: dict[str, float] = data["arena"]  # type: ignore[assignment]
    mine = bots[target.bot]
    if target.claim.startswith("runs"):
        return f"{arena['wall_s']:.0f} s for {arena['games']:.0f} games", str(arena["wall_s"] < 600)
    if target.players == 1:
        ratio = mine["mean_score"] / bots["greedy"]["mean_score"]
        return (
            f"{mine['mean_score']:.1f} vs {bots['greedy']['mean_score']:.1f} (x{ratio:.3f})",
            str(ratio >= 1.15),
        )
    figure = f"{mine['win_rate']:.1%} [{mine['win_low']:.1%}, {mine['win_high']:.1%}]"
    if "CI low" in target.claim:
        return figure, str(mine["win_low"] > 0.5)
    threshold = float(target.claim.split(">=")[1].strip(" %")) / 100
    return figure, str(mine["win_rate"] >= threshold)


def bench() -> None:
    """Parse the options, run the chosen targets, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budget-summy", type=float, default=1.0)
    parser.add_argument("--budget-slide", type=float, default=1.0)
    parser.add_argument("--only", nargs="*", help="target names to run (default: all)")
    parser.add_argument("--out-dir", default="arena-results")
    args = parser.parse_args()
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    table = Table(title="issue 4 targets")
    for column in ("target", "games", "claim", "measured", "holds", "wall s"):
        table.add_column(column)
    for target in TARGETS:
        if args.only and target.name not in args.only:
            continue
        budget = args.budget_summy if target.game == "summy" else args.budget_slide
        started = time.perf_counter()
        data = run(target, args.scale, args.jobs, budget, out_dir)
        measured, holds = verdict(target, data)
        arena: dict[str, object] = data["arena"]  # type: ignore[assignment]
        table.add_row(
            target.name,
            str(arena["games"]),
            target.claim,
            measured,
            holds,
            f"{time.perf_counter() - started:.0f}",
        )
    Console(width=132).print(table)


if __name__ == "__main__":
    bench()
