"""The table WebSocket protocol over real connections: hello, events, acks, reconnects, refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_harness import LiveServer, Socket, brain, play_out, slide_pair
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from meeple.tables.core.log import LogEvent
from meeple.tables.core.table import VIEW_VERSIONS_KEPT
from meeple.web import feed, server_messages


def first_action(sock: Socket, seat: int) -> Any:
    """A legal action for ``seat`` from what its socket was sent."""
    assert sock.view is not None
    return brain("slide", 7)(sock.view, seat)


def test_hello_gives_own_view_and_version(server: LiveServer) -> None:
    alice, _bob, table_id = slide_pair(server)
    hello = alice.connect(table_id).recv()
    assert hello["type"] == "hello"
    assert hello["seat"] == 0
    assert hello["version"] == hello["table"]["version"] == 3  # create, join, start
    assert hello["view"]["seat"] == 0
    assert hello["invite_url"].startswith(f"/tables/{table_id}?invite=")
    assert "seed" not in json.dumps(hello)


def test_each_event_carries_the_next_version_and_the_receivers_view(server: LiveServer) -> None:
    alice, bob, table_id = slide_pair(server)
    a, b = alice.connect(table_id), bob.connect(table_id)
    a.recv(), b.recv()
    a.send({"type": "action", "id": "a1", "action": first_action(a, 0)})
    ack = a.recv_until(lambda m: m["type"] == "ack")
    event_b = b.recv_until(lambda m: m["type"] == "event")
    assert ack == {"type": "ack", "id": "a1", "version": 4, "duplicate": False}
    assert event_b["version"] == 4 and event_b["kind"] == "action" and event_b["seat"] == 0
    assert event_b["view"]["seat"] == 1
    assert "action" not in event_b["data"]  # a pending pick is secret
    assert event_b["view"]["my_pick"] is None


def test_same_client_id_twice_applies_once(server: LiveServer) -> None:
    alice, _bob, table_id = slide_pair(server)
    a = alice.connect(table_id)
    a.recv()
    action = first_action(a, 0)
    a.send({"type": "action", "id": "same", "action": action})
    first = a.recv_until(lambda m: m["type"] == "ack")
    a.send({"type": "action", "id": "same", "action": action})
    second = a.recv_until(lambda m: m["type"] == "ack")
    assert first["duplicate"] is False and second["duplicate"] is True
    assert first["version"] == second["version"] == 4
    a.drain(wait=0.2)
    assert alice.get(f"/api/tables/{table_id}")["table"]["version"] == 4


BAD_MESSAGES = [
    ("not json", "{nope", "bad_json"),
    ("json but not an object", "[1, 2]", "bad_message"),
    ("no type", json.dumps({"id": "x"}), "bad_message"),
    ("unknown type", json.dumps({"type": "dance"}), "unknown_type"),
    ("oversize", json.dumps({"type": "chat", "text": "x" * 20000}), "too_big"),
    ("action without action", json.dumps({"type": "action", "id": "q"}), "bad_message"),
    (
        "seat not an integer",
        json.dumps({"type": "action", "action": {}, "seat": "0"}),
        "bad_message",
    ),
    ("another seat", json.dumps({"type": "action", "seat": 1, "action": {}}), "not_your_seat"),
    ("malformed action", json.dumps({"type": "action", "action": {"type": "fly"}}), "illegal"),
    ("sync without since", json.dumps({"type": "sync"}), "bad_message"),
    ("chat without text", json.dumps({"type": "chat"}), "bad_message"),
    ("binary frame", b"\x00\x01", "bad_json"),
    ("deep nesting", '{"type":"action","action":' + "[" * 4000 + "]" * 4000 + "}", "bad_json"),
    ("NaN id", '{"type": "chat", "id": NaN, "text": "hi"}', "bad_json"),
    ("infinite number", '{"type": "sync", "since": 1e400}', "bad_json"),
    ("huge integer", '{"type": "sync", "since": ' + "9" * 5000 + "}", "bad_json"),
    ("lone surrogate", '{"type": "chat", "text": "x\\ud800y"}', "bad_json"),
    ("surrogate in a key", '{"type": "ping", "\\udfff": 1}', "bad_json"),
    ("unknown key in a message", json.dumps({"type": "ping", "junk": 1}), "bad_message"),
    ("id not a string", json.dumps({"type": "chat", "id": 7, "text": "hi"}), "bad_message"),
    ("id too long", json.dumps({"type": "chat", "id": "i" * 65, "text": "hi"}), "bad_message"),
    ("seat a boolean", json.dumps({"type": "action", "seat": True, "action": {}}), "bad_message"),
    (
        "unknown key in an action",
        json.dumps({"type": "action", "action": {"type": "take", "value": 1, "j": "J" * 15000}}),
        "illegal",
    ),
]


@pytest.mark.parametrize(("case", "raw", "code"), BAD_MESSAGES, ids=[c[0] for c in BAD_MESSAGES])
def test_bad_input_is_refused_and_the_connection_stays_usable(
    server: LiveServer, case: str, raw: str | bytes, code: str
) -> None:
    alice, _bob, table_id = slide_pair(server)
    a = alice.connect(table_id)
    a.recv()
    a.send(raw)
    error = a.recv_until(lambda m: m["type"] == "error")
    assert error["code"] == code, (case, error)
    assert error["message"]
    a.send({"type": "ping"})
    assert a.recv_until(lambda m: m["type"] in ("pong", "event"))["type"] == "pong"
    assert alice.get(f"/api/tables/{table_id}")["table"]["version"] == 3


def test_out_of_turn_and_illegal_actions_get_the_rule_and_change_nothing(
    server: LiveServer,
) -> None:
    alice, bob, table_id = slide_pair(server)
    a, b = alice.connect(table_id), bob.connect(table_id)
    a.recv(), b.recv()
    # Both reveal; then the draft has one player to move.
    for sock, seat in ((a, 0), (b, 1)):
        sock.send({"type": "action", "id": "r", "action": first_action(sock, seat)})
        sock.recv_until(lambda m: m["type"] == "ack")
    # The ack and the event come in either order (docs/protocol.md): wait for the version seen.
    a.wait_version(5)
    b.wait_version(5)
    waiting, seat = (b, 1) if 0 in a.to_act else (a, 0)
    assert seat not in waiting.to_act
    mover_seat = 1 - seat
    mover = a if mover_seat == 0 else b
    waiting.send({"type": "action", "id": "early", "action": first_action(mover, mover_seat)})
    error = waiting.recv_until(lambda m: m["type"] == "error")
    assert (error["code"], error["id"]) == ("not_your_turn", "early")
    mover.send(
        {"type": "action", "id": "bad", "action": {"type": "take", "card": 99, "from": "left"}}
    )
    refused = mover.recv_until(lambda m: m["type"] == "error")
    assert refused["code"] == "illegal" and refused["message"]
    assert alice.get(f"/api/tables/{table_id}")["table"]["version"] == 5


def test_spectator_sees_the_spectator_view_and_cannot_act(server: LiveServer) -> None:
    _alice, _bob, table_id = slide_pair(server)
    anonymous = server.client("anonymous")
    watcher = anonymous.connect(table_id)
    hello = watcher.recv()
    assert hello["seat"] is None and hello["view"]["seat"] is None
    assert hello["table"]["spectators"] == 1
    assert hello["invite_url"] is None
    watcher.send({"type": "action", "id": "w", "action": {}})
    assert watcher.recv_until(lambda m: m["type"] == "error")["code"] == "sign_in"
    guest = server.client("watching-guest")
    guest.guest()
    seated_watcher = guest.connect(table_id)
    seated_watcher.recv()
    seated_watcher.send({"type": "action", "id": "w", "action": {}})
    assert seated_watcher.recv_until(lambda m: m["type"] == "error")["code"] == "not_seated"


def test_reconnect_with_last_version_gets_exactly_what_was_missed(server: LiveServer) -> None:
    alice, bob, table_id = slide_pair(server)
    a, b = alice.connect(table_id), bob.connect(table_id)
    a.recv(), b.recv()
    seen = b.version
    b.close()
    play_out({0: a}, "slide", stop=lambda: a.version >= seen + 1)
    a.send({"type": "chat", "text": "are you there?"})
    chat_ack = a.recv_until(lambda m: m["type"] == "ack")
    a.wait_version(chat_ack["version"])
    again = bob.connect(table_id, since=seen)
    first = again.recv()
    assert first == {"type": "resume", "from": seen, "to": a.version}
    missed = [again.recv() for _ in range(a.version - seen)]
    assert [m["version"] for m in missed] == list(range(seen + 1, a.version + 1))
    assert all(m["view"]["seat"] == 1 for m in missed)
    assert missed[-1]["kind"] == "chat"
    # A version from the future, or none, gets a fresh hello instead.
    fresh = bob.connect(table_id, since=999).recv()
    assert fresh["type"] == "hello" and fresh["version"] == a.version


def test_views_of_old_versions_are_recomputed_the_same_and_only_recent_ones_kept(
    server: LiveServer,
) -> None:
    """The server keeps the views of the last few versions only (each is dozens of objects
    for the collector to walk); a client resuming from further back gets the same views."""
    alice, bob, table_id = slide_pair(server)
    a, b = alice.connect(table_id), bob.connect(table_id)
    a.recv(), b.recv()
    play_out({0: a, 1: b}, "slide", stop=lambda: a.version >= 12)
    b.wait_version(a.version)
    live = {m["version"]: m["view"] for m in b.messages if m["type"] == "event"}
    table = server.services.tables.tables[table_id]
    assert min(table._views) >= table.snap.version - VIEW_VERSIONS_KEPT + 1
    again = bob.connect(table_id, since=3)
    assert again.recv()["type"] == "resume"
    resent = {m["version"]: m["view"] for m in (again.recv() for _ in range(b.version - 3))}
    assert resent == {v: live[v] for v in resent} and len(resent) >= 9


def test_sync_message_resends_from_a_version(server: LiveServer) -> None:
    alice, _bob, table_id = slide_pair(server)
    a = alice.connect(table_id)
    a.recv()
    a.send({"type": "sync", "since": 1})
    assert a.recv() == {"type": "resume", "from": 1, "to": 3}
    assert [a.recv()["version"] for _ in range(2)] == [2, 3]


def test_a_page_on_another_site_cannot_use_a_players_cookie(server: LiveServer) -> None:
    alice, _bob, table_id = slide_pair(server)
    url = f"{server.ws_url}/ws/tables/{table_id}"
    headers = {"Cookie": alice.cookie_header(), "Origin": "https://evil.example"}
    with (
        connect(url, additional_headers=headers, legacy=True) as ws,
        pytest.raises(ConnectionClosed) as closed,
    ):
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    own = {"Cookie": alice.cookie_header(), "Origin": server.url}
    with connect(url, additional_headers=own, legacy=True) as ws:
        assert json.loads(ws.recv(timeout=10))["seat"] == 0


def test_an_illegal_action_names_its_rule_and_parameters(server: LiveServer) -> None:
    alice, _bob, table_id = slide_pair(server)
    a = alice.connect(table_id)
    a.recv()
    a.send({"type": "action", "id": "t", "action": {"type": "take", "value": 3, "side": "left"}})
    error = a.recv_until(lambda m: m.get("id") == "t")
    assert (error["code"], error["reason"], error["params"]) == ("illegal", "reveal_first", {})
    refused = alice.post(f"/api/tables/{table_id}/join", {"seat": 1}, expect=400)
    assert (refused["code"], refused["reason"], refused["params"]) == ("started", "started", {})
    carol = server.client("carol")
    carol.guest()
    open_table = carol.create_table(game="slide", seats=3)["table"]["id"]
    taken = alice.post(f"/api/tables/{open_table}/join", {"seat": 0}, expect=400)
    assert (taken["reason"], taken["params"]) == ("seat_taken", {"seat": 0})


def test_seated_players_see_spectators_come_and_go(server: LiveServer) -> None:
    alice, _bob, table_id = slide_pair(server)
    a = alice.connect(table_id)
    assert a.recv()["table"]["spectators"] == 0
    watcher = server.client("watcher").connect(table_id)
    assert watcher.recv()["table"]["spectators"] == 1
    news = a.recv_until(lambda m: m["type"] == "watchers")
    assert news == {"type": "watchers", "spectators": 1, "present": [0]}
    watcher.close()
    news = a.recv_until(lambda m: m["type"] == "watchers")
    assert news == {"type": "watchers", "spectators": 0, "present": [0]}


def test_players_see_each_other_come_and_go(server: LiveServer) -> None:
    alice, bob, table_id = slide_pair(server)
    a = alice.connect(table_id)
    hello = a.recv()
    assert hello["table"]["present"] == [0]
    b = bob.connect(table_id)
    assert b.recv()["table"]["present"] == [0, 1]
    assert a.recv_until(lambda m: m["type"] == "watchers")["present"] == [0, 1]
    assert alice.get(f"/api/tables/{table_id}")["table"]["present"] == [0, 1]
    b.close()
    news = a.recv_until(lambda m: m["type"] == "watchers")
    assert news == {"type": "watchers", "spectators": 0, "present": [0]}
    assert alice.get(f"/api/tables/{table_id}")["table"]["present"] == [0]


def test_an_answer_that_finds_the_socket_shut_is_the_client_leaving_not_a_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A client that leaves while its message is being answered (a player following the
    ``owner`` message with an action in flight) is not logged as a server failure."""
    import asyncio
    import logging
    from types import SimpleNamespace

    from starlette.websockets import WebSocketState

    from meeple.web.sockets import TableConnection

    class ShutSocket:
        """Starlette's socket once the client has gone: its next send refuses."""

        application_state = WebSocketState.CONNECTED

        async def receive(self) -> dict[str, Any]:
            return {"type": "websocket.receive", "text": '{"type": "ping"}'}

        async def send_text(self, text: str) -> None:
            self.application_state = WebSocketState.DISCONNECTED
            raise RuntimeError('Cannot call "send" once a close message has been sent.')

    services = SimpleNamespace(settings=SimpleNamespace(max_message_bytes=16384))
    table = SimpleNamespace(info=SimpleNamespace(id="t1"))
    connection = TableConnection(ShutSocket(), services, table, None, None)  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR), pytest.raises(RuntimeError):
        asyncio.run(connection.read())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_an_event_message_is_built_once_per_view_and_shared_by_its_connections(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ``event`` message (``server_messages.event_text``, the model's text) is written
    once per (version, seat): four spectators and two players of one table cost three
    messages, not six."""
    built: list[tuple[int, int | None]] = []
    write = server_messages.event_text

    def counted(event: LogEvent, kept: bool, view: Any, to_act: Any, deadlines: Any) -> str:
        built.append((event.version, view["seat"] if view else None))
        return write(event, kept, view, to_act, deadlines)

    monkeypatch.setattr(feed, "event_text", counted)
    alice, bob, table_id = slide_pair(server)
    a, b = alice.connect(table_id), bob.connect(table_id)
    watchers = [server.client(f"w{n}").connect(table_id) for n in range(4)]
    for sock in (a, b, *watchers):
        sock.recv()
    a.send({"type": "action", "id": "a1", "action": first_action(a, 0)})
    for sock in (b, *watchers):
        sock.wait_version(4)
    a.wait_version(4)
    texts = [m for w in watchers for m in w.messages if m["type"] == "event"]
    assert len(texts) == 4 and all(m == texts[0] for m in texts)
    assert sorted(built, key=str) == sorted([(4, 0), (4, 1), (4, None)], key=str)
