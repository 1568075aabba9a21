"""The one interface every bot implements, for every game and level.

A bot is honest by construction: it receives only the view of its own seat
(``game.view(state, seat)``), never the state, and returns an action in its
JSON form, which the caller applies through the game's checked ``apply``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping
from typing import Protocol

from meeple.games.base import JSON, Seat

LEVELS: tuple[str, ...] = ("random", "greedy", "strong", "expert")
"""Bot levels, weakest first; shown to players as beginner, casual, strong, expert."""

LEVEL_LABELS: dict[str, str] = {
    "random": "beginner",
    "greedy": "casual",
    "strong": "strong",
    "expert": "expert",
}


class SeededBot:
    """What every bot of this package shares: its game and level, and the seed
    its choices derive from (with the seat and the view: see :func:`view_rng`)."""

    game: str
    level: str

    def __init__(self, seed: int) -> None:
        self.seed = seed


class Bot(Protocol):
    """A player that chooses an action from what its seat may see."""

    game: str
    level: str

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """An action (JSON form) for ``seat``, chosen within ``budget_s`` seconds.

        Deterministic for a given bot seed, view and budget; it never
        returns an action that is illegal in the position the view shows.
        """
        ...


DEFAULT_BUDGET_S = 1.0
"""The time budget per move when the caller gives none (the server's default)."""


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


def view_rng(seed: int, view: Mapping[str, JSON], seat: Seat) -> random.Random:
    """A generator fixed by the bot's seed, its seat and the view it was given.

    Choices drawn from it depend on nothing else: not on earlier calls, and
    never on what the view hides.
    """
    key = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return random.Random(f"{seed}:{seat}:{key}")
