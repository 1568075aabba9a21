"""Redraw what a seat cannot know: a state equally likely from that seat's view.

Used by the leak tests (the view of ``seat`` must not change) and usable by
bots that sample possible deals. The face-down values are redrawn from the
cards nobody has seen in this deal (the deck minus the face-up cards in the
grids and the pool), and other seats' pending picks move to another
face-down card of their grid; the viewer's own pick stays where it is.
"""

from __future__ import annotations

import random
from collections import Counter

from meeple.games.base import Seat
from meeple.games.slide.grid import COPIES, VALUES
from meeple.games.slide.state import NO_PICK, State

SEED_BITS = 64
"""Size of the seed a resampled state deals its later deals from."""


def unseen_cards(state: State) -> list[int]:
    """The values of the current deal's cards that are not face up anywhere, sorted.

    >>> from meeple.games.slide.state import Options, new_state
    >>> len(unseen_cards(new_state(Options(players=2), seed=1)))
    100
    """
    seen = Counter(c for grid in state.grids for c in grid if c > 0)
    seen.update(state.pool)
    return [v for v in VALUES for _ in range(COPIES - seen[v])]


def resample_hidden(state: State, seat: Seat | None, rng: random.Random) -> State:
    """A state differing from ``state`` only in what ``seat`` cannot see (``None``: spectator)."""
    deck = [-v for v in unseen_cards(state)]
    rng.shuffle(deck)
    grids = []
    picks = []
    for owner, grid in enumerate(state.grids):
        cells = list(grid)
        down = [i for i, c in enumerate(cells) if c < 0]
        for i in down:
            cells[i] = deck.pop()
        grids.append(tuple(cells))
        pick = state.picks[owner]
        picks.append(pick if pick == NO_PICK or owner == seat else rng.choice(down))
    seed = rng.getrandbits(SEED_BITS)
    return state._replace(grids=tuple(grids), picks=tuple(picks), seed=seed)
