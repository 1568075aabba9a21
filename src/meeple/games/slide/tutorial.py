"""Slide's tutorial: three positions of a two-player game, each asking for one kind of move.

1. ``reveal``: round 1 of a dealt game (seed :data:`SEED`), the other player has
   picked already: pick a face-down card of your grid.
2. ``take``: the draft that follows the example reveal: take a card from the
   pool and slide it into your grid from one of the sides the hole allows.
3. ``cancel``: the last card of round 16 (a position set up by hand): slide it
   in next to its twin, and the game ends with equal neighbours cancelling.

>>> [step.key for step in TUTORIAL.steps]
['reveal', 'take', 'cancel']
>>> after, _ = TUTORIAL.attempt(2, TUTORIAL.steps[2].example)
>>> after.phase, after.result.scores[0]
('over', 45)
"""

from __future__ import annotations

from meeple.games.base import JSON, IllegalAction
from meeple.games.kit.tutorial import Step, Tutorial
from meeple.games.slide.actions import Reveal, Take
from meeple.games.slide.game import GAME
from meeple.games.slide.grid import HOLE, landing_index
from meeple.games.slide.state import DRAFT, NO_PICK, ROUNDS, State

SEAT = 0
"""The learner's seat; seat 1 is the other player."""

SEED = 1
"""A deal where the learner takes first in round 1."""

OTHER_PICK = (0, 0)
"""The card the other player turned up in round 1 (a 7)."""

EXAMPLES: dict[str, JSON] = {
    "reveal": {"type": "reveal", "cell": [1, 1]},  # a 3, leaving a hole with four entries
    "take": {"type": "take", "value": 3, "side": "left"},
    "cancel": {"type": "take", "value": 7, "side": "left"},  # lands beside the other 7
}

LAST_GRIDS = (
    # The learner's grid in round 16: every card face up, the hole at (1,2); a 7 waits at
    # (2,0), just under where a card entering row 1 from the left lands.
    (2, 5, 5, 9, 3, 1, HOLE, 4, 7, 6, 10, 4, 8, 3, 2, 1),
    # The other player's grid, full: they took the round's first card.
    (4, 4, 9, 1, 6, 2, 2, 8, 10, 5, 3, 3, 7, 1, 9, 6),
)
LAST_CARD = 7


def reveal_state() -> State:
    """Round 1 of the deal of :data:`SEED`: the other player has picked, the learner not yet."""
    dealt = GAME.setup(GAME.default_options(2), SEED)
    other, _effects = GAME.apply(dealt, 1, Reveal(OTHER_PICK))
    return other


def last_take(state: State) -> State:
    """Round 16's draft of the same game, set up by hand: the other player has taken the
    first card and :data:`LAST_CARD` is left for the learner."""
    return state._replace(
        round=ROUNDS,
        phase=DRAFT,
        first=1,
        grids=LAST_GRIDS,
        picks=(NO_PICK, NO_PICK),
        waiting=frozenset(),
        pool=(LAST_CARD,),
        turn=SEAT,
        takes=1,
    )


def cancels(before: State, action: object, after: State) -> None:
    """The ``cancel`` step asks for the card to land beside another of its value, so that it
    cancels at the end (the engine's own tally says whether it did)."""
    assert isinstance(action, Take)
    landing = landing_index(before.grids[SEAT].index(HOLE), action.side)
    if after.final_grids[SEAT][landing] is not None:
        raise IllegalAction(
            f"the {action.value} lands with no other {action.value} beside it: it would not cancel",
            "learn_cancel",
            value=action.value,
        )


def build() -> Tutorial:
    """The three steps: the reveal, the draft after it, and the game's last take."""
    reveal = reveal_state()
    take, _effects = GAME.apply(reveal, SEAT, GAME.parse_action(EXAMPLES["reveal"]))
    steps = (
        Step("reveal", reveal, SEAT, EXAMPLES["reveal"]),
        Step("take", take, SEAT, EXAMPLES["take"]),
        Step("cancel", last_take(take), SEAT, EXAMPLES["cancel"], cancels, {"value": LAST_CARD}),
    )
    return Tutorial(GAME, steps)


TUTORIAL = build()
"""Slide's tutorial (``FEATURES.tutorial``)."""
