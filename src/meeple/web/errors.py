"""How the web layer answers a refusal from the layers below: the HTTP status of each code.

The tables layer refuses with a :class:`~meeple.tables.errors.TableError`
(a stable code and a sentence) and knows nothing of HTTP; a code not listed
here is a plain ``400``. The WebSocket sends the code itself.
"""

from __future__ import annotations

from meeple.tables.errors import TableError

HTTP_STATUS: dict[str, int] = {
    "not_seated": 403,
    "not_your_seat": 403,
    "not_creator": 403,
    "no_table": 404,
    "conflict": 409,
    "not_over": 409,
    "rate_limited": 429,
}
"""Codes answered with a status other than 400 (403 not yours, 404 none, 409 state, 429 wait)."""


def http_status(error: TableError) -> int:
    """The HTTP status a REST route answers ``error`` with."""
    return HTTP_STATUS.get(error.code, 400)
