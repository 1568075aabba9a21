"""Successive halving: spend a fixed number of evaluations where they matter.

Every candidate is first evaluated on the same few samples; the worse half
is dropped and the survivors get more samples, and so on. Samples are
shared (sample ``k`` is the same sampled deal for every candidate), so the
candidates are compared on equal luck.

>>> values = [[1.0, 2.0, 3.0, 4.0] * 4, [3.0] * 16, [0.0] * 16]
>>> best_by_halving(3, lambda c, k: values[c][k], 30)
1
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.games.kit.clock import Deadline


def best_by_halving(
    count: int,
    evaluate: Callable[[int, int], float],
    evaluations: int,
    deadline: Deadline | None = None,
) -> int:
    """The index of the candidate with the highest mean ``evaluate(candidate, sample)``.

    About ``evaluations`` calls are made in all (at least one per candidate;
    the last two candidates share what is left);
    the ``deadline``, if given, stops the search early as a safety net. Ties
    go to the lower index, so callers list their candidates best-guess first.
    """
    if count <= 1:
        return 0
    totals = [0.0] * count
    done = [0] * count
    alive = list(range(count))
    remaining = evaluations

    def mean(index: int) -> float:
        return totals[index] / done[index] if done[index] else float("-inf")

    while True:
        stages_left = max(1, (len(alive) - 1).bit_length())
        per_candidate = max(1, remaining // (stages_left * len(alive)))
        for index in alive:
            for _ in range(per_candidate):
                if deadline is not None and deadline.expired():
                    break
                totals[index] += evaluate(index, done[index])
                done[index] += 1
        remaining -= per_candidate * len(alive)
        alive.sort(key=lambda i: (-mean(i), i))
        expired = deadline is not None and deadline.expired()
        if len(alive) == 1 or stages_left == 1 or remaining <= 0 or expired:
            return alive[0]
        alive = alive[: (len(alive) + 1) // 2]
