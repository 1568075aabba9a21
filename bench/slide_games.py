"""Full random Slide games per second, for 2, 4 and 6 players, through the public contract.

Each game is played by choosing, at every step, a random seat among ``to_act``
and a random action among its ``legal_actions``, then ``apply``. Prints the
median games per second of several runs for each player count (one core).

    .venv/bin/python bench/slide_games.py [--games N] [--runs R] [--match]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meeple.games import get_game
from meeple.games.base import Game


def play_random_game(game: Game, players: int, seed: int, match_to_100: bool) -> int:
    """Play one game to the end with random choices; returns the number of actions."""
    options = game.default_options(players)
    options["match_to_100"] = match_to_100
    state = game.setup(options, seed)
    rng = random.Random(seed)
    steps = 0
    to_act, legal_actions, apply, result = game.to_act, game.legal_actions, game.apply, game.result
    while result(state) is None:
        seats = sorted(to_act(state))
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        state, _events = apply(state, seat, rng.choice(list(legal_actions(state, seat))))
        steps += 1
    return steps


def games_per_second(game: Game, players: int, games: int, match_to_100: bool, run: int) -> float:
    """Games per second of one run of ``games`` random games."""
    start = time.perf_counter()
    for i in range(games):
        play_random_game(game, players, seed=run * games + i, match_to_100=match_to_100)
    return games / (time.perf_counter() - start)


def main() -> None:
    """Print the median games per second for 2, 4 and 6 players."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--runs", type=int, default=5, help="runs per player count (default 5)")
    parser.add_argument("--match", action="store_true", help="play matches to 100 instead")
    args = parser.parse_args()
    game = get_game("slide")
    kind = "matches to 100" if args.match else "single games"
    print(f"slide random {kind}: {args.games} games x {args.runs} runs per player count")
    for players in (2, 4, 6):
        rates = [
            games_per_second(game, players, args.games, args.match, run) for run in range(args.runs)
        ]
        print(
            f"{players} players: median {statistics.median(rates):8.1f} games/s"
            f"  (min {min(rates):.1f}, max {max(rates):.1f})"
        )


if __name__ == "__main__":
    main()
