"""The server's socket messages are written from their models, byte for byte as clients expect."""

from __future__ import annotations

import json

from meeple.errors import Code
from meeple.web.server_messages import (
    TABLE_MESSAGE,
    Ack,
    Event,
    Resume,
    error_message,
    message_text,
)


def test_an_ack_carries_only_what_it_acknowledges() -> None:
    assert (
        message_text(Ack(type="ack", id="c1", version=4)) == '{"type":"ack","id":"c1","version":4}'
    )
    rematch = message_text(Ack(type="ack", id=None, rematch_id="t2"))
    assert json.loads(rematch) == {"type": "ack", "id": None, "rematch_id": "t2"}


def test_a_message_uses_the_protocols_field_names() -> None:
    text = message_text(Resume.model_validate({"type": "resume", "from": 2, "to": 5}))
    assert text == '{"type":"resume","from":2,"to":5}'


def test_a_refusal_echoes_the_id_only_when_there_is_one() -> None:
    refusal = Code.NOT_YOUR_TURN.error(whose="your")
    plain = json.loads(message_text(error_message(refusal)))
    assert "id" not in plain and plain["code"] == "not_your_turn"
    assert json.loads(message_text(error_message(refusal, "x9")))["id"] == "x9"
    TABLE_MESSAGE.validate_python(plain)


def test_text_pydantic_refuses_to_write_is_still_sent_as_escapes() -> None:
    chat = Event(
        type="event",
        version=3,
        kind="chat",
        seat=None,
        data={"text": "\ud800é", "n": 10**30, "grid": {3: None}},
        view=None,
        to_act=[],
        deadlines={"0": 1.5},
    )
    text = message_text(chat)
    assert text.startswith('{"type":"event","version":3,"kind":"chat","seat":null,"data":')
    assert text.encode("utf-8")  # valid UTF-8 whatever the client sent
    assert json.loads(text)["data"] == {"text": "\ud800é", "n": 10**30, "grid": {"3": None}}
