"""Successive halving finds the best mean, on shared samples, within its evaluations."""

from __future__ import annotations

import pytest

from meeple.games.kit.clock import Deadline
from meeple.games.kit.search import best_by_halving


@pytest.mark.parametrize(
    ("means", "best"),
    [
        ([1.0, 5.0, 3.0], 1),
        ([9.0, 5.0, 3.0, 1.0, 0.0, 8.5, 2.0, 4.0], 0),
        ([2.0, 2.0], 0),  # equal means: the earlier candidate (the caller's best guess)
        ([0.0], 0),
    ],
)
def test_finds_the_highest_mean(means: list[float], best: int) -> None:
    noise = [0.5, -0.5, 0.25, -0.25]  # shared by all candidates, like a sampled deal
    assert best_by_halving(len(means), lambda c, k: means[c] + noise[k % 4], 64) == best


def test_spends_about_the_evaluations_it_is_given_and_favours_survivors() -> None:
    calls: list[tuple[int, int]] = []

    def evaluate(candidate: int, sample: int) -> float:
        calls.append((candidate, sample))
        return float(candidate)

    assert best_by_halving(8, evaluate, 96, None) == 7
    assert 80 <= len(calls) <= 96
    per_candidate = [sum(1 for c, _ in calls if c == i) for i in range(8)]
    assert per_candidate[7] > per_candidate[0]
    # each candidate sees samples 0, 1, 2, ... in order: samples are shared
    for i in range(8):
        assert [k for c, k in calls if c == i] == list(range(per_candidate[i]))


def test_an_expired_deadline_stops_at_the_first_guess() -> None:
    calls: list[int] = []
    deadline = Deadline(0.0)
    assert best_by_halving(5, lambda c, k: calls.append(c) or float(c), 100, deadline) == 0
    assert calls == []


class FakeClock:
    """A clock the test moves by hand, in place of ``time.perf_counter``."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_deadline_stops_before_a_step_that_would_end_past_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    monkeypatch.setattr("meeple.games.kit.clock.time.perf_counter", clock)
    deadline = Deadline(1.0, share=1.0)  # the limit is 1 s after the start
    steps = 0
    while not deadline.expired():
        clock.now += 0.3  # every step of the search takes 0.3 s
        steps += 1
    # after 3 steps (0.9 s) a fourth would end at 1.2 s: it is not started
    assert steps == 3
    assert clock.now - 100.0 <= 1.0


def test_one_slow_step_makes_the_deadline_stop_early(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr("meeple.games.kit.clock.time.perf_counter", clock)
    deadline = Deadline(1.0, share=1.0)
    clock.now += 0.1
    assert not deadline.expired()  # 0.1 s used, steps of 0.1 s: room left
    clock.now += 0.5  # one search that took half a second
    assert deadline.expired()  # 0.6 s used, the next might take 0.5 s: stop
