"""One strict reading of every JSON input, REST bodies and WebSocket messages alike.

Python's ``json`` module accepts more than JSON: ``NaN`` and ``Infinity``,
numbers that overflow to ``inf`` (``1e400``), integers of thousands of digits,
lone surrogates in strings (``"\\ud800"``, which no UTF-8 encoder can write
back), NUL characters (which PostgreSQL cannot store) and nesting deep enough
to exhaust the interpreter's stack. Each of
those, once accepted, broke something later (a reply no browser parses, a 500
on every read of a table's history, a dropped connection). :func:`loads_strict`
refuses them all up front with a :class:`BadInput` naming the problem.

>>> loads_strict('{"a": [1, 2.5, "x"]}')
{'a': [1, 2.5, 'x']}
>>> loads_strict('{"a": NaN}')
Traceback (most recent call last):
...
meeple.web.inputs.BadInput: NaN and Infinity are not JSON numbers
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_DEPTH = 32
"""How deeply arrays and objects may nest in any input (the games need 4)."""

MAX_NUMBER_CHARS = 40
"""The longest number literal read (a 64-bit integer has 20 characters)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")


class BadInput(ValueError):
    """An input that is not strict JSON, or is too deep (refused as ``bad_json``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def nesting_depth(text: str) -> int:
    """How deeply brackets nest in ``text``, strings left out (no recursion, C-speed scans).

    >>> nesting_depth('[[1], {"a": "[[[["}]')
    2
    """
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise BadInput("NaN and Infinity are not JSON numbers")


def _finite_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise BadInput(f"a number has at most {MAX_NUMBER_CHARS} characters")
    value = float(text)
    if not math.isfinite(value):
        raise BadInput(f"the number {text} is too large")
    return value


def _short_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise BadInput(f"a number has at most {MAX_NUMBER_CHARS} characters")
    return int(text)


def _no_unstorable_characters(value: Any) -> None:
    """Refuse strings (values or keys) with a lone UTF-16 surrogate or a NUL character.

    Neither can be stored: UTF-8 has no surrogates, PostgreSQL's text no NUL.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _UNSTORABLE.search(item)
            if found and found.group() == "\x00":
                raise BadInput("a string holds a NUL character")
            if found:
                raise BadInput("a string holds a lone UTF-16 surrogate (not valid Unicode)")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def loads_strict(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value in ``text``; :class:`BadInput` for anything but strict, shallow JSON."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput("the body is not UTF-8 text") from exc
    # Counting brackets is a bound on the depth, and C-speed: most messages stop there.
    brackets = text.count("[") + text.count("{")
    if brackets > max_depth and nesting_depth(text) > max_depth:
        raise BadInput(f"JSON nests at most {max_depth} levels deep")
    try:
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            parse_int=_short_int,
        )
    except json.JSONDecodeError as exc:
        raise BadInput(f"not valid JSON: {exc.msg}") from None
    except RecursionError:  # the depth check makes this unreachable; stay safe anyway
        raise BadInput(f"JSON nests at most {max_depth} levels deep") from None
    _no_unstorable_characters(value)
    return value
