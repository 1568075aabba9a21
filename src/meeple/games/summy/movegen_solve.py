"""Fill the holes of one candidate run with hand tiles so that it reads as a true equation.

A *pattern* is the text of a candidate run with ``?`` for each empty cell to be
filled (``"??5?=??"``); a *hand* is the player's tiles as a sorted string. The
solver returns every distinct *filling*: the tiles for the holes, in reading
order, such that the run is a well-formed true equation (rules 6 and 7 of
``shared/rules/summy.md``).

It enumerates only the left side of the ``=`` (the right side is a single
number, so it follows from the left side's value): depth first, one cell at a
time, pruned by the grammar (a number never has a leading zero, operators
alternate with numbers, the left side starts and ends with a digit), by the
digits the right side still needs, and evaluated incrementally in exact
integer fractions. Results are cached by ``(pattern, hand)``: the same
pattern of fixed tiles and gaps recurs across the table and across calls.

>>> solve("?+?=2", "1128")
('11',)
>>> solve("???=6", "123x")
('2x3', '3x2')
"""

from __future__ import annotations

from functools import lru_cache

_DIGIT_VALUE = {str(d): d for d in range(10)}
_MUL, _DIV = 1, 2
_MULOPS = {"x": _MUL, ":": _DIV}
HOLE = "?"


def _right_side_fillings(right: str, value: int, counts: dict[str, int]) -> str | None:
    """The tiles that complete the right side so it reads ``value``, or None if impossible."""
    text = str(value)
    if len(text) != len(right):
        return None
    taken: dict[str, int] = {}
    fill: list[str] = []
    for cell, char in zip(right, text, strict=True):
        if cell == HOLE:
            used = taken.get(char, 0) + 1
            if used > counts.get(char, 0):
                return None
            taken[char] = used
            fill.append(char)
        elif cell != char:
            return None
    return "".join(fill)


@lru_cache(maxsize=65536)
def solve(pattern: str, hand: str) -> tuple[str, ...]:
    """Every distinct filling of ``pattern``'s holes from ``hand`` making a true equation.

    Fillings are strings of one tile per hole, in reading order, sorted. ``hand``
    must be sorted (it is a cache key); it may hold more tiles than holes.
    """
    holes = pattern.count(HOLE)
    if holes == 0 or holes > len(hand) or len(pattern) < 5:
        return ()
    fixed_equals = pattern.count("=")
    if fixed_equals > 1:
        return ()
    counts: dict[str, int] = {}
    for tile in hand:
        counts[tile] = counts.get(tile, 0) + 1
    if fixed_equals == 1:
        equals_at = [pattern.index("=")]
    elif "=" in counts:
        equals_at = [i for i, cell in enumerate(pattern) if cell == HOLE]
    else:
        return ()
    found: list[str] = []
    for at in equals_at:
        if at < 3 or at > len(pattern) - 2:
            continue
        right = pattern[at + 1 :]
        if any(cell != HOLE and cell not in _DIGIT_VALUE for cell in right):
            continue
        if len(right) > 1 and right[0] == "0":
            continue
        equals_filled = pattern[at] == HOLE
        if equals_filled:
            counts["="] -= 1
        found.extend(_solve_split(pattern[:at], right, counts, "=" if equals_filled else ""))
        if equals_filled:
            counts["="] += 1
    found.sort()
    return tuple(found)


def _solve_split(left: str, right: str, counts: dict[str, int], middle: str) -> list[str]:
    """Fillings of a run split at its ``=``; ``middle`` is "=" when the ``=`` is placed."""
    right_holes = right.count(HOLE)
    digits_left = sum(n for tile, n in counts.items() if tile in _DIGIT_VALUE)
    if digits_left < right_holes:
        return []
    size = len(left)
    low = 0 if len(right) == 1 else 10 ** (len(right) - 1)
    high = 10 ** len(right)
    tiles = sorted(tile for tile, n in counts.items() if n > 0 and tile != "=")
    digit_tiles = [t for t in tiles if t in _DIGIT_VALUE]
    op_tiles = [t for t in tiles if t not in _DIGIT_VALUE]
    chosen: list[str] = []
    found: list[str] = []

    def finish(num: int, sn: int, sd: int, tn: int, td: int, mulop: int, sign: int) -> None:
        if mulop == 0:
            tn, td = num, 1
        elif mulop == _MUL:
            tn *= num
        elif num == 0:
            return
        else:
            td *= num
        total_n = sn * td + sign * tn * sd
        total_d = sd * td
        if total_n < 0 or total_n % total_d:
            return
        value = total_n // total_d
        if value < low or value >= high:
            return
        rest = _right_side_fillings(right, value, counts)
        if rest is not None:
            found.append("".join(chosen) + middle + rest)

    def place_digit(
        i: int, digit: int, num: int, lead0: bool, sn: int, sd: int, tn: int, td: int,
        mulop: int, sign: int, has_op: bool, digits: int,
    ) -> None:
        if num < 0:
            num, lead0 = digit, digit == 0
        elif lead0:
            return
        else:
            num = num * 10 + digit
        if i + 1 == size:
            if has_op:
                finish(num, sn, sd, tn, td, mulop, sign)
            return
        extend(i + 1, num, lead0, sn, sd, tn, td, mulop, sign, has_op, digits)

    def place_op(
        i: int, op: str, num: int, sn: int, sd: int, tn: int, td: int,
        mulop: int, sign: int, digits: int,
    ) -> None:
        if num < 0 or i + 1 == size:
            return
        if mulop == 0:
            tn, td = num, 1
        elif mulop == _MUL:
            tn *= num
        elif num == 0:
            return
        else:
            td *= num
        if op in _MULOPS:
            extend(i + 1, -1, False, sn, sd, tn, td, _MULOPS[op], sign, True, digits)
        else:
            sn, sd = sn * td + sign * tn * sd, sd * td
            extend(i + 1, -1, False, sn, sd, 0, 1, 0, 1 if op == "+" else -1, True, digits)

    def extend(
        i: int, num: int, lead0: bool, sn: int, sd: int, tn: int, td: int,
        mulop: int, sign: int, has_op: bool, digits: int,
    ) -> None:
        cell = left[i]
        if cell != HOLE:
            if cell in _DIGIT_VALUE:
                place_digit(
                    i, _DIGIT_VALUE[cell], num, lead0, sn, sd, tn, td, mulop, sign, has_op, digits
                )
            else:
                place_op(i, cell, num, sn, sd, tn, td, mulop, sign, digits)
            return
        if digits > right_holes and not (num >= 0 and lead0):
            for tile in digit_tiles:
                if counts[tile]:
                    counts[tile] -= 1
                    chosen.append(tile)
                    place_digit(
                        i, _DIGIT_VALUE[tile], num, lead0, sn, sd, tn, td, mulop, sign,
                        has_op, digits - 1,
                    )
                    chosen.pop()
                    counts[tile] += 1
        if num >= 0 and i + 1 < size:
            for tile in op_tiles:
                if counts[tile]:
                    counts[tile] -= 1
                    chosen.append(tile)
                    place_op(i, tile, num, sn, sd, tn, td, mulop, sign, digits)
                    chosen.pop()
                    counts[tile] += 1

    extend(0, -1, False, 0, 1, 0, 1, 0, 1, False, digits_left)
    return found
