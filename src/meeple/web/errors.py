"""How the web layer answers a refusal from the layers below: the HTTP status of each family.

The layers below refuse with a :class:`~meeple.errors.TableError` (a code of
:class:`~meeple.errors.Code` and a sentence) and know nothing of HTTP; each code's
:class:`~meeple.errors.Family` picks the status here. The WebSocket sends the
code itself.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

from meeple.errors import Code, Family, MustWait, TableError

HTTP_STATUS: dict[Family, int] = {
    Family.AUTH: 401,
    Family.FORBIDDEN: 403,
    Family.NOT_FOUND: 404,
    Family.GONE: 410,
    Family.CONFLICT: 409,
    Family.INVALID: 422,
    Family.REQUEST: 400,
    Family.RULES: 400,
    Family.ILLEGAL: 400,
    Family.LIMIT: 429,
    Family.TOO_LARGE: 413,
    Family.UNAVAILABLE: 400,
    Family.SERVER: 500,
}
"""The status of each family: 401 who are you, 403 not yours, 404 none, 409 the state
forbids it, 410 a link gone, 422 a value refused, 429 wait, 413 too large, 500 a bug; the
request's shape, the table's and the game's rules, and a table's server not answering
are each a plain 400 (clients tell them apart by ``code``)."""


def code_status(code: Code) -> int:
    """The HTTP status a REST answer refusing with ``code`` carries."""
    return HTTP_STATUS[code.family]


def http_status(error: TableError) -> int:
    """The HTTP status a REST route answers ``error`` with."""
    return code_status(error.code)


def refusal_body(code: Code, detail: str | None = None) -> dict[str, str]:
    """The JSON body of a refusal answered outside the routes (a middleware's, a schema's):
    ``detail``, the code's English shape unless given, ``code`` and ``family``."""
    detail = code.sentence() if detail is None else detail
    return {"detail": detail, "code": code.value, "family": code.family.value}


async def table_error_answer(_request: Request, exc: TableError) -> JSONResponse:
    """The answer to a refusal raised in a route: its family's status, the code, family,
    reason and params, and ``Retry-After`` for one that asks the client to wait."""
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, MustWait) else None
    body: dict[str, object] = {
        "detail": exc.message,
        "code": exc.code,
        "family": exc.family,
        "reason": exc.reason,
        "params": exc.params,
    }
    if isinstance(exc, MustWait):
        body["retry_after"] = exc.retry_after
    return JSONResponse(body, status_code=http_status(exc), headers=headers)


def busy_answer(detail: str) -> JSONResponse:
    """503 ``unavailable``: the server cannot do this now (too busy); try again later."""
    return JSONResponse(refusal_body(Code.UNAVAILABLE, detail), status_code=503)
