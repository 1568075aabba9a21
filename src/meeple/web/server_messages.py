"""What the server sends on its WebSockets, one pydantic model per message kind, and the
one wire model of a table event (:class:`EventOut`: the REST API's events, and the
socket's and game stream's ``event`` message with the seat's view).

The table socket sends :data:`TABLE_MESSAGE` (hello, event, resume, ack,
error, watchers, owner, pong), each built as its model here and written by
:func:`message_text`; the lobby socket :data:`LOBBY_MESSAGE` (lobby, table, gone). With
the client's messages (:mod:`meeple.web.protocol`) they make the protocol's
JSON Schema, kept in ``docs/protocol.schema.json``; a test regenerates it and
fails on any drift, and every message a test socket receives is checked
against these models. Regenerate the file with
``python -m meeple.web.server_messages > docs/protocol.schema.json``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Self, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_core import PydanticSerializationError

from meeple import jsontext
from meeple.errors import Family, TableError
from meeple.tables.facade import LogEvent
from meeple.web.protocol import CLIENT_MESSAGE, Chat, Leave, Ping, Rematch, Sync, Takeback
from meeple.web.protocol import Action as ActionIn
from meeple.web.schemas import TableSummary


class EventOut(BaseModel):
    """One table event as everyone may see it (docs/protocol.md lists the kinds)."""

    version: int
    kind: str
    seat: int | None
    data: dict[str, Any]

    @classmethod
    def of(cls, event: LogEvent, kept: bool = False, **audience: Any) -> Self:
        """``event`` on the wire: its public part (never its private data), with the fields
        a subclass adds for its audience (the socket's ``event``: the seat's view...);
        ``kept``: the audience is kept from its data (:meth:`LogEvent.kept_from`), which
        says only its ``room``."""
        data = {"room": event.data["room"]} if kept else event.public_data()
        return cls(version=event.version, kind=event.kind, seat=event.seat, data=data, **audience)


class ServerMessage(BaseModel):
    """Every message the server sends: extra keys would be a protocol change."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    type: str
    """The message's kind, its first field (each message names its one word)."""


class UserBrief(BaseModel):
    """Who the connection is signed in as."""

    id: int
    name: str
    guest: bool


class Hello(ServerMessage):
    """On connecting: the table now, the client's seat and view, the version."""

    type: Literal["hello"]
    version: int
    seat: int | None = Field(description="null: watching")
    user: UserBrief | None
    table: TableSummary
    view: Mapping[str, Any] | None = Field(description="the game's view for the seat; null before")
    invite_url: str | None = Field(description="only for the creator and seated players")


class Event(EventOut, ServerMessage):
    """One table event, with the client's view just after it."""

    # The event's own fields are the wire model's (EventOut, the REST API's event), after the
    # type: ServerMessage, the later base, gives its fields first.
    type: Literal["event"]
    view: Mapping[str, Any] | None
    to_act: list[int]
    deadlines: dict[str, float]


class Resume(ServerMessage):
    """The events after ``from`` follow, up to ``to``."""

    type: Literal["resume"]
    from_: int = Field(alias="from")
    to: int


class Ack(ServerMessage):
    """A client message was done: an action's or chat's version, or the rematch table."""

    type: Literal["ack"]
    id: str | None
    version: int | None = None
    duplicate: bool | None = Field(default=None, description="an action id already applied")
    rematch_id: str | None = None


class Error(ServerMessage):
    """A client message was refused; nothing changed and the connection stays."""

    type: Literal["error"]
    code: str
    family: Family = Field(description="the kind of refusal, to switch on (docs/bot-api.md)")
    message: str = Field(description="in English")
    reason: str = Field(description="the rule, for translations (the catalog key engine.REASON)")
    params: dict[str, Any] = Field(description="the blanks of the reason's sentence")
    id: str | None = None


class Watchers(ServerMessage):
    """Who is there now: spectators and connected players (sent when someone comes or goes)."""

    type: Literal["watchers"]
    spectators: int = Field(description="connections without a seat, on every server")
    present: list[int] = Field(description="seats whose players are connected, on every server")


class Owner(ServerMessage):
    """The table runs on another server, which answered this connection's last write:
    connecting there (with ``?since=``) saves a hop on every action. Optional to follow."""

    type: Literal["owner"]
    url: str = Field(
        description="the table's socket on its owner (ws:// or wss://, no query): add"
        " ?since=VERSION (and invite=) as when reconnecting"
    )


class Pong(ServerMessage):
    """The answer to a ping."""

    type: Literal["pong"]


class LobbyList(ServerMessage):
    """On connecting to the lobby: the open public tables."""

    type: Literal["lobby"]
    tables: list[TableSummary]


class LobbyTable(ServerMessage):
    """A public table opened or changed."""

    type: Literal["table"]
    table: TableSummary


class LobbyGone(ServerMessage):
    """A table left the lobby (it started, finished or closed)."""

    type: Literal["gone"]
    id: str
    status: str


TableMessage = Hello | Event | Resume | Ack | Error | Watchers | Owner | Pong
TABLE_MESSAGE: TypeAdapter[TableMessage] = TypeAdapter(
    Annotated[TableMessage, Field(discriminator="type")]
)
"""Every message of a table's socket, told apart by ``type``."""

