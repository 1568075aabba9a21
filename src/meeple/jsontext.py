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
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (no spaces, non-ASCII characters as they are)."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode("utf-8")
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value, separators=(",", ":"))
