"""What a Summy hand is worth: a model learned from self-play, and the tiles kept.

The strongest single skill in Summy is keeping a hand that can place next
turn: a hand without an ``=`` or an operator often cannot (a lost turn costs
about 25 points, a whole equation), one with an ``=``, an operator and six
digits scores most. :func:`hand_value` is the expected best score of a full
hand of 8 tiles on a mid-game table, fitted by least squares on the hands of
thousands of self-play turns (``bench/fit_summy_leave.py`` plays them and
writes ``leave.json``). Its terms: one value per count of ``=`` (0 to
4+) and operators (0 to 5+) together, one per operator kind (up to two of a
kind) and one per digit.

A move's **leave** is the tiles it keeps; :func:`leave_value` is the mean
hand value of the kept tiles topped up from sampled refills (the tiles the
bot has not seen), which is what the next turn can expect to score.

>>> hand_value(tuple("123456=+")) > hand_value(tuple("12345678"))
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from meeple.games.summy.bots.tactics import KEEP_OPERATORS
from meeple.games.summy.tiles import DIGITS, EQUALS, HAND_SIZE, OPERATORS

MAX_EQUALS = 4
"""Hands with more ``=`` than this share the value of this many."""

MAX_OPERATORS = 5
"""Hands with more operators than this share the value of this many."""

MAX_SAME_OPERATOR = 2
"""Operators of one kind beyond this many add nothing."""


@dataclass(frozen=True)
class HandModel:
    """The fitted terms of :func:`hand_value` (see ``leave.json``)."""

    mix: dict[tuple[int, int], float]
    operators: dict[str, float]
    digits: tuple[float, ...]

    def value(self, hand: Sequence[str]) -> float:
        """The expected best score of ``hand`` (a full hand) on a mid-game table."""
        equals = operators = 0
        value = 0.0
        per_operator: dict[str, int] = {}
        for tile in hand:
            if tile == EQUALS:
                equals += 1
            elif tile in OPERATORS:
                operators += 1
                per_operator[tile] = per_operator.get(tile, 0) + 1
            else:
                value += self.digits[ord(tile) - 48]
        value += self.mix[(min(equals, MAX_EQUALS), min(operators, MAX_OPERATORS))]
        for tile, count in per_operator.items():
            value += self.operators[tile] * min(count, MAX_SAME_OPERATOR)
        return value

    def to_json(self) -> dict[str, object]:
        """The JSON form written by ``bench/fit_summy_leave.py``."""
        return {
            "mix": {f"{e},{o}": v for (e, o), v in sorted(self.mix.items())},
            "operators": dict(self.operators),
            "digits": list(self.digits),
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> HandModel:
        """Read the JSON form; ``ValueError`` when a term is missing."""
        mix_data = data["mix"]
        operators = data["operators"]
        digits = data["digits"]
        if not (
            isinstance(mix_data, dict) and isinstance(operators, dict) and isinstance(digits, list)
        ):
            raise ValueError("a hand model needs 'mix', 'operators' and 'digits'")
        mix = {
            (int(key.split(",")[0]), int(key.split(",")[1])): float(v)
            for key, v in mix_data.items()
        }
        wanted = {(e, o) for e in range(MAX_EQUALS + 1) for o in range(MAX_OPERATORS + 1)}
        if set(mix) != wanted or set(operators) != set(OPERATORS) or len(digits) != len(DIGITS):
            raise ValueError("a hand model needs every mix, operator and digit term")
        return cls(mix, {k: float(v) for k, v in operators.items()}, tuple(map(float, digits)))


@cache
def fitted_model() -> HandModel:
    """The model shipped with the package (``leave.json``)."""
    text = resources.files("meeple.games.summy.bots").joinpath("leave.json").read_text("utf-8")
    return HandModel.from_json(json.loads(text)["model"])


def hand_value(hand: Sequence[str]) -> float:
    """The expected best score of a full ``hand`` on a mid-game table (fitted model)."""
    return fitted_model().value(hand)


def draw_refills(unseen: Sequence[str], count: int, rng: random.Random) -> list[list[str]]:
    """``count`` refills of up to a full hand each, drawn from the ``unseen`` tiles."""
    size = min(HAND_SIZE, len(unseen))
    return [rng.sample(unseen, size) for _ in range(count)]


def leave_value(kept: Sequence[str], refills: Sequence[Sequence[str]]) -> float:
    """The mean value of the hand ``kept`` makes once topped up by each refill."""
    if not refills:
        return hand_value(kept)
    model = fitted_model()
    need = max(0, HAND_SIZE - len(kept))
    return sum(model.value((*kept, *refill[:need])) for refill in refills) / len(refills)


def keep_options(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """The tiles worth keeping when discarding from ``hand`` (each a strict sub-hand).

    At most one ``=``; no operator, the best one or the best two (different
    kinds first, ``+ x - :``); and the ``k`` highest digits for every ``k``.
    The empty keep (throw everything) is always among them.
    """
    equals = [t for t in hand if t == EQUALS][:1]
    operators = sorted((t for t in hand if t in OPERATORS), key=KEEP_OPERATORS.index)
    kinds = list(dict.fromkeys(operators))
    operator_sets: list[list[str]] = [[]]
    if kinds:
        operator_sets.append(kinds[:1])
        operator_sets.append(kinds[:2] if len(kinds) > 1 else operators[:2])
    digits = sorted((t for t in hand if t in DIGITS), reverse=True)
    options: set[tuple[str, ...]] = set()
    for keep_equals in (equals[:0], equals):
        for ops in operator_sets:
            for k in range(len(digits) + 1):
                keep = tuple(sorted([*keep_equals, *ops, *digits[:k]]))
                if len(keep) < len(hand):
                    options.add(keep)
    return sorted(options)
