"""The left side's arithmetic that both searches of the move generator share.

:mod:`.solve` and :mod:`.digit` read the left side of the ``=`` from left to
right in exact integer fractions: what is committed so far is worth
``sn/sd``, plus ``sign`` (1 or -1) times the open term ``tn/td``, which the
number being read joins by ``mulop`` (a new term, a product or a quotient).
In :mod:`.digit` these integers may be linear forms in the wildcard digit;
the steps below only add and multiply them, which keeps that form.

>>> term_with(5, 3, 2, MUL)
(15, 2)
>>> after_operator("+", 4, 1, 1, 3, 1, MUL, 1)
(13, 1, 0, 1, 0, 1)
"""

from __future__ import annotations

DIGIT_VALUE = {str(d): d for d in range(10)}
"""Each digit tile's value."""

NEW_TERM, MUL, DIV = 0, 1, 2
"""How the number being read joins the open term: it starts one, multiplies it, divides it."""

POW10 = [10**k for k in range(64)]
"""``POW10[k]`` is ``10**k``."""


def term_with(num: int, tn: int, td: int, mulop: int) -> tuple[int, int]:
    """The open term ``tn/td`` once the number ``num`` joins it by ``mulop``, as
    ``(numerator, denominator)`` (the denominator is 0 after a division by 0)."""
    if mulop == NEW_TERM:
        return num, 1
    if mulop == MUL:
        return tn * num, td
    return tn, td * num


def after_operator(
    tile: str, num: int, sn: int, sd: int, tn: int, td: int, mulop: int, sign: int
) -> tuple[int, int, int, int, int, int] | None:
    """The left side ``(sn, sd, tn, td, mulop, sign)`` after the operator ``tile`` ends the
    number ``num``; ``None`` if that number divides by 0."""
    tn, td = term_with(num, tn, td, mulop)
    if not td:
        return None
    if tile == "x":
        return sn, sd, tn, td, MUL, sign
    if tile == ":":
        return sn, sd, tn, td, DIV, sign
    return sn * td + sign * tn * sd, sd * td, 0, 1, NEW_TERM, 1 if tile == "+" else -1
