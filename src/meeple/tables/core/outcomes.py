"""What a change of a table leaves for its caller to do: open the rematch everyone asked for.

A table never calls up into the manager: each change returns an :class:`Outcome`,
and :class:`~meeple.tables.cluster.writes.Writes` acts on it. What a change did is
told separately, to whoever follows the table, as facts (:mod:`meeple.tables.facts`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """What the caller of one change must do beyond the table."""

    rematch: bool = False
    """Every player still seated asked for a rematch: open it, then record it on the table."""


NOTHING = Outcome()
"""Nothing beyond the table."""
