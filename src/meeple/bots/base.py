"""The one interface every bot implements, for every game and level.

A bot is honest by construction: it receives only the view of its own seat
(``game.view(state, seat)``), never the state, and returns an action in its
JSON form, which the caller applies through the game's checked ``apply``.
"""

from __future__ import annotations

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


class Bot(Protocol):
    """A player that chooses an action from what its seat may see."""

    game: str
    level: str

    def choose(self, view: dict[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """An action (JSON form) for ``seat``, chosen within ``budget_s`` seconds.

        Deterministic for a given bot seed, view and budget; it never
        returns an action that is illegal in the position the view shows.
        """
        ...
