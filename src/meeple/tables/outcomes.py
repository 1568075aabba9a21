"""What a change of a table makes due beyond the table, for its caller to do.

A table never calls up into the manager: each change returns an
:class:`Outcome` (and its clocks and bots, which nobody awaits, put theirs on
a queue), and :class:`~meeple.tables.writes.Writes` acts on it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """What follows from one change of a table."""

    lobby: bool = False
    """The table's lobby standing changed (it opened, filled, started, ended)."""
    rematch: bool = False
    """Every player still seated asked for a rematch: open it, then record it on the table."""
    turn: bool = False
    """A move was written: the seats to act may have changed (the game goes on)."""


NOTHING = Outcome()
"""Nothing beyond the table."""
LOBBY = Outcome(lobby=True)
"""Tell the lobby."""
TURN = Outcome(turn=True)
"""Tell whoever watches whose turn it is (:attr:`Writes.turn_watchers`)."""
