"""Fill the empty cells of a line, from one starting cell, so that they make true equations.

A *pattern* is the text of a stretch of one line, from the first cell of a
candidate run to the furthest cell a run from there may reach, with ``?`` for
each empty cell (``"??5?=??"``); a *hand* is the player's tiles as a sorted
string. :func:`solve` returns every run starting at the pattern's first cell
that hand tiles can turn into a true equation (rules 6 and 7 of
``docs/rules-summy.md``), as ``(end, filling)``: the run is
``pattern[:end + 1]`` and ``filling`` holds one tile per ``?`` in it.

A run may end at ``end`` only if the next cell is empty (``?``) or outside the
pattern, and only if it holds one of the pattern's fixed (old) tiles (rule 4).

One depth-first search per pattern serves every run that starts there: it
builds the left side of the ``=`` one cell at a time, pruned by the grammar (no
leading zero, operators between numbers, digits at both ends) and evaluated
incrementally in exact integer fractions. Wherever the left side could stop
(the next cell is the old ``=`` or an empty cell and the hand holds an ``=``),
its value fixes the right side, a single number, hence where the run ends;
that run is kept if the right side's cells and the hand's remaining tiles
agree with the value's digits. Results are cached by ``(pattern, hand)``:
the same stretch of fixed tiles and gaps recurs across the table and calls.

Two shortcuts come first. A pattern holding one old digit or ``=`` and empty
cells takes its runs from :func:`~meeple.games.summy.movegen.digit.lone_tile_equations`,
one search per hand for all such stretches. A pattern with two blocks of old
tiles or more takes the runs that end before the second block from the
shorter pattern that stops there (solved and cached the same way), and
searches only for runs that reach the second block.

A caller that must not wait past some point searches with
:func:`solve_until` (see :mod:`meeple.games.summy.movegen.stop`).

>>> solve("?+?=??", "1128")
((4, '112'),)
>>> solve("???=?", "236x")
((4, '2x36'), (4, '3x26'))
"""

from __future__ import annotations

from functools import lru_cache

from meeple.games.summy.movegen.digit import lone_tile_equations
from meeple.games.summy.movegen.engine import Search, compiled_search, on_engine_change
from meeple.games.summy.movegen.stop import (
    STOP_EVERY,
    SearchStopped,
    Stop,
    current_stop,
    stopping_when,
)
from meeple.games.summy.movegen.terms import (
    DIGIT_VALUE,
    DIV,
    NEW_TERM,
    POW10,
    after_operator,
    term_with,
)
from meeple.games.summy.tiles import HAND_SIZE

HOLE = "?"


def solve_until(pattern: str, hand: str, stop: Stop | None) -> tuple[tuple[int, str], ...]:
    """:func:`solve`, asking ``stop`` as it searches; :class:`SearchStopped` once it says so.

    The answer is cached as :func:`solve`'s; a stopped search caches nothing.
    """
    if stop is None:
        return solve(pattern, hand)
    if stop():
        raise SearchStopped
    with stopping_when(stop):
        return solve(pattern, hand)


@lru_cache(maxsize=1 << 16)
def solve(pattern: str, hand: str) -> tuple[tuple[int, str], ...]:
    """Every true equation that fills a prefix of ``pattern`` from ``hand``: ``(end, filling)``.

    Sorted by ``end`` then ``filling``. ``hand`` must be sorted (it is a cache key).
    """
    compiled = _engine["search"]
    if compiled is not None:
        # The compiled core runs the plain search on every stretch (fast enough
        # not to need the shortcuts below); None: beyond its exact arithmetic.
        found = compiled(pattern, hand, -1)
        if found is not None:
            return found
    size = len(pattern)
    if not any(op in pattern or op in hand for op in "+-x:"):
        return ()  # A left side needs an operator.
    block = pattern.strip(HOLE)
    if block in DIGIT_VALUE and "=" not in hand:
        return ()  # One old digit and no "=".
    if len(block) == 1 and (block in DIGIT_VALUE or block == "=") and size >= 5 and hand:
        # One old digit or "=" amid empty cells: one search per hand serves every such stretch.
        lead = pattern.index(block)
        return tuple(
            (length - 1, filling)
            for length, filling in lone_tile_equations(hand).get(block, {}).get(lead, ())
            if length <= size and len(filling) <= HAND_SIZE
        )
    first_old = next((i for i, cell in enumerate(pattern) if cell != HOLE), size)
    if size < 5 or not hand or first_old == size:
        return ()
    gap = pattern.find(HOLE, first_old)
    second = next((i for i in range(gap, size) if pattern[i] != HOLE), -1) if gap > 0 else -1
    if second < 0:
        return _search(pattern, hand, first_old)
    # A run that ends before the second block of old tiles holds the first
    # block only: it lies in a shorter stretch (often one old tile, and
    # cached). The search proper looks only for runs that reach the second
    # block, which it prunes by the tiles needed to get there.
    return solve(pattern[: second - 1], hand) + _search(pattern, hand, second)


