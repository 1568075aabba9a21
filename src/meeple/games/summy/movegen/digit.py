"""Every true equation of hand tiles and one old digit, for all ten digits in one search.

The stretches that cost most are one old digit in an otherwise empty part
of a line (``"???3?????"``): the runs through it read ``L + digit + R`` with
``L`` and ``R`` from the hand. A table shows many of them, with different
digits and offsets, and searching each apart enumerates nearly the same left
sides again and again. :func:`lone_tile_equations` finds, once per hand, every
true equation that uses hand tiles and exactly one extra digit (the old
tile), for every value of that digit, filed by digit and by the digit's
offset in the equation.

One depth-first search builds the left side of the ``=`` from the hand's
tiles and at most once a *wildcard* digit ``W`` (the old tile), with the
grammar and the exact integer-fraction values of
:mod:`meeple.games.summy.movegen.solve`. ``W`` occurs at most once, so every
quantity is a linear function ``a + b*W`` of it, held as the one integer
``a + b * 2**128`` (sums and products by numbers free of ``W`` keep that
form). Where the hand's ``=`` can follow:

- if ``W`` is in the left side, the value is worked out for each digit
  ``0..9`` (a leading ``0`` and a division by zero are ruled out) and the
  hand must hold the right side's digits;
- if not, the old digit lies in the right side: any digit of the value's
  text whose others the hand holds.

>>> lone_tile_equations("1+=2")["3"]
{4: ((5, '1+2='), (5, '2+1='))}
"""

from __future__ import annotations

from functools import lru_cache

from meeple.games.summy.movegen.stop import STOP_EVERY, SearchStopped, current_stop
from meeple.games.summy.movegen.terms import (
    DIGIT_VALUE,
    DIV,
    NEW_TERM,
    POW10,
    after_operator,
    term_with,
)

_SHIFT = 128
_W = 1 << _SHIFT
"""The wildcard digit as a linear form: ``0 + 1*W``."""
_HALF = _W >> 1
WILDCARD = "W"
"""How the old digit shows in an equation's text while it is being searched."""


def _split(form: int) -> tuple[int, int]:
    """``(a, b)`` of the linear form ``a + b*W`` held as ``a + b * 2**128``."""
    b = (form + _HALF) >> _SHIFT
    return form - (b << _SHIFT), b


