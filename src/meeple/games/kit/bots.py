"""The one interface every bot implements, for every game and level.

A bot is honest by construction: it receives only the view of its own seat
(``game.view(state, seat)``), never the state, and returns an action in its
JSON form, which the caller applies through the game's checked ``apply``.
A bot spends a fixed amount of work per move, so its choice depends on its
seed, seat and view alone; the clock is only its safety stop
(:class:`meeple.games.kit.clock.Deadline`).
"""

from __future__ import annotations

import json
import random
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
    """What every bot shares: its game and level, and the seed
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


def view_rng(seed: int, view: Mapping[str, JSON], seat: Seat) -> random.Random:
    """A generator fixed by the bot's seed, its seat and the view it was given.

    Choices drawn from it depend on nothing else: not on earlier calls, and
    never on what the view hides.
    """
    key = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return random.Random(f"{seed}:{seat}:{key}")