def _search(pattern: str, hand: str, min_end: int) -> tuple[tuple[int, str], ...]:
    """Every true equation in a prefix of ``pattern`` from ``hand`` that ends at ``min_end`` or on.

    The depth-first search of :func:`solve`; ``pattern`` holds an old tile
    at or before ``min_end``.
    """
    size = len(pattern)
    counts: dict[str, int] = {}
    for tile in hand:
        counts[tile] = counts.get(tile, 0) + 1
    if "=" not in pattern and "=" not in counts:
        return ()
    counts.setdefault("=", 0)
    max_tiles = min(HAND_SIZE, len(hand))
    need, need_without_equals = _tiles_needed(pattern, min_end, counts["="] > 0)
    loose = len(hand) - counts["="]
    limits = [10**length for length in _longest_right_sides(pattern, counts["="] > 0)]
    for tile in "+-:x0":
        counts.setdefault(tile, 0)
    # Whether a "-", ":", "x" or "0" is fixed at index >= i: they can still lower the value.
    minus_ahead = ["-" in pattern[i:] for i in range(size + 1)]
    divide_ahead = [":" in pattern[i:] for i in range(size + 1)]
    times_ahead = ["x" in pattern[i:] for i in range(size + 1)]
    zero_ahead = ["0" in pattern[i:] for i in range(size + 1)]
    plus_ahead = ["+" in pattern[i:] for i in range(size + 1)]
    operator_ahead = [any(op in pattern[i:] for op in "+-x:") for i in range(size + 1)]
    # Digits that may still go anywhere after cell i: the hand's, and the old ones ahead.
    digits_ahead = [sum(c in DIGIT_VALUE for c in pattern[i:]) for i in range(size + 1)]
    loose_digits = [sum(n for t, n in counts.items() if t in DIGIT_VALUE)]
    if need[0] > max_tiles:
        return ()
    # The most tiles the left side may hold before cell i and still leave enough.
    room = [min(max_tiles - n, loose - m) for n, m in zip(need, need_without_equals, strict=True)]
    digit_tiles = sorted((t, DIGIT_VALUE[t]) for t in counts if t in DIGIT_VALUE)
    op_tiles = sorted(t for t in counts if t in "+-x:")
    chosen: list[str] = []
    found: list[tuple[int, str]] = []
    stop = current_stop()
    steps = [0]

    def close(i: int, value: int) -> None:
        """Record the equation whose left side is ``pattern[:i]`` and worth ``value``."""
        text = str(value)
        end = i + len(text)
        if end >= size or end < min_end or (end + 1 < size and pattern[end + 1] != HOLE):
            return
        placed_equals = pattern[i] == HOLE
        if placed_equals:
            counts["="] -= 1
        tail: list[str] = []
        ok = True
        for cell, char in zip(pattern[i + 1 : end + 1], text, strict=True):
            if cell == HOLE:
                if counts.get(char, 0) == 0:
                    ok = False
                    break
                counts[char] -= 1
                tail.append(char)
            elif cell != char:
                ok = False
                break
        for char in tail:
            counts[char] += 1
        if placed_equals:
            counts["="] += 1
        if ok and 0 < len(chosen) + placed_equals + len(tail) <= max_tiles:
            found.append((end, "".join(chosen) + ("=" if placed_equals else "") + "".join(tail)))

    def extend(
        i: int,
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
        """Fill cell ``i``; ``num`` is the number being read (-1: none yet).

        The left side so far is worth ``sn/sd`` plus ``sign`` times the term
        ``tn/td``, which ``num`` joins by ``mulop``.
        """
        if len(chosen) > room[i]:
            return
        if stop is not None:
            steps[0] += 1
            if steps[0] % STOP_EVERY == 0 and stop():
                raise SearchStopped
        cell = pattern[i]
        last = i + 1 == size
        if cell != HOLE:
            if cell in DIGIT_VALUE:
                digit(i, DIGIT_VALUE[cell], num, lead0, sn, sd, tn, td, mulop, sign, has_op)
            elif cell != "=" and num >= 0 and not last:
                operator(i, cell, num, sn, sd, tn, td, mulop, sign)
            return
        if len(chosen) >= room[i + 1]:
            return  # A tile here puts the "=" at i + 1 or later: not enough tiles for that.
        if num < 0 or not lead0:
            for tile, value in digit_tiles:
                if counts[tile]:
                    counts[tile] -= 1
                    loose_digits[0] -= 1
                    chosen.append(tile)
                    digit(i, value, num, lead0, sn, sd, tn, td, mulop, sign, has_op)
                    chosen.pop()
                    loose_digits[0] += 1
                    counts[tile] += 1
        if num >= 0 and not last:
            for tile in op_tiles:
                if counts[tile]:
                    counts[tile] -= 1
                    chosen.append(tile)
                    operator(i, tile, num, sn, sd, tn, td, mulop, sign)
                    chosen.pop()
                    counts[tile] += 1

    def digit(
        i: int,
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
        """Read the digit ``value`` on cell ``i``; close the left side here if it can end."""
        if num < 0:
            num, lead0 = value, value == 0
        elif lead0:
            return
        else:
            num = num * 10 + value
        after = i + 1
        if sign > 0:
            # A lower bound of the final value (nothing after can lower the
            # committed part but a subtraction, nor the current term but a
            # division or a "x0") against the most the right side can hold:
            # any expression of d digits is below 10^d, and the right side and
            # what is subtracted share the digits left.
            digits = loose_digits[0] + digits_ahead[after]
            most = POW10[digits]
            low_n, low_d = sn, sd
            if mulop != DIV and not (
                (counts["x"] or times_ahead[after]) and (counts["0"] or zero_ahead[after])
            ):
                if mulop == NEW_TERM:
                    term_n, term_d = num, 1
                else:
                    term_n, term_d = tn * num, td
                if counts[":"] or divide_ahead[after]:
                    # Divisors (below 10^b) and the right side (below 10^r)
                    # share the digits, r + b <= d: from S + T/10^b < 10^r,
                    # S*10^b + T < 10^d, so S + T < 10^d if S >= 0.
                    if sn >= 0 and (sn * term_d + term_n * sd) >= most * sd * term_d:
                        return
                    term_d *= most
                low_n, low_d = sn * term_d + term_n * sd, sd * term_d
            limit = limits[after]
            bound = limit if limit < most else most
            if digits > 1 and (counts["-"] or minus_ahead[after]):
                share = most // 10
                bound = max(bound, (limit if limit < share else share) + share)
            if low_n >= bound * low_d:
                return
        elif mulop != DIV and not (
            (counts["x"] or times_ahead[after]) and (counts["0"] or zero_ahead[after])
        ):
            # The current term is subtracted and only grows (no division or
            # "x0" ahead): what follows adds less than 10^d (nothing without a
            # "+"), and the value must not end below 0.
            digits = loose_digits[0] + digits_ahead[after]
            if mulop == NEW_TERM:
                term_n, term_d = num, 1
            else:
                term_n, term_d = tn * num, td
            if counts[":"] or divide_ahead[after]:
                term_d *= POW10[digits]
            added = POW10[digits] if counts["+"] or plus_ahead[after] else 0
            if sn * term_d - term_n * sd + added * sd * term_d < 0:
                return
        if after == size:
            return
        if has_op and (pattern[after] == "=" or (pattern[after] == HOLE and counts["="])):
            term_n, term_d = term_with(num, tn, td, mulop)
            if term_d:
                total_n = sn * term_d + sign * term_n * sd
                total_d = sd * term_d
                if total_n >= 0 and total_n % total_d == 0:
                    close(after, total_n // total_d)
        if (
            mulop == DIV
            and 0 < tn < 10 * td * num
            and sn % sd == 0
            and not (operator_ahead[after] or counts["+"] or counts["-"])
            and not (counts["x"] or counts[":"])
        ):
            # The last term is a quotient and only digits can follow: a longer
            # divisor makes it a fraction strictly between 0 and 1, added to a
            # whole number: never a whole value.
            return
        extend(after, num, lead0, sn, sd, tn, td, mulop, sign, has_op)

    def operator(
        i: int, tile: str, num: int, sn: int, sd: int, tn: int, td: int, mulop: int, sign: int
    ) -> None:
        """Read the operator ``tile`` on cell ``i``, which ends the number ``num``."""
        left = after_operator(tile, num, sn, sd, tn, td, mulop, sign)
        if left is not None:
            extend(i + 1, -1, False, *left, True)

    extend(0, -1, False, 0, 1, 0, 1, NEW_TERM, 1, False)
    found.sort()
    return tuple(found)


def clear_caches() -> None:
    """Forget every cached search (for timing a cold start)."""
    solve.cache_clear()
    lone_tile_equations.cache_clear()


_engine: dict[str, Search | None] = {}
"""The compiled search while it is the engine in use (looked up once per engine change)."""


def _engine_changed() -> None:
    clear_caches()
    _engine["search"] = compiled_search()


on_engine_change(_engine_changed)
_engine_changed()


_NEVER = 1 << 10


def _longest_right_sides(pattern: str, hand_has_equals: bool) -> list[int]:
    """For each cell ``i``: the longest right side of an equation with its ``=`` at ``i`` or on."""
    size = len(pattern)
    longest = [0] * (size + 1)
    for j in range(size - 1, -1, -1):
        longest[j] = longest[j + 1]
        cell = pattern[j]
        if cell == "=" or (cell == HOLE and hand_has_equals):
            length = 0
            while j + length + 1 < size and (
                pattern[j + length + 1] == HOLE or pattern[j + length + 1] in DIGIT_VALUE
            ):
                length += 1
            longest[j] = max(longest[j], length)
    return longest


def _tiles_needed(
    pattern: str, first_old: int, hand_has_equals: bool
) -> tuple[list[int], list[int]]:
    """For each cell ``i``: the fewest hand tiles that finish an equation from there on.

    That is, over every place ``j >= i`` for the ``=`` (the old ``=``, or an
    empty cell if the hand holds one; never past an old ``=``) and the
    shortest right side after it that ends where a run may end: the empty
    cells in ``i..j`` plus those of that right side. ``_NEVER`` if none.
    Returned twice: counting the ``=`` put from the hand, and not counting it
    (the fewest digits and operators needed).
    """
    size = len(pattern)
    right_holes = [_NEVER] * size
    placed_equals = [0] * size
    for j, cell in enumerate(pattern):
        if cell != "=" and not (cell == HOLE and hand_has_equals):
            continue
        holes = 0
        for end in range(j + 1, size):
            if pattern[end] == HOLE:
                holes += 1
            elif pattern[end] not in DIGIT_VALUE:
                break
            if end >= first_old and (end + 1 == size or pattern[end + 1] == HOLE):
                right_holes[j] = holes
                placed_equals[j] = cell == HOLE
                break
    need = [_NEVER] * (size + 1)
    need_without_equals = [_NEVER] * (size + 1)
    for i in range(size - 1, -1, -1):
        cell = pattern[i]
        here = right_holes[i] + placed_equals[i]
        if cell == "=":
            need[i] = here
            need_without_equals[i] = right_holes[i]
        else:
            hole = cell == HOLE
            need[i] = min(here, need[i + 1] + hole)
            need_without_equals[i] = min(right_holes[i], need_without_equals[i + 1] + hole)
    return need, need_without_equals
