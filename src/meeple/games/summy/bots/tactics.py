"""Summy judgement shared by the ``strong`` and ``expert`` bots.

- :func:`useful_discard`: the tiles that are hard to use (``=`` beyond one,
  operators beyond two, the lowest digits beyond four), so a hand that
  cannot place is rebuilt without throwing its best tiles away.
- :func:`should_pass_to_win`: with the stock empty, the opponent's last turn
  made no equation and the viewer leads, passing ends the game at once.

>>> useful_discard(("=", "=", "=", "+", "+", "x", ":", "9"))
('+', ':', '=', '=')
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.games.summy.bots.seen import SummySeen
from meeple.games.summy.tiles import DIGITS, EQUALS, OPERATORS

KEEP_OPERATORS = "+x-:"
"""Operators in the order a bot prefers to keep them (``+`` fits most equations)."""


def useful_discard(hand: Sequence[str]) -> tuple[str, ...]:
    """The tiles to throw out of a hand that cannot (or should not) place.

    Keeps one ``=``, two operators (by :data:`KEEP_OPERATORS`, different ones
    first) and the four highest digits; when that keeps everything, the whole
    hand goes, to draw afresh.
    """
    keep: list[str] = []
    if EQUALS in hand:
        keep.append(EQUALS)
    operators = [t for t in hand if t in OPERATORS]
    ranked = sorted(set(operators), key=KEEP_OPERATORS.index)
    ranked += sorted(operators, key=KEEP_OPERATORS.index)
    for op in ranked:
        if sum(1 for t in keep if t in OPERATORS) >= 2:
            break
        if keep.count(op) < operators.count(op):
            keep.append(op)
    keep.extend(sorted((t for t in hand if t in DIGITS), reverse=True)[:4])
    thrown = list(hand)
    for tile in keep:
        thrown.remove(tile)
    return tuple(sorted(thrown)) if thrown else tuple(sorted(hand))


def should_pass_to_win(seen: SummySeen) -> bool:
    """Whether passing now ends the game with the viewer alone in the lead."""
    if seen.players < 2 or seen.stock > 0 or seen.idle_turns != seen.players - 1:
        return False
    mine = seen.scores[seen.seat]
    return all(mine > score for seat, score in enumerate(seen.scores) if seat != seen.seat)