LobbyMessage = LobbyList | LobbyTable | LobbyGone
LOBBY_MESSAGE: TypeAdapter[LobbyMessage] = TypeAdapter(
    Annotated[LobbyMessage, Field(discriminator="type")]
)
"""Every message of the lobby socket."""


def message_text(message: ServerMessage) -> str:
    """The JSON text a client receives for ``message``: its fields by their protocol names,
    the optional ones only when given (an ``ack`` carries only what it acknowledges).

    pydantic writes the JSON in one pass; what it refuses (a lone surrogate a client
    sent in a chat or an id) goes through :func:`meeple.jsontext.dumps`, as escapes.
    """
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True)
    except PydanticSerializationError:
        return jsontext.dumps(message.model_dump(by_alias=True, exclude_unset=True))


def event_text(
    event: LogEvent,
    kept: bool,
    view: Mapping[str, Any] | None,
    to_act: list[int],
    deadlines: dict[str, float],
) -> str:
    """The ``event`` message's JSON text, as :func:`message_text` writes an :class:`Event`
    (the same keys, in the same order), straight from plain values: every action makes one
    per seat and spectators, and building the model (validating the view) cost more than
    the rules' work. The tests check it against the model."""
    data = {"room": event.data["room"]} if kept else event.public_data()
    return jsontext.dumps(
        {
            "type": "event",
            "version": event.version,
            "kind": event.kind,
            "seat": event.seat,
            "data": data,
            "view": view,
            "to_act": to_act,
            "deadlines": deadlines,
        }
    )


def action_ack_text(client_id: str | None, version: int, duplicate: bool) -> str:
    """An action's ``ack`` as :func:`message_text` writes the :class:`Ack` (the same keys, in
    the same order), straight from its values: one per action, on the busiest path. The tests
    check it against the model."""
    return jsontext.dumps(
        {"type": "ack", "id": client_id, "version": version, "duplicate": duplicate}
    )


def error_message(refusal: TableError, client_id: str | None = None) -> Error:
    """The ``error`` message of a refusal, echoing the id of the message it refuses."""
    fields: dict[str, Any] = {"type": "error", **refusal.to_json()}
    if client_id is not None:
        fields["id"] = client_id
    return Error.model_validate(fields)


_LOBBY_TEXTS: dict[int, tuple[object, str]] = {}
"""The last few lobby messages written, by the identity of what they were written from."""

LOBBY_TEXTS_KEPT = 32
"""Lobby messages kept written: more than the lobby's news in flight to its sockets at once."""


def lobby_text(source: Any, message: Any) -> str:
    """The lobby ``message`` (its JSON) checked as :data:`LOBBY_MESSAGE` and written once for
    every lobby socket: ``source`` is the object all of them share (the bus delivers one
    news object to every subscription here; the lobby's list is cached for a second)."""
    written = _LOBBY_TEXTS.get(id(source))
    if written is not None and written[0] is source:
        return written[1]
    text = message_text(LOBBY_MESSAGE.validate_python(message))
    _LOBBY_TEXTS[id(source)] = (source, text)  # holding the source keeps its id unique
    if len(_LOBBY_TEXTS) > LOBBY_TEXTS_KEPT:
        del _LOBBY_TEXTS[next(iter(_LOBBY_TEXTS))]
    return text


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of the whole protocol: what clients send, what the server sends."""
    return {
        "title": "meeple WebSocket protocol (docs/protocol.md)",
        "client_to_table": CLIENT_MESSAGE.json_schema(),
        "table_to_client": TABLE_MESSAGE.json_schema(by_alias=True),
        "lobby_to_client": LOBBY_MESSAGE.json_schema(by_alias=True),
    }


def _field_table(model: type[BaseModel]) -> list[str]:
    schema = model.model_json_schema(by_alias=True)
    required = set(schema.get("required", ()))
    rows = []
    for name, spec in schema.get("properties", {}).items():
        if name == "type":
            continue
        kind = spec.get("type") or " or ".join(
            str(option.get("type", option.get("$ref", "?").rsplit("/", 1)[-1]))
            for option in spec.get("anyOf", [])
        )
        named = spec.get("$ref", "").rsplit("/", 1)[-1]
        choices = schema.get("$defs", {}).get(named, {}).get("enum")
        if choices:  # an enum: the words themselves say more than its class's name
            named = "one of " + ", ".join(f"`{choice}`" for choice in choices)
        kind = kind or named or "any JSON"
        where = "" if name in required else " (optional)"
        rows.append(f"| `{name}` | {kind}{where} | {spec.get('description', '')} |")
    return rows


def protocol_tables() -> str:
    """docs/protocol.md's tables of message fields, written from the models."""
    sections: list[tuple[str, list[type[BaseModel]]]] = [
        ("Client to table", [Ping, Sync, ActionIn, Chat, Rematch, Leave, Takeback]),
        ("Table to client", list(get_args(TableMessage))),
        ("Lobby to client", list(get_args(LobbyMessage))),
    ]
    lines: list[str] = []
    for title, models in sections:
        lines += [f"### {title}", ""]
        for model in models:
            kind = model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
            doc = (model.__doc__ or "").strip().splitlines()[0].replace("``", "`")
            lines += [f"`{kind}`: {doc}", ""]
            rows = _field_table(model)
            if rows:
                lines += ["| field | type | what |", "| --- | --- | --- |", *rows, ""]
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--markdown"]:
        print(protocol_tables(), end="")
    else:
        print(json.dumps(protocol_schema(), indent=2, sort_keys=True))
