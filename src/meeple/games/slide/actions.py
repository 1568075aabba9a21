"""Slide's two actions, with their JSON form and the short text used in logs.

``Reveal(cell)`` picks a face-down card of one's own grid during the reveal;
``Take(value, side)`` takes a card of that value from the pool and slides it in
from that side of the hole's row or column. Pool cards of equal value are
interchangeable, so a take names a value, not a position in the pool.

>>> Take.from_text("take 7 left")
Take(value=7, side='left')
>>> parse_action({"type": "reveal", "cell": [1, 2]}).to_text()
'reveal 1,2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, TypeVar

from meeple.games.base import JSON, IllegalAction, refuse_unknown_keys
from meeple.games.slide.grid import SIDES, SIZE, VALUES, Cell, Side


@dataclass(frozen=True, slots=True)
class Reveal:
    """Pick the face-down card at ``cell`` of one's own grid (the reveal step)."""

    cell: Cell

    def to_json(self) -> dict[str, JSON]:
        """``{"type": "reveal", "cell": [row, col]}``."""
        return {"type": "reveal", "cell": [self.cell[0], self.cell[1]]}

    def to_text(self) -> str:
        """``reveal row,col``, e.g. ``reveal 1,2``."""
        return f"reveal {self.cell[0]},{self.cell[1]}"

    @classmethod
    def from_text(cls, text: str) -> Reveal:
        """Read ``reveal row,col``; :class:`IllegalAction` if malformed."""
        return _read_one_kind(text, cls, "reveal")


@dataclass(frozen=True, slots=True)
class Take:
    """Take a pool card of ``value`` and slide it into one's grid from ``side``."""

    value: int
    side: Side

    def to_json(self) -> dict[str, JSON]:
        """``{"type": "take", "value": 7, "side": "left"}``."""
        return {"type": "take", "value": self.value, "side": self.side}

    def to_text(self) -> str:
        """``take value side``, e.g. ``take 7 left``."""
        return f"take {self.value} {self.side}"

    @classmethod
    def from_text(cls, text: str) -> Take:
        """Read ``take value side``; :class:`IllegalAction` if malformed."""
        return _read_one_kind(text, cls, "take")


Action: TypeAlias = Reveal | Take

REVEALS: tuple[Reveal, ...] = tuple(Reveal(divmod(i, SIZE)) for i in range(SIZE * SIZE))
"""``REVEALS[index]``: the one shared ``Reveal`` of each cell (actions are values)."""

TAKES: dict[tuple[int, str], Take] = {(v, side): Take(v, side) for v in VALUES for side in SIDES}
"""The one shared ``Take`` of each value and side."""


_Kind = TypeVar("_Kind", Reveal, Take)


def _read_one_kind(text: str, kind: type[_Kind], name: str) -> _Kind:
    """The action ``text`` writes, which must be a ``kind`` (a ``name``); else
    :class:`IllegalAction`."""
    action = action_from_text(text)
    if not isinstance(action, kind):
        raise IllegalAction(f"{text!r} is not a {name}")
    return action


def _check_int(value: JSON, low: int, high: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalAction(f"{what} must be an integer from {low} to {high}, not {value!r}")
    return value


def _make_take(value: JSON, side: JSON) -> Take:
    number = _check_int(value, 1, 10, "a card value")
    if side not in SIDES:
        raise IllegalAction(f"the side must be one of {', '.join(SIDES)}, not {side!r}")
    return TAKES[(number, str(side))]


def parse_action(data: JSON) -> Action:
    """An action from its JSON form; :class:`IllegalAction` naming what is malformed.

    Strict: a key the action does not take is refused, so the JSON form of the
    action returned (:func:`action_json`) says all the input said.
    """
    if not isinstance(data, dict):
        raise IllegalAction("an action must be a JSON object with a 'type'")
    kind = data.get("type")
    if kind == "reveal":
        refuse_unknown_keys(data, ("type", "cell"), "a reveal")
        cell = data.get("cell")
        if not isinstance(cell, list | tuple) or len(cell) != 2:
            raise IllegalAction("a reveal needs 'cell': [row, col]")
        row = _check_int(cell[0], 0, SIZE - 1, "a row")
        col = _check_int(cell[1], 0, SIZE - 1, "a column")
        return REVEALS[row * SIZE + col]
    if kind == "take":
        refuse_unknown_keys(data, ("type", "value", "side"), "a take")
        return _make_take(data.get("value"), data.get("side"))
    raise IllegalAction(f"unknown action type {kind!r}: Slide has 'reveal' and 'take'")


def action_json(action: Action) -> dict[str, JSON]:
    """The JSON form of an action (:func:`parse_action` reads it back)."""
    return action.to_json()


def _is_number(word: str) -> bool:
    """Plain ASCII digits only: ``str.isdigit`` also accepts ``²``, which ``int`` refuses."""
    return word.isascii() and word.isdigit()


def action_from_text(text: str) -> Action:
    """An action from its text form (``reveal 1,2`` or ``take 7 left``).

    >>> action_from_text("take 10 bottom")
    Take(value=10, side='bottom')
    """
    words = text.split()
    if len(words) == 2 and words[0] == "reveal":
        parts = words[1].split(",")
        if len(parts) == 2 and all(map(_is_number, parts)):
            return parse_action({"type": "reveal", "cell": [int(parts[0]), int(parts[1])]})
    if len(words) == 3 and words[0] == "take" and _is_number(words[1]):
        return _make_take(int(words[1]), words[2])
    raise IllegalAction(f"cannot read {text!r}: write 'reveal row,col' or 'take value side'")
