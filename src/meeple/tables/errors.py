"""The one error type of the tables layer: a refusal with a code and a plain-words message."""

from __future__ import annotations


class TableError(Exception):
    """A request the table refuses; nothing changed.

    ``code`` is a stable machine-readable word (``"illegal"``, ``"not_your_turn"``,
    ``"seat_taken"`` ...); ``message`` says what is wrong in plain words, for
    an illegal action the engine's own message. The web layer picks the HTTP
    status from the code (:data:`meeple.web.errors.HTTP_STATUS`).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
