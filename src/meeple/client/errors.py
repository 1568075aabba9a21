"""The one exception family of :mod:`meeple.client`: a refusal carries the server's ``code``.

Like python-chess's errors, there is a class per broad kind, so a caller can
catch what it can act on (``except RateLimited``, ``except NotYourTurn``…)
and read the exact code on any of them. Every error the server answers is
JSON ``{"detail": …, "code": …}`` (docs/bot-api.md); :func:`error_from_response`
turns it into the matching class.
"""

from __future__ import annotations

from typing import Any

import httpx


class MeepleError(Exception):
    """Anything :class:`~meeple.client.MeepleClient` raises.

    ``code`` is the server's stable code (``bad_token``, ``illegal``…), or
    ``transport`` when no answer came; ``status`` the HTTP status (0 without
    an answer); ``detail`` the server's sentence.
    """

    def __init__(
        self, detail: str, code: str, status: int = 0, body: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.detail = detail
        self.code = code
        self.status = status
        self.body: dict[str, Any] = body or {}

    @property
    def family(self) -> str:
        """The server's kind of refusal (``rules``, ``limit``…: docs/bot-api.md), or ``""``
        when the answer named none (no answer came)."""
        value = self.body.get("family")
        return value if isinstance(value, str) else ""


class TransportError(MeepleError):
    """The server could not be reached, or the connection dropped before an answer."""


class AuthError(MeepleError):
    """401: the token is unknown, malformed or revoked (``bad_token``)."""


class ForbiddenError(MeepleError):
    """403: the token lacks a scope (``token_scope``), or the seat or table is not the account's."""


class NotFoundError(MeepleError):
    """404: no such table, challenge or player (``no_table``, ``no_challenge``…)."""


class ConflictError(MeepleError):
    """409: the state forbids it now (``challenge_closed``, ``has_played``, ``not_over``…)."""


class RateLimited(MeepleError):
    """429: too many requests or streams; ``retry_after`` is the wait in seconds."""

    @property
    def retry_after(self) -> float:
        """Seconds to wait before asking again (1 when the server named none)."""
        value = self.body.get("retry_after")
        return float(value) if isinstance(value, int | float) else 1.0


class GameError(MeepleError):
    """400/422: the request was refused by the table's rules (``not_your_turn``, ``illegal``…)
    or its body was malformed."""


class ServerError(MeepleError):
    """5xx: the server failed; trying again later may work."""


_BY_STATUS: dict[int, type[MeepleError]] = {
    401: AuthError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimited,
}


def error_class(status: int) -> type[MeepleError]:
    """The class of a refusal with HTTP ``status``."""
    if status >= 500:
        return ServerError
    return _BY_STATUS.get(status, GameError)


def error_from_response(response: httpx.Response) -> MeepleError:
    """The error a refused ``response`` stands for, with its code and sentence.

    The body must have been read (``await response.aread()`` for a stream).
    """
    body: dict[str, Any] = {}
    try:
        parsed = response.json()
        if isinstance(parsed, dict):
            body = parsed
    except ValueError:
        pass
    detail = body.get("detail")
    if not isinstance(detail, str):
        detail = response.reason_phrase if detail is None else str(detail)
    code = body.get("code")
    if not isinstance(code, str):
        code = f"http_{response.status_code}"
    if response.status_code == 429 and "retry_after" not in body:
        header = response.headers.get("Retry-After", "")
        if header.isdigit():
            body["retry_after"] = int(header)
    return error_class(response.status_code)(detail, code, response.status_code, body)
