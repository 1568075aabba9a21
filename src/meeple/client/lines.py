"""The lines of the two streams (docs/bot-api.md), as the server sends them.

A line is the JSON object itself, so nothing is lost when the server adds a field;
``type`` tells them apart. The account stream's lines are typed here (``TypedDict``s), so
a type checker knows the fields a bot reads. A game stream's lines are the table socket's
messages (hello, resume, event, watchers), which the server's models define once
(docs/protocol.md, their JSON Schema in docs/protocol.schema.json): :data:`GameLine`.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

JSONObject = dict[str, Any]
"""A JSON object as parsed (a view, a table, an action)."""


class UserRef(TypedDict):
    """An account named in a challenge."""

    id: int
    name: str
    bot: bool


# "from" is a Python keyword, so these two use TypedDict's functional form.
Challenge = TypedDict(
    "Challenge",
    {
        "id": str,
        "from": UserRef,
        "to": UserRef,
        "game": str,
        "options": JSONObject,
        "pace": str,
        "move_seconds": int,
        "rated": bool,
        "status": str,
        "reason": "str | None",
        "table_id": "str | None",
        "created_at": float,
        "expires_at": float,
    },
)
"""A challenge to or from the account (``status``: open, accepted, declined, cancelled,
lapsed; ``table_id`` once accepted)."""


class ChallengeLine(TypedDict):
    """A challenge received or sent (also on connecting, for each open one)."""

    type: Literal["challenge"]
    challenge: Challenge


class ChallengeCancelledLine(TypedDict):
    """The challenger took a challenge back, or it lapsed (``status`` says which)."""

    type: Literal["challenge_cancelled"]
    challenge: Challenge


class ChallengeDeclinedLine(TypedDict):
    """The challenged account declined (``challenge["reason"]`` says why)."""

    type: Literal["challenge_declined"]
    challenge: Challenge


class ChallengeAcceptedLine(TypedDict):
    """The challenged account accepted: ``challenge["table_id"]`` names the table."""

    type: Literal["challenge_accepted"]
    challenge: Challenge


class GameStartLine(TypedDict):
    """A game the account sits at has started (also on connecting, for each one not over)."""

    type: Literal["game_start"]
    table_id: str
    game: str
    seat: int


class GameFinishLine(TypedDict):
    """A game the account sat at is over."""

    type: Literal["game_finish"]
    table_id: str
    game: str
    seat: int


AccountEvent = (
    ChallengeLine
    | ChallengeCancelledLine
    | ChallengeDeclinedLine
    | ChallengeAcceptedLine
    | GameStartLine
    | GameFinishLine
)
"""A line of the account's event stream."""


GameLine = JSONObject
"""A line of a game stream: the table socket's message of its ``type`` (docs/protocol.md):
``hello`` (the table as the seat sees it), ``resume`` (the events after ``from`` follow),
``event`` (an action, a chat line, the finish…: ``version``, ``kind``, ``seat``, ``data``,
the seat's ``view`` after it, ``to_act``, ``deadlines``) or ``watchers``; a ``hello`` or
``event`` after which the seat must act carries its ``legal`` actions."""

ENDING_KINDS = frozenset({"finish", "close"})
"""The event kinds after which a table changes no more: a game stream ends there."""


class ActionResult(TypedDict):
    """The answer to an action: its event's version, and whether the id was already applied."""

    version: int
    duplicate: bool
