"""One strict reading of every JSON input, REST bodies and WebSocket messages alike.

Python's ``json`` module accepts more than JSON: ``NaN`` and ``Infinity``,
numbers that overflow to ``inf`` (``1e400``), integers of thousands of digits,
lone surrogates in strings (``"\\ud800"``, which no UTF-8 encoder can write
back) and nesting deep enough to exhaust the interpreter's stack. Each of
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
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class BadInput(ValueError):
    """An input that is not strict JSON, or is too deep; ``code`` is a stable word."""

    def __init__(self, message: str, code: str = "bad_json") -> None:
        super().__init__(message)
        self.code = code
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


def _no_lone_surrogates(value: Any) -> None:
    """Refuse strings (values or keys) holding a UTF-16 surrogate on its own."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
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
    if nesting_depth(text) > max_depth:
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
    _no_lone_surrogates(value)
    return value


def _is_json(content_type: str) -> bool:
    """Whether FastAPI would read a body of this type as JSON (it does when none is given)."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind in ("", "application/json") or kind.endswith("+json")


def _refusal(status: int, message: str, code: str) -> tuple[int, bytes]:
    return status, json.dumps({"detail": message, "code": code}).encode()


class StrictBodies:
    """ASGI middleware: a request body is at most ``max_bytes`` and, if JSON, strict JSON.

    The body is read here (stopping as soon as it is too long), checked with
    :func:`loads_strict`, then handed on unchanged, so a route never meets an
    input the WebSocket would have refused.
    """

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Check the body of an HTTP request, then pass the request on."""
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        body, refusal = await self._read(headers, receive)
        if refusal is None and body and _is_json(headers.get("content-type", "")):
            try:
                loads_strict(body)
            except BadInput as exc:
                refusal = _refusal(400, exc.message, exc.code)
        if refusal is not None:
            status, payload = refusal
            await send(
                {
                    "type": "http.response.start",
                    "status": status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(payload)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": payload})
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(
        self, headers: dict[str, str], receive: Any
    ) -> tuple[bytes, tuple[int, bytes] | None]:
        too_big = _refusal(413, f"a request body has at most {self.max_bytes} bytes", "too_big")
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            return b"", too_big
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"", _refusal(400, "the client went away", "disconnected")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                return b"", too_big
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), None


def _replay(body: bytes, receive: Any) -> Any:
    """A ``receive`` that gives the body already read once, then waits as the real one does."""
    sent = False

    async def replay() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
