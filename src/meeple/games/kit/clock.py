"""The one module of ``meeple.games`` that reads a clock: the safety stops of long searches.

The rules of every game are pure (no I/O, no clock, no global random), and a
bot or a reviewer spends a fixed amount of work, so what it chooses depends on
its seed and what it sees alone. Only a search that would overrun its time on
a loaded machine is cut short, by a stop read from the monotonic
``time.perf_counter`` here: a bot's :class:`Deadline`, and :func:`stop_after`
for a search given seconds (Summy's analysis board). Keeping the clock in one
module lets the tests hold the rest of ``meeple.games`` to it
(``tests/games/test_games_pure.py``) and stand in their own clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Deadline:
    """When a bot must stop searching, from its budget and the clock.

    Bots spend a fixed amount of work per move (so their choices are
    reproducible) and use the deadline only as a safety stop: ``share`` of
    the budget is searched at most, keeping the rest for the answer itself.
    It paces itself: a search asks :meth:`expired` before each step, and
    the longest time seen between two asks is taken as the next step's, so
    the search stops when that step would end past the limit rather than
    start it and overrun.
    """

    def __init__(self, budget_s: float, share: float = 0.8) -> None:
        self.start = time.perf_counter()
        self.limit = self.start + max(0.0, budget_s) * share
        self._last_ask = self.start
        self._longest_step = 0.0

    def expired(self) -> bool:
        """Whether the search time is used up, or would be by the end of one more step."""
        now = time.perf_counter()
        self._longest_step = max(self._longest_step, now - self._last_ask)
        self._last_ask = now
        return now + self._longest_step >= self.limit

    def remaining(self) -> float:
        """Seconds of search time left (0 when expired)."""
        return max(0.0, self.limit - time.perf_counter())


def stop_after(seconds: float) -> Callable[[], bool]:
    """A stop for a search: true once ``seconds`` have passed from now."""
    deadline = time.perf_counter() + seconds
    return lambda: time.perf_counter() >= deadline