@lru_cache(maxsize=1 << 10)
def lone_tile_equations(hand: str) -> dict[str, dict[int, tuple[tuple[int, str], ...]]]:
    """Every true equation of tiles of ``hand`` and one extra digit: digit -> offset -> runs.

    For each digit and each offset of that (old) digit in the equation:
    ``(length, filling)`` pairs sorted by length then filling, where
    ``filling`` is the equation's text without that digit (the hand tiles in
    reading order). ``hand`` must be sorted (it is a cache key).
    """
    counts: dict[str, int] = {}
    for tile in hand:
        counts[tile] = counts.get(tile, 0) + 1
    # Without an "=" in the hand only the old "=" can make an equation: no wildcard.
    use_w = counts.get("=", 0) > 0
    for tile in "-:x0":
        counts.setdefault(tile, 0)
    tiles = [t for t in sorted(counts) if t != "="]
    digit_tiles = [(t, DIGIT_VALUE[t]) for t in tiles if t in DIGIT_VALUE]
    op_tiles = [t for t in tiles if t not in DIGIT_VALUE]
    loose_digits = [sum(n for t, n in counts.items() if t in DIGIT_VALUE)]
    chosen: list[str] = []
    found: dict[str, dict[int, list[tuple[int, str]]]] = {}
    # Where W is in ``chosen`` (-1: not yet), and whether it must not be 0 (it leads a number).
    wild = [-1, 0]
    stop = current_stop()
    steps = [0]

    def holds(text: str) -> bool:
        """Whether the hand (as it is now) holds every digit of ``text``."""
        return all(counts.get(char, 0) >= text.count(char) for char in set(text))

    def record(digit: str, offset: int, text: str) -> None:
        """File the equation ``text`` whose old digit ``digit`` is at ``offset``."""
        by_offset = found.setdefault(digit, {})
        by_offset.setdefault(offset, []).append((len(text), text[:offset] + text[offset + 1 :]))

    def close(total_n: int, total_d: int) -> None:
        """The hand's ``=`` follows the left side ``chosen``, worth ``total_n / total_d``."""
        loose = loose_digits[0]
        where = wild[0]
        if where < 0:
            if total_n < 0 or total_n % total_d:
                return
            right = str(total_n // total_d)
            if len(right) > loose + use_w:
                return
            left = "".join(chosen)
            if len(right) <= loose and holds(right):
                record("=", len(left), f"{left}={right}")  # The old tile is the "=".
            if use_w:
                for at, digit in enumerate(right):
                    if holds(right[:at] + right[at + 1 :]):
                        record(digit, len(left) + 1 + at, f"{left}={right}")
            return
        if not loose:
            return
        a, b = _split(total_n)
        c, d = _split(total_d)
        limit = POW10[loose]
        left = ""
        for w in range(wild[1], 10):
            den = c + d * w
            if den <= 0:
                continue  # Denominators are products of numbers: 0 here, a division by zero.
            value = a + b * w
            if value < 0 or value % den or value // den >= limit:
                continue
            right = str(value // den)
            if holds(right):
                left = left or "".join(chosen)
                digit = str(w)
                record(digit, where, f"{left[:where]}{digit}{left[where + 1 :]}={right}")

    def too_big(num: int, sn: int, sd: int, tn: int, td: int, mulop: int) -> bool:
        """Whether the left side is sure to exceed any right side the tiles left can write.

        Nothing after can lower the committed part but a subtraction, nor the
        current term but a division or a ``x0``; any expression of *d* digits
        is below 10^*d*. With ``W`` placed, every digit is checked.
        """
        free_w = wild[0] < 0
        digits = loose_digits[0] + (free_w and use_w)
        # With a subtraction the right side and what is subtracted share the
        # digits: their sum is still below 10^d.
        bound = POW10[digits]
        term_free = mulop != DIV and not (counts["x"] and (counts["0"] or (free_w and use_w)))
        lanes: list[tuple[int, int, int, int, int]]
        if free_w:
            lanes = [(sn, sd, tn, td, num)]
        else:
            # A form a + b*W is worth a + b*w at W = w: the form minus b*(2**128 - w).
            snb = (sn + _HALF) >> _SHIFT
            sdb = (sd + _HALF) >> _SHIFT
            tnb = (tn + _HALF) >> _SHIFT
            tdb = (td + _HALF) >> _SHIFT
            nub = (num + _HALF) >> _SHIFT
            first = wild[1]
            if first == 0 and (sd == sdb << _SHIFT or td == tdb << _SHIFT):
                first = 1  # W divides: 0 is no lane (division by zero).
            lanes = [
                (sn - snb * gap, sd - sdb * gap, tn - tnb * gap, td - tdb * gap, num - nub * gap)
                for gap in (_W - first, _W - 9)
            ]
        for s_n, s_d, t_n, t_d, n_v in lanes:
            low_n, low_d = s_n, s_d
            if term_free:
                term_n = n_v if mulop == NEW_TERM else t_n * n_v
                term_d = 1 if mulop == NEW_TERM else t_d
                if term_d <= 0:
                    return False
                if counts[":"]:
                    # Divisors and the right side share the digits: with
                    # S >= 0, S + T < 10^d (see solve.py), else T/10^d.
                    if s_n >= 0 and s_d > 0:
                        low_n, low_d = s_n * term_d + term_n * s_d, s_d * term_d
                        if low_n < bound * low_d:
                            return False
                        continue
                    term_d *= POW10[digits]
                low_n, low_d = s_n * term_d + term_n * s_d, s_d * term_d
            if low_d <= 0 or low_n < bound * low_d:
                return False
        return True

    def extend(
        num: int,
        lead0: bool,
        sn: int,
        sd: int,
        tn: int,
        td: int,
        mulop: int,
        sign: int,
        has_op: bool,
    ) -> None:
        """Add a tile (or ``W``) after ``chosen``; ``num`` is the number being read (-1: none).

        The left side so far is worth ``sn/sd`` plus ``sign`` times the term
        ``tn/td``, which ``num`` joins by ``mulop``.
        """
        if stop is not None:
            steps[0] += 1
            if steps[0] % STOP_EVERY == 0 and stop():
                raise SearchStopped
        # After a hand digit or an operator, the right side (and the number
        # after the operator) still needs digits: hand digits or a free W.
        free_w = use_w and wild[0] < 0
        enough = loose_digits[0] + free_w >= 2
        if num == -1 or not lead0:
            if enough:
                for tile, value in digit_tiles:
                    if counts[tile]:
                        counts[tile] -= 1
                        loose_digits[0] -= 1
                        chosen.append(tile)
                        digit(value, num, lead0, sn, sd, tn, td, mulop, sign, has_op)
                        chosen.pop()
                        loose_digits[0] += 1
                        counts[tile] += 1
            if free_w and loose_digits[0]:
                wild[0] = len(chosen)
                chosen.append(WILDCARD)
                digit(_W, num, lead0, sn, sd, tn, td, mulop, sign, has_op)
                chosen.pop()
                wild[0] = -1
        if num != -1 and enough:
            for tile in op_tiles:
                if counts[tile]:
                    counts[tile] -= 1
                    chosen.append(tile)
                    operator(tile, num, sn, sd, tn, td, mulop, sign)
                    chosen.pop()
                    counts[tile] += 1

    def digit(
        value: int,
        num: int,
        lead0: bool,
        sn: int,
        sd: int,
        tn: int,
        td: int,
        mulop: int,
        sign: int,
        has_op: bool,
    ) -> None:
        """Read a digit (``value``, or ``W``); close the left side here if it can end."""
        saved_nonzero = wild[1]
        if num == -1:
            num, lead0 = value, value == 0
        elif lead0:
            return
        else:
            if num == _W:
                wild[1] = 1  # W leads a number of two digits or more: it is not 0.
            num = num * 10 + value
        if sign < 0 or not too_big(num, sn, sd, tn, td, mulop):
            if has_op:
                term_n, term_d = term_with(num, tn, td, mulop)
                if term_d:
                    close(sn * term_d + sign * term_n * sd, sd * term_d)
            extend(num, lead0, sn, sd, tn, td, mulop, sign, has_op)
        wild[1] = saved_nonzero

    def operator(
        tile: str, num: int, sn: int, sd: int, tn: int, td: int, mulop: int, sign: int
    ) -> None:
        """Read the operator ``tile``, which ends the number ``num``."""
        left = after_operator(tile, num, sn, sd, tn, td, mulop, sign)
        if left is not None:
            extend(-1, False, *left, True)

    extend(-1, False, 0, 1, 0, 1, NEW_TERM, 1, False)
    return {
        digit: {offset: tuple(sorted(runs)) for offset, runs in by_offset.items()}
        for digit, by_offset in found.items()
    }
