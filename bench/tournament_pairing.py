"""How long tournament pairing takes: a 500-player Swiss round, and an arena pass over 500.

The Swiss plays ``--rounds`` rounds of ``--players`` (results drawn from a
seeded generator, the higher rating winning two games in three) and times the
pairing of each round after the first; the figure is the median and the slowest
(the aim: under 1 s). It does the same for a Slide Swiss at tables of 4. The
arena builds a pool of ``--players`` waiting players (points 0 to 40, half of
them just back from a game against another in the pool) and times ``--passes``
passes (the aim: under 50 ms a pass), for two seats and for tables of 4.

    .venv/bin/python bench/tournament_pairing.py
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meeple.tables.tournaments.model import Bye, Entrant, Finish
from meeple.tables.tournaments.pairing.arena import Waiting, pair_arena
from meeple.tables.tournaments.pairing.swiss import pair_swiss
from meeple.tables.tournaments.pairing.swiss_tables import seat_swiss_tables


def swiss_seconds(players: int, rounds: int, seed: int) -> list[float]:
    """Seconds to pair each round after the first of a two-player Swiss."""
    rng = random.Random(seed)
    entrants = [Entrant(n, rng.randrange(1000, 2200)) for n in range(1, players + 1)]
    rating = {entrant.id: entrant.rating for entrant in entrants}
    finishes: list[Finish] = []
    byes: list[Bye] = []
    times = []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        round_ = pair_swiss(entrants, finishes, byes)
        times.append(time.perf_counter() - started)
        for a, b in round_.boards:
            favourite_wins = rng.random() < 2 / 3
            a_wins = (rating[a] >= rating[b]) == favourite_wins
            finishes.append(Finish(number, (a, b), (1, 2) if a_wins else (2, 1)))
        if round_.bye is not None:
            byes.append(Bye(number, round_.bye))
    return times[1:]


def tables_seconds(players: int, rounds: int, seed: int) -> list[float]:
    """Seconds to seat each round after the first of a Slide Swiss at tables of 4."""
    rng = random.Random(seed)
    entrants = [Entrant(n, rng.randrange(1000, 2200)) for n in range(1, players + 1)]
    finishes: list[Finish] = []
    times = []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        round_ = seat_swiss_tables(entrants, finishes, [], 4, 3, 6)
        times.append(time.perf_counter() - started)
        for table in round_.tables:
            ranks = tuple(rng.sample(range(1, len(table) + 1), len(table)))
            finishes.append(Finish(number, table, ranks))
    return times[1:]


def arena_pool(players: int, seed: int) -> list[Waiting]:
    """A waiting pool: points 0 to 40, half of it just back from games within the pool."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    rng.shuffle(ids)
    last = {player: frozenset[int]() for player in ids}
    for index in range(players // 4):
        a, b = ids[2 * index], ids[2 * index + 1]
        last[a], last[b] = frozenset({b}), frozenset({a})
    return [
        Waiting(
            player,
            rng.randrange(41),
            rng.randrange(1000, 2200),
            last[player],
            paused=rng.random() < 0.05,
            firsts=rng.randrange(5),
            games=5,
        )
        for player in sorted(ids)
    ]


def arena_seconds(players: int, passes: int, size: int, seed: int) -> list[float]:
    """Seconds of each of ``passes`` passes over a pool of ``players``."""
    pool = arena_pool(players, seed)
    times = []
    for _ in range(passes):
        started = time.perf_counter()
        pair_arena(pool, size, min(size, 3), size if size == 2 else 6)
        times.append(time.perf_counter() - started)
    return times


def show(label: str, seconds: list[float]) -> None:
    """Print the median and the slowest of ``seconds`` in milliseconds."""
    median, slowest = statistics.median(seconds) * 1000, max(seconds) * 1000
    print(f"{label}: median {median:.1f} ms, slowest {slowest:.1f} ms")


def main() -> None:
    """Time Swiss rounds and arena passes as the module says."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--passes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    show(
        f"Swiss, {args.players} players, rounds 2-{args.rounds}",
        swiss_seconds(args.players, args.rounds, args.seed),
    )
    show(
        f"Slide Swiss at tables of 4, {args.players} players, rounds 2-{args.rounds}",
        tables_seconds(args.players, args.rounds, args.seed),
    )
    show(
        f"arena pass, {args.players} waiting, two seats",
        arena_seconds(args.players, args.passes, 2, args.seed),
    )
    show(
        f"arena pass, {args.players} waiting, tables of 4",
        arena_seconds(args.players, args.passes, 4, args.seed),
    )


if __name__ == "__main__":
    main()
