"""The one error type of the tables layer: a refusal with a code and a plain-words message."""

from __future__ import annotations

from collections.abc import Mapping

from meeple.games.base import JSON


class TableError(Exception):
    """A request the table refuses; nothing changed.

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
