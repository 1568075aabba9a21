"""Summy's moves as text, for a whole game's text (docs/notation.md; ``FEATURES.notation``).

A placement is written in the placement notation of :mod:`.notation` (``H 0,-3
1+1[=]2``), a discard as ``discard`` and its tiles (``discard 9x``), a pass as
``pass``. Reading a placement checks that its bracketed tiles are the table's:
the text says which tiles were already down, and a text that disagrees with the
game it replays is refused (``notation_mismatch``) rather than read otherwise.

>>> from meeple.games.summy.game import GAME
>>> state = GAME.setup({"players": 2}, 11)
>>> move = NOTATION.read(state, 1, "V -3,0 1+7[=]8")
>>> NOTATION.write(state, 1, move), NOTATION.note(state, 1, move)
('V -3,0 1+7[=]8', '16 points')
>>> NOTATION.read(state, 1, "discard 9x")
Discard(tiles=('9', 'x'))
"""

from __future__ import annotations

from meeple.games.base import Refusal, Seat
from meeple.games.summy.notation import move_text, parse_move
from meeple.games.summy.rules import check_placement
from meeple.games.summy.state import SummyState
from meeple.games.summy.tiles import TILES, Action, Discard, Move, Pass, Placement

DISCARD = "discard"
PASS = "pass"


def _move(state: SummyState, seat: Seat, placement: Placement) -> Move:
    """The move ``placement`` makes for ``seat`` (``IllegalAction`` in the engine's words)."""
    return check_placement(state.table, state.equations, state.hands[seat], placement)


class SummyNotation:
    """Summy's :class:`~meeple.games.kit.notation.MoveNotation`."""

    def write(self, state: SummyState, seat: Seat, action: Action) -> str:
        """``H 0,-3 1+1[=]2``, ``discard 9x`` or ``pass``."""
        if isinstance(action, Placement):
            return move_text(_move(state, seat, action))
        if isinstance(action, Discard):
            return f"{DISCARD} {''.join(action.tiles)}"
        return PASS

    def note(self, state: SummyState, seat: Seat, action: Action) -> str:
        """A placement's points (``4 points``); nothing for a discard or a pass."""
        if isinstance(action, Placement):
            return f"{_move(state, seat, action).score} points"
        return ""

    def read(self, state: SummyState, seat: Seat, text: str) -> Action:
        """The action ``text`` writes; ``notation_move`` if none, ``notation_mismatch`` if its
        bracketed tiles are not the table's, the engine's refusal if the rules refuse it."""
        words = text.split()
        if words == [PASS]:
            return Pass()
        if words and words[0] == DISCARD:
            tiles = "".join(words[1:])
            if not tiles or any(tile not in TILES for tile in tiles):
                why = f"{text!r} is not a discard: write it like 'discard 9x='"
                raise Refusal(why, "notation_move", text=text[:40])
            return Discard(tuple(tiles))
        try:
            written = parse_move(text)
        except ValueError as exc:  # NotationError, or a number too long for int()
            raise Refusal(str(exc), "notation_move", text=text[:40]) from None
        made = move_text(_move(state, seat, written.placement))
        if made != move_text(written):
            why = f"on this table the move reads {made}, not {text}"
            raise Refusal(why, "notation_mismatch", text=text[:40], made=made)
        return written.placement


NOTATION = SummyNotation()
"""The move notation Summy's ``FEATURES`` names."""
