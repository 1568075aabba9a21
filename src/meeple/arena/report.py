"""Per-bot figures of an arena run, as a table and as JSON.

Wins are counted per seat-game. A shared victory (k seats ranked first)
counts as ``1/k`` of a win for each of them, so the win rates of one game's
seats always add up to one; ``outright`` and ``shared`` count them apart.
When a level sits in several seats (``greedy*3``) its seats are pooled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.table import Table

from meeple.arena.runner import GameOutcome
from meeple.arena.stats import mean, mean_interval, percentile, wilson_interval
from meeple.games.base import JSON


@dataclass(frozen=True)
class BotSummary:
    """What one bot level did over a run (seat-games pooled)."""

    bot: str
    games: int
    wins: float
    outright: int
    shared: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    moves: int
    mean_move_s: float
    p95_move_s: float
    max_move_s: float


def summarize(outcomes: Sequence[GameOutcome]) -> list[BotSummary]:
    """One summary per bot level, in order of first appearance."""
    order: list[str] = []
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    outright: dict[str, int] = {}
    shared: dict[str, int] = {}
    scores: dict[str, list[float]] = {}
    times: dict[str, list[float]] = {}
    for outcome in outcomes:
        winners = outcome.result.winners
        for seat, bot in enumerate(outcome.spec.seats):
            if bot not in games:
                order.append(bot)
                games[bot], wins[bot], outright[bot], shared[bot] = 0, 0.0, 0, 0
                scores[bot], times[bot] = [], []
            games[bot] += 1
            if seat in winners:
                wins[bot] += 1 / len(winners)
                if len(winners) == 1:
                    outright[bot] += 1
                else:
                    shared[bot] += 1
            scores[bot].append(outcome.result.scores[seat])
            times[bot].extend(outcome.move_times[seat])
    summaries = []
    for bot in order:
        low, high = wilson_interval(wins[bot], games[bot])
        score_low, score_high = mean_interval(scores[bot])
        summaries.append(
            BotSummary(
                bot=bot,
                games=games[bot],
                wins=wins[bot],
                outright=outright[bot],
                shared=shared[bot],
                win_rate=wins[bot] / games[bot],
                win_low=low,
                win_high=high,
                mean_score=mean(scores[bot]),
                score_low=score_low,
                score_high=score_high,
                moves=len(times[bot]),
                mean_move_s=mean(times[bot]),
                p95_move_s=percentile(times[bot], 95),
                max_move_s=max(times[bot], default=0.0),
            )
        )
    return summaries


def summary_table(summaries: Sequence[BotSummary], solo: bool) -> Table:
    """A rich table of the summaries (solo runs show scores, not wins)."""
    table = Table(title="arena")
    table.add_column("bot")
    table.add_column("games", justify="right")
    if not solo:
        table.add_column("wins", justify="right")
        table.add_column("win rate [95% CI]", justify="right")
    table.add_column("mean score [95% CI]", justify="right")
    table.add_column("moves", justify="right")
    table.add_column("mean ms/move", justify="right")
    table.add_column("p95 ms/move", justify="right")
    for s in summaries:
        row = [s.bot, str(s.games)]
        if not solo:
            row += [
                f"{s.wins:g} ({s.shared} shared)",
                f"{s.win_rate:.1%} [{s.win_low:.1%}, {s.win_high:.1%}]",
            ]
        row += [
            f"{s.mean_score:.1f} [{s.score_low:.1f}, {s.score_high:.1f}]",
            str(s.moves),
            f"{s.mean_move_s * 1000:.1f}",
            f"{s.p95_move_s * 1000:.1f}",
        ]
        table.add_row(*row)
    return table


def print_summary(summaries: Sequence[BotSummary], solo: bool, console: Console) -> None:
    """Print the per-bot table."""
    console.print(summary_table(summaries, solo))


def outcome_json(outcome: GameOutcome) -> dict[str, JSON]:
    """One game of the run as JSON: seats, result, record and move times."""
    return {
        "index": outcome.spec.index,
        "seed": outcome.spec.seed,
        "seats": list(outcome.spec.seats),
        "result": outcome.result.to_json(),
        "record": outcome.record.to_json(),
        "move_times_s": [[round(t, 6) for t in seat] for seat in outcome.move_times],
    }


def run_json(
    settings: dict[str, JSON], summaries: Sequence[BotSummary], outcomes: Sequence[GameOutcome]
) -> dict[str, JSON]:
    """The whole run as JSON: its settings, the per-bot figures and every game."""
    return {
        "arena": settings,
        "bots": {s.bot: asdict(s) for s in summaries},
        "games": [outcome_json(o) for o in outcomes],
    }
