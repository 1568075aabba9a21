"""The messages a client sends on a table's WebSocket, one strict pydantic model per kind.

A text frame is read with :func:`meeple.web.inputs.loads_strict`, then checked
against :data:`CLIENT_MESSAGE`: unknown keys, a wrong type (a ``true`` for an
integer, a number for a string) or a missing field are refused with
``bad_message``, an unknown ``type`` with ``unknown_type``. docs/protocol.md
describes each kind.

>>> read_message({"type": "sync", "since": 3})
Sync(id=None, type='sync', since=3)
>>> read_message({"type": "chat", "text": "hi", "colour": "red"})
Traceback (most recent call last):
...
meeple.errors.TableError: colour: Extra inputs are not permitted
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from meeple.errors import Code

CLIENT_ID_MAX = 64
"""The longest ``id`` a client may give a message (it is stored with an action)."""

ClientId = Annotated[str, Field(max_length=CLIENT_ID_MAX)]


class ClientMessage(BaseModel):
    """What every client message has: its ``type``, and the client's own ``id`` if any."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: ClientId | None = Field(None, description="the client's own id, echoed in the answer")


class Ping(ClientMessage):
    """Are you there? (answer: ``pong``)."""

    type: Literal["ping"]


class Sync(ClientMessage):
    """Resend the events after version ``since``."""

    type: Literal["sync"]
    since: int = Field(description="the last version the client has")


class Action(ClientMessage):
    """A game action (the game's JSON form), optionally naming the sender's seat."""

    type: Literal["action"]
    action: Any = Field(description="the game's action JSON")
    seat: int | None = Field(None, description="the sender's seat; refused if not theirs")


class Chat(ClientMessage):
    """A chat line."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=4000)]


class Rematch(ClientMessage):
    """Ask for a rematch once the game is over."""

    type: Literal["rematch"]


class Leave(ClientMessage):
    """Leave the table (a bot takes the seat during a game)."""

    type: Literal["leave"]


class Takeback(ClientMessage):
    """Take back my last move (no ``answer``), or answer the takeback asked of me."""

    type: Literal["takeback"]
    answer: Literal["accept", "decline"] | None = Field(
        None, description="accept or decline another player's ask; none: ask to take back mine"
    )


TableClientMessage = Ping | Sync | Action | Chat | Rematch | Leave | Takeback
"""Every message a table's client may send."""

AnyClientMessage = Annotated[TableClientMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[TableClientMessage] = TypeAdapter(AnyClientMessage)
"""Every message a table's client may send, told apart by ``type``."""


def echo_id(data: Any) -> str | None:
    """The ``id`` of a raw message, if it is one the server may send back (a short string)."""
    if isinstance(data, dict):
        value = data.get("id")
        if isinstance(value, str) and len(value) <= CLIENT_ID_MAX:
            return value
    return None


def read_message(data: Any) -> TableClientMessage:
    """The message in ``data`` (already strict JSON); ``bad_message`` or ``unknown_type``
    (:class:`~meeple.errors.TableError`) if it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Code.BAD_MESSAGE.error()
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        error = exc.errors(include_input=False, include_url=False)[0]
        if error["type"] == "union_tag_invalid":
            kind = data["type"]
            shown = kind if len(kind) <= 20 else kind[:20] + "..."
            raise Code.UNKNOWN_TYPE.error(type=shown) from None
        where = ".".join(str(part) for part in error["loc"][1:])
        text = f"{where}: {error['msg']}" if where else str(error["msg"])
        raise Code.BAD_MESSAGE.error(text) from None
