"""The server's one refusal type: a stable code and a plain-words message.

It sits below every layer that refuses (the rate limits, the tables, the web
routes), so each of them raises the same type and the web layer answers all of
them one way. :mod:`meeple.tables.errors` is its name in the tables layer.
"""

from __future__ import annotations

from collections.abc import Mapping

from meeple.games.base import JSON


class TableError(Exception):
    """A request refused (by a table, a rate limit, a route); nothing changed.

    ``code`` is a stable machine-readable word (``"illegal"``, ``"not_your_turn"``,
    ``"seat_taken"`` ...); ``message`` says what is wrong in plain English, for
    an illegal action the engine's own message. ``reason`` names the exact rule
    for translations (the engine's refusal code for ``illegal``, else the code
    itself) and ``params`` fill its blanks. The web layer picks the HTTP status
    from the code (:data:`meeple.web.errors.HTTP_STATUS`).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        reason: str | None = None,
        params: Mapping[str, JSON] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason or code
        self.params: dict[str, JSON] = dict(params or {})

    def to_json(self) -> dict[str, JSON]:
        """The refusal as clients get it: code, English message, reason and params."""
        return {
            "code": self.code,
            "message": self.message,
            "reason": self.reason,
            "params": self.params,
        }
