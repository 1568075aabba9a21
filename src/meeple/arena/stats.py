"""Small statistics for the arena: Wilson intervals, percentiles, means.

>>> low, high = wilson_interval(70, 100)
>>> round(low, 3), round(high, 3)
(0.604, 0.781)
>>> percentile([1.0, 2.0, 3.0, 4.0], 50)
2.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion, ``(low, high)`` in [0, 1].

    ``successes`` may be fractional (a shared win counts as a fraction of a
    win). With no trials the interval is the whole of [0, 1].
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(max(p * (1 - p), 0.0) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation; 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return ordered[below] + (ordered[above] - ordered[below]) * fraction


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean; 0.0 when empty."""
    return sum(values) / len(values) if values else 0.0


def mean_interval(values: Sequence[float], z: float = Z_95) -> tuple[float, float]:
    """A normal-approximation 95% interval for the mean of ``values``."""
    if len(values) < 2:
        centre = mean(values)
        return (centre, centre)
    centre = mean(values)
    variance = sum((v - centre) ** 2 for v in values) / (len(values) - 1)
    half = z * math.sqrt(variance / len(values))
    return (centre - half, centre + half)
