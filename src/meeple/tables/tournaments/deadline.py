"""How a turn-based round's game still unfinished at the round's deadline ends.

The game contract (:class:`meeple.games.base.Game`) offers a result only once a
game is over, and no score or ranking before; what it does say of an unfinished
game is who may act now (``to_act``). So at the deadline: the seats that may act
(whose move the game awaits) lose, sharing the last place; the others share the
first. If the game awaits every seat (a simultaneous step nobody has played
yet), or none, all share the first place (a draw). A game already over keeps
its own result. At two seats: the player on turn loses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeple.games.base import AnyGame, Seat


@dataclass(frozen=True)
class DeadlineOutcome:
    """The ranks of a game ended at the deadline, by seat, and the seats it waited on."""

    ranks: tuple[int, ...]
    late: frozenset[Seat]


def deadline_outcome(game: AnyGame, state: Any, seats: int) -> DeadlineOutcome:
    """The outcome of ``state`` (a game of ``seats`` seats) when its round's deadline passes."""
    result = game.result(state)
    if result is not None:
        return DeadlineOutcome(tuple(result.ranks), frozenset())
    late = frozenset(game.to_act(state))
    if not late or len(late) >= seats:
        return DeadlineOutcome((1,) * seats, late)
    last = seats - len(late) + 1
    return DeadlineOutcome(tuple(last if seat in late else 1 for seat in range(seats)), late)
