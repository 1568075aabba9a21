"""Summy equations: split a run of tiles into numbers and operators, check it, evaluate it.

An equation reads ``NUMBER (OP NUMBER)+ = NUMBER`` (rule 6 of
``docs/rules-summy.md``) and is true when its left side, evaluated with
``x`` and ``:`` before ``+`` and ``-`` and left to right within a rank, in
exact rational arithmetic, equals its right side (rule 7). Nothing here uses
``eval``.

>>> parse_equation("70+118:2=129")
ParsedEquation(numbers=(70, 118, 2), operators=('+', ':'), result=129)
>>> check_equation("8x15=120")
ParsedEquation(numbers=(8, 15), operators=('x',), result=120)
>>> is_true_equation("2+3x4=20")
False
>>> explain("2+3x4=20")
'2+3x4 is 14, not 20'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from meeple.games.base import IllegalAction
from meeple.games.summy.tiles import DIGITS, EQUALS, OPERATORS, TILES


class EquationError(IllegalAction):
    """A run of tiles that is not a well-formed, true equation; the message says why."""


@dataclass(frozen=True)
class ParsedEquation:
    """A well-formed equation: the left side's numbers and operators, and the result."""

    numbers: tuple[int, ...]
    operators: tuple[str, ...]
    result: int

    def left_text(self) -> str:
        """The left side as tiles, e.g. ``2+3x4``."""
        return render_expression(self.numbers, self.operators)

    def value(self) -> Fraction | None:
        """The exact value of the left side; ``None`` if it divides by zero."""
        return evaluate(self.numbers, self.operators)


def render_expression(numbers: Iterable[int], operators: Iterable[str]) -> str:
    """The tiles of ``n0 op0 n1 op1 n2 ...``: ``render_expression((2, 3), "x")`` is ``2x3``."""
    parts: list[str] = []
    for number, operator in zip(numbers, [*operators, ""], strict=False):
        parts.append(f"{number}{operator}")
    return "".join(parts)


def tokenize(text: str) -> list[str]:
    """Split tiles into tokens: runs of digits, single operators and ``=``.

    >>> tokenize("70+118:2=129")
    ['70', '+', '118', ':', '2', '=', '129']

    Raises :class:`EquationError` for a character that is not a tile.
    """
    tokens: list[str] = []
    for char in text:
        if char not in TILES:
            raise EquationError(f"{char!r} is not a Summy tile", "eq_bad_tile", tile=char)
        if char in DIGITS and tokens and tokens[-1][-1] in DIGITS:
            tokens[-1] += char
        else:
            tokens.append(char)
    return tokens


def parse_equation(text: str) -> ParsedEquation:
    """Check that ``text`` is a well-formed equation (rule 6) and split it.

    Truth is not checked here (see :func:`check_equation`). Raises
    :class:`EquationError` naming the first thing that is wrong.
    """
    if not text:
        raise EquationError("an equation needs tiles", "eq_empty")
    tokens = tokenize(text)
    equals_count = tokens.count(EQUALS)
    if equals_count == 0:
        raise EquationError(
            f"{text} has no =: an equation needs exactly one =", "eq_no_equals", equation=text
        )
    if equals_count > 1:
        raise EquationError(
            f"{text} has {equals_count} = signs: an equation needs exactly one",
            "eq_many_equals",
            equation=text,
            count=equals_count,
        )
    if tokens[0] in OPERATORS or tokens[0] == EQUALS:
        raise EquationError(
            f"{text} starts with {tokens[0]}: it must start with a number",
            "eq_starts",
            equation=text,
            sign=tokens[0],
        )
    if tokens[-1] in OPERATORS or tokens[-1] == EQUALS:
        raise EquationError(
            f"{text} ends with {tokens[-1]}: it must end with a number",
            "eq_ends",
            equation=text,
            sign=tokens[-1],
        )
    for before, after in pairwise(tokens):
        if before[0] not in DIGITS and after[0] not in DIGITS:
            raise EquationError(
                f"{text} has {before}{after}: two signs side by side",
                "eq_two_signs",
                equation=text,
                signs=before + after,
            )
    split = tokens.index(EQUALS)
    left, right = tokens[:split], tokens[split + 1 :]
    if len(right) != 1:
        raise EquationError(
            f"{text}: after the = there must be one number and nothing else",
            "eq_right",
            equation=text,
        )
    if len(left) < 3:
        raise EquationError(
            f"{text}: before the = there must be two or more numbers with an operator between",
            "eq_left",
            equation=text,
        )
    for token in tokens:
        if len(token) > 1 and token[0] == "0":
            raise EquationError(f"{token} has a leading zero", "eq_leading_zero", number=token)
    return ParsedEquation(
        numbers=tuple(int(token) for token in left[::2]),
        operators=tuple(left[1::2]),
        result=int(right[0]),
    )


