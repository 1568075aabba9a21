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

from meeple.bots.base import Deadline


def best_by_halving(
    count: int,
    evaluate: Callable[[int, int], float],
    evaluations: int,
    deadline: Deadline | None = None,
) -> int:
    """The index of the candidate with the highest mean ``evaluate(candidate, sample)``.

    About ``evaluations`` calls are made in all (at least one per candidate);
    the ``deadline``, if given, stops the search early as a safety net. Ties
    go to the lower index, so callers list their candidates best-guess first.
    """
    if count <= 1:
        return 0
    stages = max(1, (count - 1).bit_length())
    totals = [0.0] * count
    done = [0] * count
    alive = list(range(count))

    def mean(index: int) -> float:
        return totals[index] / done[index] if done[index] else float("-inf")

    for _stage in range(stages):
        per_candidate = max(1, evaluations // (stages * len(alive)))
        for index in alive:
            for _ in range(per_candidate):
                if deadline is not None and deadline.expired():
                    break
                totals[index] += evaluate(index, done[index])
                done[index] += 1
        alive.sort(key=lambda i: (-mean(i), i))
        if len(alive) <= 2 or (deadline is not None and deadline.expired()):
            break
        alive = alive[: max(2, len(alive) // 2)]
    return min(alive, key=lambda i: (-mean(i), i))
