"""How much of a Summy result is luck: the same bot on the same deals, and a searcher that sees all.

Usage: ``python bench/summy_luck.py spread [--deals 300] [--repeats 4] [--seed 50000]``
or ``python bench/summy_luck.py oracle [--deals 500] [--seed 60000] [--level expert]``

- ``spread``: ``strong`` against ``strong`` on the same deals, each deal played
  ``--repeats`` times with other bot seeds. The spread of the final
  difference *within* a deal is luck the players' choices make (one other
  sampled refill, one other tie broken, and the rest of the game follows
  another course); the spread *between* deals is the deal's. From the total
  spread it prints how many games are needed to tell an edge of 1, 2 and 3
  points a game from zero.
- ``oracle``: the ``--level`` bot's own search, but fed the true hidden
  tiles (the opponent's hand and the stock's order) instead of samples,
  against ``strong``, both seat orders of every deal. Its edge is the most
  the expert's search design could gain from perfect sampling; if it is
  small, the gap the arena measures is luck, not missing play.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.progress import track

from meeple.bots import get_bot
from meeple.games.kit.bots import view_rng
from meeple.games.kit.clock import Deadline
from meeple.games.summy import GAME
from meeple.games.summy.bots.expert import end_outcome, outcome
from meeple.games.summy.bots.seen import PASS_JSON, read_view
from meeple.games.summy.bots.strong import rank_candidates
from meeple.games.summy.bots.tactics import should_pass_to_win

Z = 1.96


def play(seed: int, players: list[Any]) -> list[int]:
    """Play one two-player deal; ``players[s](state, view, seat)`` returns an action."""
    state = GAME.setup(GAME.default_options(2), seed)
    while GAME.result(state) is None:
        seat = state.turn
        view = GAME.view(state, seat)
        action = players[seat](state, view, seat)
        state, _ = GAME.apply(state, seat, GAME.parse_action(action))
    return list(state.scores)


def bot_player(level: str, seed: int) -> Any:
    """A player that is the bot ``level`` seeded with ``seed`` (it sees only its view)."""
    bot = get_bot("summy", level, seed)
    return lambda state, view, seat: bot.choose(view, seat, 1.0)


def oracle_player(seed: int) -> Any:
    """The expert's evaluation of every ``strong`` candidate on the true hidden tiles."""

    def choose(state: Any, view: Any, seat: int) -> Any:
        seen = read_view(view, seat)
        if should_pass_to_win(seen):
            return PASS_JSON
        ranked = rank_candidates(seen, view_rng(seed, view, seat), Deadline(10.0))
        if not ranked:
            return PASS_JSON
        hand = tuple(sorted(state.hands[1 - seat]))
        stock = list(state.stock)
        if seen.stock == 0:
            moves = [c for _, c in ranked if c.move is not None][:6]
            options = [*[c.move for c in moves], None]
            values = [end_outcome(seen, move, hand) for move in options]
            best = options[max(range(len(options)), key=lambda i: values[i])]
            return PASS_JSON if best is None else moves[options.index(best)].action(seen.hand)
        values = [outcome(seen, c, v - c.score, hand, stock) for v, c in ranked]
        return ranked[max(range(len(ranked)), key=lambda i: values[i])][1].action(seen.hand)

    return choose


def spread_deal(args: tuple[int, int]) -> list[int]:
    """The final difference (seat 0 minus seat 1) of one deal, played ``repeats`` times."""
    seed, repeats = args
    diffs = []
    for repeat in range(repeats):
        scores = play(seed, [bot_player("strong", seed * 97 + repeat * 2 + s) for s in range(2)])
        diffs.append(scores[0] - scores[1])
    return diffs


def oracle_deal(args: tuple[int, str]) -> list[tuple[int, int]]:
    """Oracle's and strong's scores on one deal, the oracle in seat 0 then in seat 1."""
    seed, _level = args
    first = play(seed, [oracle_player(seed), bot_player("strong", seed * 3 + 1)])
    second = play(seed, [bot_player("strong", seed * 3 + 2), oracle_player(seed)])
    return [(first[0], first[1]), (second[1], second[0])]


def run_spread(deals: int, repeats: int, seed: int, jobs: int) -> None:
    """Print the within-deal and between-deal spread of strong-against-strong differences."""
    with ProcessPoolExecutor(jobs) as pool:
        specs = [(seed + i, repeats) for i in range(deals)]
        rows = list(track(pool.map(spread_deal, specs), total=deals, description="deals"))
    within = statistics.mean(statistics.variance(r) for r in rows)
    total = statistics.variance([d for r in rows for d in r])
    print(f"{deals} deals x {repeats} plays of strong against strong (seeds {seed}..)")
    print(f"sd of the final difference: total {math.sqrt(total):.1f} points;")
    print(f"  within a deal (bot seeds only) {math.sqrt(within):.1f}; share {within / total:.0%}")
    for edge in (1, 2, 3):
        games = (Z * math.sqrt(total) / edge) ** 2
        print(f"  games to tell +{edge} a game from 0 at 95%: {games:,.0f}")


def run_oracle(deals: int, seed: int, jobs: int, level: str) -> None:
    """Print the perfect-information searcher's win rate and edge against strong."""
    with ProcessPoolExecutor(jobs) as pool:
        specs = [(seed + i, level) for i in range(deals)]
        rows = list(track(pool.map(oracle_deal, specs), total=deals, description="deals"))
    games = [g for r in rows for g in r]
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in games)
    paired = [sum(a - b for a, b in r) / 2 for r in rows]
    mean = statistics.mean(paired)
    half = Z * statistics.stdev(paired) / math.sqrt(len(paired))
    rate = wins / len(games)
    rate_half = Z * math.sqrt(rate * (1 - rate) / len(games))
    print(f"oracle (the expert's search on the true hidden tiles) vs strong, {len(games)} games")
    print(f"  win rate {rate:.1%} +- {rate_half:.1%}; points a game {mean:+.1f} +- {half:.1f}")


def main() -> None:
    """Run the chosen measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("spread", "oracle"))
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=50000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--level", default="expert")
    args = parser.parse_args()
    if args.what == "spread":
        run_spread(args.deals, args.repeats, args.seed, args.jobs)
    else:
        run_oracle(args.deals, args.seed, args.jobs, args.level)


if __name__ == "__main__":
    random.seed(0)
    main()
