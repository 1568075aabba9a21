"""Run arena games in worker processes, reporting each finished game.

Every game is fully determined by its :class:`GameSpec`, so the outcomes do
not depend on the number of processes; they are returned in schedule order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from meeple.arena.runner import GameOutcome, GameSpec, play_game

OnDone = Callable[[GameOutcome], None]


def play_batch(specs: Sequence[GameSpec]) -> list[GameOutcome]:
    """Play a few games in one go (one task of a worker process)."""
    return [play_game(spec) for spec in specs]


def run_games(
    specs: Sequence[GameSpec], jobs: int, on_done: OnDone | None = None
) -> list[GameOutcome]:
    """Play every game of ``specs`` with ``jobs`` processes (1: in this process).

    ``on_done`` is called in this process after each finished game. Work is
    sent in small batches, a few per worker in flight at a time, so progress
    stays smooth and memory stays flat on long runs.
    """
    outcomes: dict[int, GameOutcome] = {}

    def finish(outcome: GameOutcome) -> None:
        outcomes[outcome.spec.index] = outcome
        if on_done is not None:
            on_done(outcome)

    if jobs <= 1:
        for spec in specs:
            finish(play_game(spec))
    else:
        batch = max(1, min(4, len(specs) // (jobs * 8)))
        batches = [specs[i : i + batch] for i in range(0, len(specs), batch)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending: set[Future[list[GameOutcome]]] = set()
            next_batch = 0
            while next_batch < len(batches) or pending:
                while next_batch < len(batches) and len(pending) < jobs * 2:
                    pending.add(pool.submit(play_batch, batches[next_batch]))
                    next_batch += 1
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    for outcome in future.result():
                        finish(outcome)
    return [outcomes[spec.index] for spec in specs]