class DivisionByZero(Exception):
    """Raised inside :func:`_evaluate_terms` with the text of the term that divides by zero."""


def evaluate(numbers: tuple[int, ...], operators: tuple[str, ...]) -> Fraction | None:
    """The exact value of ``n0 op0 n1 ...``; ``None`` if it divides by zero.

    ``x`` and ``:`` bind tighter than ``+`` and ``-``; equal ranks go left to right.

    >>> evaluate((10, 4, 2), (":", "x"))
    Fraction(5, 1)
    >>> evaluate((1, 5, 6), ("-", "+"))
    Fraction(2, 1)
    >>> evaluate((5, 0), (":",)) is None
    True
    """
    try:
        return _evaluate_terms(numbers, operators)
    except DivisionByZero:
        return None


def _evaluate_terms(numbers: tuple[int, ...], operators: tuple[str, ...]) -> Fraction:
    """Evaluate, raising :class:`DivisionByZero` with the offending term's text."""
    total = Fraction(0)
    sign = 1
    term = Fraction(numbers[0])
    term_start = 0
    for index, operator in enumerate(operators):
        operand = numbers[index + 1]
        if operator == "x":
            term *= operand
        elif operator == ":":
            if operand == 0:
                term_text = render_expression(
                    numbers[term_start : index + 2], operators[term_start : index + 1]
                )
                raise DivisionByZero(term_text)
            term /= operand
        else:
            total += sign * term
            sign = 1 if operator == "+" else -1
            term = Fraction(operand)
            term_start = index + 1
    return total + sign * term


def format_value(value: Fraction) -> str:
    """A value as a person writes it: ``14``, ``-3``, ``3.5``, or ``1/3`` if it never ends.

    >>> [format_value(Fraction(7, 2)), format_value(Fraction(-1, 3)), format_value(Fraction(4))]
    ['3.5', '-1/3', '4']
    """
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    digits = 0
    while (value * 10**digits).denominator != 1:
        digits += 1
    # integer arithmetic, not float: a long number would be rounded
    sign = "-" if value < 0 else ""
    scaled = str(abs(value.numerator) * 10**digits // value.denominator).rjust(digits + 1, "0")
    return f"{sign}{scaled[:-digits]}.{scaled[-digits:]}"


def check_equation(text: str) -> ParsedEquation:
    """Check that ``text`` is a well-formed (rule 6) and true (rule 7) equation.

    Raises :class:`EquationError` with messages such as ``2+3x4 is 14, not 20``
    or ``5:0 divides by zero``.
    """
    parsed = parse_equation(text)
    try:
        value = _evaluate_terms(parsed.numbers, parsed.operators)
    except DivisionByZero as exc:
        raise EquationError(
            f"{exc.args[0]} divides by zero", "eq_div_zero", term=exc.args[0]
        ) from None
    if value != parsed.result:
        left, shown = parsed.left_text(), format_value(value)
        raise EquationError(
            f"{left} is {shown}, not {parsed.result}",
            "eq_false",
            left=left,
            value=shown,
            claimed=parsed.result,
        )
    return parsed


def explain(text: str) -> str | None:
    """Why ``text`` is not a well-formed, true equation; ``None`` if it is one."""
    try:
        check_equation(text)
    except EquationError as exc:
        return str(exc)
    return None


def is_true_equation(text: str) -> bool:
    """Whether ``text`` is a well-formed and true equation."""
    try:
        check_equation(text)
    except EquationError:
        return False
    return True
