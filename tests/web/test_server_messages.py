"""The server's socket messages are written from their models, byte for byte as clients expect."""

from __future__ import annotations

import json
import random

import pytest

from meeple.errors import Code
from meeple.games import get_game
from meeple.tables.core.log import SPECTATORS_ROOM, LogEvent, apply_action
from meeple.web.server_messages import (
    TABLE_MESSAGE,
    Ack,
    Event,
    Resume,
    action_ack_text,
    error_message,
    event_text,
    message_text,
)


def test_an_ack_carries_only_what_it_acknowledges() -> None:
    assert (
        message_text(Ack(type="ack", id="c1", version=4)) == '{"type":"ack","id":"c1","version":4}'
    )
    rematch = message_text(Ack(type="ack", id=None, rematch_id="t2"))
    assert json.loads(rematch) == {"type": "ack", "id": None, "rematch_id": "t2"}


@pytest.mark.parametrize("client_id", ["a1", None, "é🎲", "\ud800x", 'q"\\'])
@pytest.mark.parametrize("duplicate", [False, True])
def test_an_actions_ack_is_written_as_the_model_writes_it(
    client_id: str | None, duplicate: bool
) -> None:
    model = Ack(type="ack", id=client_id, version=7, duplicate=duplicate)
    assert action_ack_text(client_id, 7, duplicate) == message_text(model)


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


@pytest.mark.parametrize("name", ["slide", "summy"])
def test_an_event_written_straight_is_the_models_text(name: str) -> None:
    """The feed writes each ``event`` from plain values (no model on the hot path): for every
    move of a seeded game, to each seat and to spectators, the text is the one the
    :class:`Event` model writes, and it validates as a table message."""
    game = get_game(name)
    rng = random.Random(7)
    state = game.setup(game.default_options(2), 11)
    version = 0
    events = [LogEvent(1, "chat", None, {"text": "gl \ud800", "room": SPECTATORS_ROOM})]
    while game.result(state) is None and version < 40:
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        applied = apply_action(game, state, seat, game.action_json(action))
        state, version = applied.state, version + 1
        data = {"action": applied.action, "by": "player", "events": applied.events}
        events.append(LogEvent(version + 1, "action", seat, data, user_id=3, client_id="c"))
        for event in events[-2:]:
            for audience in (0, 1, None):
                kept = event.kept_from(audience, game_over=False)
                view = game.view(state, audience)
                to_act = sorted(game.to_act(state))
                deadlines = {"0": 12.5} if audience == 0 else {}
                text = event_text(event, kept, view, to_act, deadlines)
                model = Event.of(
                    event, kept, type="event", view=view, to_act=to_act, deadlines=deadlines
                )
                assert text == message_text(model)
                TABLE_MESSAGE.validate_python(json.loads(text))
                assert "action" not in json.loads(text)["data"]  # private data stays home
