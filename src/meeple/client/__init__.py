"""The Python SDK of the Bot API: a program plays on a meeple server with a token.

:class:`MeepleClient` has a method for every route of docs/bot-api.md; the
stream lines are typed in :mod:`meeple.client.lines`; every refusal is a
:class:`MeepleError` subclass carrying the server's ``code``. The bridge
``meeple bot run`` (:mod:`meeple.cli.bot`) runs any :class:`meeple.games.kit.bots.Bot`
through it. This package imports only httpx, the standard library and the
pure layers (``meeple.games``, ``meeple.bots``), never the server.
"""

from __future__ import annotations

from meeple.client.client import DECLINE_REASONS, MeepleClient, new_action_id
from meeple.client.errors import (
    AuthError,
    ConflictError,
    ForbiddenError,
    GameError,
    MeepleError,
    NotFoundError,
    RateLimited,
    ServerError,
    TransportError,
)
from meeple.client.lines import (
    AccountEvent,
    ActionResult,
    Challenge,
    GameLine,
)
from meeple.client.streams import Backoff, EventStream, GameStream

__all__ = [
    "DECLINE_REASONS",
    "AccountEvent",
    "ActionResult",
    "AuthError",
    "Backoff",
    "Challenge",
    "ConflictError",
    "EventStream",
    "ForbiddenError",
    "GameError",
    "GameLine",
    "GameStream",
    "MeepleClient",
    "MeepleError",
    "NotFoundError",
    "RateLimited",
    "ServerError",
    "TransportError",
    "new_action_id",
]
