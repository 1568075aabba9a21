"""Slide's moves as text, for a whole game's text (docs/notation.md; ``FEATURES.notation``).

A move is its text form of :mod:`.actions`: ``reveal 1,2`` (the cell picked in one's
own grid, row then column from 0) or ``take 7 left`` (a pool card's value and the
side it slides in from). A reveal's comment names the card it turns up, a take's the
cell the card lands on: both are known once the reveal is over, and a game is only
exported once it is over.

>>> from meeple.games.slide.game import GAME
>>> state = GAME.setup(GAME.default_options(2), 42)
>>> reveal = NOTATION.read(state, 0, "reveal 1,2")
>>> NOTATION.write(state, 0, reveal), NOTATION.note(state, 0, reveal)
('reveal 1,2', 'card 1')
>>> NOTATION.read(state, 0, "reveal 1")
Traceback (most recent call last):
...
meeple.games.base.Refusal: cannot read 'reveal 1': write 'reveal row,col' or 'take value side'
"""

from __future__ import annotations

from meeple.games.base import IllegalAction, Refusal, Seat
from meeple.games.slide.actions import Action, Reveal, action_from_text
from meeple.games.slide.grid import SIZE
from meeple.games.slide.rules import apply
from meeple.games.slide.state import State


class SlideNotation:
    """Slide's :class:`~meeple.games.kit.notation.MoveNotation`."""

    def write(self, state: State, seat: Seat, action: Action) -> str:
        """``reveal 1,2`` or ``take 7 left``."""
        return action.to_text()

    def note(self, state: State, seat: Seat, action: Action) -> str:
        """The card a reveal turns up (``card 7``), the cell a take's card lands on
        (``lands on 2,3``)."""
        if isinstance(action, Reveal):
            row, col = action.cell
            return f"card {abs(state.grids[seat][row * SIZE + col])}"
        _after, effects = apply(state, seat, action)
        landed = next(effect["cell"] for effect in effects if effect["type"] == "take")
        return f"lands on {landed[0]},{landed[1]}"

    def read(self, state: State, seat: Seat, text: str) -> Action:
        """The action ``text`` writes; ``notation_move`` if it writes none (its legality is the
        engine's to judge)."""
        try:
            return action_from_text(text)
        except IllegalAction as exc:
            raise Refusal(str(exc), "notation_move", text=text[:40]) from None


NOTATION = SlideNotation()
"""The move notation Slide's ``FEATURES`` names."""
