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

and prints the median, 95th percentile and maximum wall-clock time per
position, the median and 95th percentile CPU time of the process (steadier
on a shared machine), the moves found per second and, on the brute-force
subset, the ratio of medians.

    .venv/bin/python bench/summy_movegen.py [--positions 100] [--brute 20]
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
from meeple.games.summy.movegen_solve import clear_caches
from meeple.games.summy.state import initial_stock
from meeple.games.summy.tiles import EQUALS, HAND_SIZE, Discard, Pass, Placement, Position

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "games" / "summy"))
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


def build_fresh_hand_position(seed: int) -> Position:
    """A table grown by 4 to 17 turns that each draw a fresh 8-tile hand, then a fresh hand.

    Every turn draws 8 tiles at random from those not on the table, plays a
    uniformly random legal placement if there is one, and puts the unused
    tiles back. Hands drawn this way often hold two or three ``=`` and two
    operators: the hands the expert imagines for its opponent, and the ones
    an analysis meets.
    """
    rng = random.Random(seed)
    position = GAME.setup({"players": 2}, seed).position()
    tiles, equations = dict(position.tiles), position.equations

    def fresh_hand() -> tuple[str, ...]:
        free = initial_stock() + [EQUALS]
        for tile in tiles.values():
            free.remove(tile)
        return tuple(rng.sample(free, min(HAND_SIZE, len(free))))

    for _ in range(rng.randint(4, 17)):
        moves = list(legal_moves(Position(tiles, equations, fresh_hand())))
        if moves:
            move = rng.choice(moves)
            tiles.update(move.placement.tiles)
            equations = (*equations, move.equation)
    return Position(dict(tiles), equations, fresh_hand())


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


def main() -> None:
    """Build the positions, time every method, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--brute", type=int, default=20, help="positions for the brute force")
    args = parser.parse_args()
    console = Console(width=150)
    start = time.perf_counter()
    positions = [build_position(seed) for seed in range(args.positions)]
    tiles = [len(p.tiles) for p in positions]
    console.print(
        f"{len(positions)} positions (seeds 0-{args.positions - 1}) built in "
        f"{time.perf_counter() - start:.1f} s; table tiles: median {statistics.median(tiles)}, "
        f"max {max(tiles)}"
    )

    def full_list(position: Position) -> int:
        """The full list of legal moves, built; how many."""
        return len(list(legal_moves(position)))

    runs: list[tuple[str, Sequence[Position], Callable[[Position], int], bool]] = [
        ("legal_moves (full list)", positions, full_list, False),
        ("best_moves n=1", positions, lambda p: len(best_moves(p, 1)), False),
        ("best_moves n=10", positions, lambda p: len(best_moves(p, 10)), False),
        ("legal_moves, asked again (warm cache)", positions, full_list, True),
    ]
    subset = positions[: args.brute]
    if subset:
        seeds = f"seeds 0-{len(subset) - 1}"
        runs += [
            (f"legal_moves, {seeds}", subset, full_list, False),
            (f"brute force, {seeds}", subset, lambda p: len(brute_force(p)), False),
        ]
    table = Table(title="Summy move generation, per position (one process)")
    columns = (
        "method",
        "positions",
        "moves",
        "median ms",
        "p95 ms",
        "max ms",
        "CPU median ms",
        "CPU p95 ms",
    )
    for column in (*columns, "moves/s"):
        table.add_column(column, justify="left" if column == "method" else "right")
    medians: dict[str, float] = {}
    cpu_medians: dict[str, float] = {}
    for name, chosen, run, warm in runs:
        seconds, cpu, found = time_each(chosen, run, warm)
        medians[name] = statistics.median(seconds)
        cpu_medians[name] = statistics.median(cpu)
        table.add_row(
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
        fast, slow = runs[-2][0], runs[-1][0]
        console.print(
            f"brute force / legal_moves on {seeds}: median {medians[slow] / medians[fast]:,.0f}x "
            f"(CPU {cpu_medians[slow] / cpu_medians[fast]:,.0f}x)"
        )


if __name__ == "__main__":
    main()
