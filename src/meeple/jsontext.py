r"""Compact JSON text, fast: every table event is encoded once per connection and once
for the store, so the encoder is on the server's hot path.

orjson writes the same JSON as ``json.dumps(value, separators=(",", ":"),
ensure_ascii=False)`` several times faster; the standard library still writes
what orjson refuses (integers beyond 64 bits, which a client may send as its
message id, or a lone surrogate), with non-ASCII characters escaped so the text
is always valid UTF-8.

>>> dumps({"a": [1, 2.5, "é"], 3: None})
'{"a":[1,2.5,"é"],"3":null}'
>>> dumps({"id": 10**30, "text": "\ud800é"})
'{"id":1000000000000000000000000000000,"text":"\\ud800\\u00e9"}'

Between servers (the bus), :func:`encode` and :func:`decode` carry a value exactly
and decode with orjson too, which would read an integer beyond 64 bits as a float:
what the standard library wrote starts with a space, and only that is read by it.

>>> decode(encode({"id": 10**30, "n": 2**63, "x": [0.1, "é"]}))
{'id': 1000000000000000000000000000000, 'n': 9223372036854775808, 'x': [0.1, 'é']}

What the store hands back is read by :func:`loads`, exactly, whoever wrote it:

>>> loads('{"seed": -9999999999999999999, "n": 12, "s": "\\ud800"}')
{'seed': -9999999999999999999, 'n': 12, 's': '\ud800'}
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS
_LONG_DIGITS = re.compile(r"\d{19}")
"""19 digits in a row: maybe an integer outside orjson's range, which it would read as a float."""


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (no spaces, non-ASCII characters as they are)."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode("utf-8")
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value, separators=(",", ":"))


def encode(value: Any) -> bytes:
    """``value`` as compact JSON bytes that :func:`decode` reads back exactly."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        # The leading space (valid JSON) tells decode to use the standard library.
        return b" " + json.dumps(value, separators=(",", ":")).encode("ascii")


def decode(data: bytes | str) -> Any:
    """The value that :func:`encode` wrote, exactly.

    Other JSON text reads too, but an integer beyond 64 bits in it only as a float.
    """
    if data[:1] in (b" ", " "):
        return json.loads(data)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)  # what orjson refuses (a lone surrogate escaped)


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    """Any JSON text, read exactly (as :func:`json.loads` would), by orjson where it can.

    The store's JSON columns are read with it: folding a table's log reads every
    event's data, so decoding is on the path of every take-over of a dead server's
    tables.
    """
    if not isinstance(text, str):  # a driver may hand over any buffer
        text = bytes(text).decode("utf-8")
    if _LONG_DIGITS.search(text):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
