"""How fast the Summy move generator is, beside the brute force of the exactness test.

Builds a fixed set of positions from seeds: a two-player game through the
engine's ``GAME``, random legal play (a uniformly random legal placement, or
a random discard when there is none) for 0 to 25 turns, then the player to
move holds 8 tiles (topped up from the stock if it ran low). For each
position it times, single process, with the solver's caches emptied first:

- ``legal_moves``: the full list;
- ``best_moves`` with n=1 and n=10;
- the brute force of ``tests/games/summy/test_movegen.py`` on the first
  ``--brute`` positions only (it tries every arrangement of the hand on every
  segment: seconds per position with 8 tiles).

It does the same on a second kind of positions (``fresh hands``, seeds
0..N-1 of ``tests/games/summy/summy_positions.py``): tables grown by turns
that each draw a fresh 8-tile hand, then a fresh 8-tile hand (often two or
three ``=``), as the expert imagines its opponent and an analysis meets them.

It prints the median, 95th percentile and maximum wall-clock time per
position, the median and 95th percentile CPU time of the process (steadier
on a shared machine), the moves found per second and, on the brute-force
subset, the ratio of medians.

    .venv/bin/python bench/summy_movegen.py [--positions 100] [--brute 20]
        [--engine python|compiled]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from meeple.games.summy.game import GAME
from meeple.games.summy.movegen import best_moves, legal_moves
from meeple.games.summy.movegen.engine import ENGINES, engine, use_engine
from meeple.games.summy.movegen.solve import clear_caches
from meeple.games.summy.tiles import HAND_SIZE, Discard, Pass, Placement, Position

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "games" / "summy"))
from summy_positions import fresh_hand_position
from test_movegen import brute_force


def build_position(seed: int) -> Position:
    """The position after ``seed``'s random game of 0 to 25 turns, with an 8-tile hand."""
    rng = random.Random(seed)
    state = GAME.setup({"players": 2}, seed)
    for _ in range(rng.randint(0, 25)):
        if GAME.result(state) is not None:
            break
        hand = state.hands[state.turn]
        moves = list(legal_moves(state.position()))
        if moves:
            action: Placement | Discard | Pass = rng.choice(moves).placement
        elif not hand:
            action = Pass()
        else:
            action = Discard(tuple(rng.sample(hand, rng.randint(1, len(hand)))))
        state, _events = GAME.apply(state, state.turn, action)
    position = state.position()
    hand = (*position.hand, *state.stock)[:HAND_SIZE]
    return Position(position.tiles, position.equations, hand)


def time_each(
    positions: Sequence[Position], run: Callable[[Position], int], warm: bool = False
) -> tuple[list[float], list[float], int]:
    """Wall and CPU seconds per position for ``run``, and the moves found.

    The solver's cache is emptied first; with ``warm``, ``run`` is then called
    once untimed, as when a bot or a hint asks again about the same position.
    """
    wall: list[float] = []
    cpu: list[float] = []
    found = 0
    for position in positions:
        clear_caches()
        if warm:
            run(position)
        start, start_cpu = time.perf_counter(), time.process_time()
        found += run(position)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu, found


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


KINDS: dict[str, Callable[[int], Position]] = {
    "random play": build_position,
    "fresh hands": fresh_hand_position,
}
"""The two kinds of positions, each built from seeds 0..N-1."""


def main() -> None:
    """Build the positions of both kinds, time every method, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100, help="positions of each kind")
    parser.add_argument("--brute", type=int, default=20, help="positions for the brute force")
    parser.add_argument(
        "--engine", choices=ENGINES, help="the search (default: compiled where built)"
    )
    args = parser.parse_args()
    if args.engine:
        use_engine(args.engine)
    console = Console(width=160)
    kinds: dict[str, list[Position]] = {}
    for kind, build in KINDS.items():
        start = time.perf_counter()
        kinds[kind] = [build(seed) for seed in range(args.positions)]
        tiles = [len(p.tiles) for p in kinds[kind]]
        console.print(
            f"{kind}: {args.positions} positions (seeds 0-{args.positions - 1}) built in "
            f"{time.perf_counter() - start:.1f} s; table tiles: median "
            f"{statistics.median(tiles)}, max {max(tiles)}"
        )

    def full_list(position: Position) -> int:
        """The full list of legal moves, built; how many."""
        return len(list(legal_moves(position)))

    runs: list[tuple[str, str, Sequence[Position], Callable[[Position], int], bool]] = []
    for kind, positions in kinds.items():
        runs += [
            (kind, "legal_moves (full list)", positions, full_list, False),
            (kind, "best_moves n=1", positions, lambda p: len(best_moves(p, 1)), False),
            (kind, "best_moves n=10", positions, lambda p: len(best_moves(p, 10)), False),
            (kind, "legal_moves, asked again (warm cache)", positions, full_list, True),
        ]
    subset = kinds["random play"][: args.brute]
    if subset:
        seeds = f"seeds 0-{len(subset) - 1}"
        runs += [
            ("random play", f"legal_moves, {seeds}", subset, full_list, False),
            ("random play", f"brute force, {seeds}", subset, lambda p: len(brute_force(p)), False),
        ]
    table = Table(title=f"Summy move generation, per position (one process, {engine()} engine)")
    columns = (
        "positions",
        "method",
        "n",
        "moves",
        "median ms",
        "p95 ms",
        "max ms",
        "CPU median ms",
        "CPU p95 ms",
    )
    for column in (*columns, "moves/s"):
        table.add_column(column, justify="left" if column in ("positions", "method") else "right")
    medians: dict[str, float] = {}
    cpu_medians: dict[str, float] = {}
    for kind, name, chosen, run, warm in runs:
        seconds, cpu, found = time_each(chosen, run, warm)
        medians[name] = statistics.median(seconds)
        cpu_medians[name] = statistics.median(cpu)
        table.add_row(
            kind,
            name,
            str(len(chosen)),
            str(found),
            f"{medians[name] * 1e3:.1f}",
            f"{percentile(seconds, 0.95) * 1e3:.1f}",
            f"{max(seconds) * 1e3:.1f}",
            f"{statistics.median(cpu) * 1e3:.1f}",
            f"{percentile(cpu, 0.95) * 1e3:.1f}",
            f"{found / sum(seconds):,.0f}",
        )
    console.print(table)
    if subset:
        fast, slow = runs[-2][1], runs[-1][1]
        console.print(
            f"brute force / legal_moves on {seeds}: median {medians[slow] / medians[fast]:,.0f}x "
            f"(CPU {cpu_medians[slow] / cpu_medians[fast]:,.0f}x)"
        )


if __name__ == "__main__":
    main()
