"""The arena's statistics: Wilson intervals, percentiles, means, against known values."""

from __future__ import annotations

import pytest

from meeple.arena.stats import mean, mean_interval, percentile, wilson_interval


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (70, 100, 0.6041, 0.7810),  # textbook value
        (500, 1000, 0.4691, 0.5309),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (2.5, 5, 0.1704, 0.8296),  # a shared win counts as half: symmetric about 0.5
    ],
)
def test_wilson_interval(wins: float, games: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(wins, games)
    assert got_low == pytest.approx(low, abs=1e-4)
    assert got_high == pytest.approx(high, abs=1e-4)


def test_wilson_interval_without_games_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([3.0, 1.0, 2.0], 50, 2.0),
        ([1.0, 2.0, 3.0, 4.0], 50, 2.5),
        ([float(v) for v in range(1, 101)], 95, 95.05),
        ([7.0], 95, 7.0),
        ([], 95, 0.0),
    ],
)
def test_percentile_interpolates(values: list[float], q: float, expected: float) -> None:
    assert percentile(values, q) == pytest.approx(expected)


def test_mean_and_its_interval() -> None:
    assert mean([]) == 0.0
    assert mean([1.0, 2.0, 6.0]) == 3.0
    low, high = mean_interval([10.0, 12.0, 14.0, 16.0])
    assert low == pytest.approx(13 - 1.96 * (20 / 3 / 4) ** 0.5, abs=1e-3)
    assert high == pytest.approx(13 + 1.96 * (20 / 3 / 4) ** 0.5, abs=1e-3)
    assert mean_interval([5.0]) == (5.0, 5.0)
