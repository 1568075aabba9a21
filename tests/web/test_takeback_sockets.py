"""A takeback between two people over their table sockets (docs/protocol.md, "takeback"): the
ask, a decline, an ask that lapses at the next move, an accept over REST (the Bot API's way),
and the refusals of each step."""

from __future__ import annotations

import itertools
from typing import Any

from server_harness import LiveServer, Socket, brain

IDS = itertools.count()


def send(sock: Socket, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` with a fresh id; its ack or error."""
    message = {**message, "id": f"m{next(IDS)}"}
    sock.send(message)
    return sock.recv_until(lambda m: m.get("id") == message["id"])


def move(sock: Socket) -> int:
    """The socket's seat plays a random legal move; the version of its event."""
    assert sock.seat is not None and sock.seat in sock.to_act, (sock.seat, sock.to_act)
    action = brain("summy", 100 + sock.version)(sock.view, sock.seat)  # type: ignore[arg-type]
    ack = send(sock, {"type": "action", "action": action})
    assert ack["type"] == "ack", ack
    version: int = ack["version"]
    sock.wait_version(version)
    return version


def refused(sock: Socket, answer: str | None = None) -> str:
    """The code of a refused ``takeback``."""
    message: dict[str, Any] = {"type": "takeback"}
    if answer:
        message["answer"] = answer
    reply = send(sock, message)
    assert reply["type"] == "error", reply
    code: str = reply["code"]
    return code


def test_a_takeback_between_people_is_asked_answered_and_lapses(server: LiveServer) -> None:
    alice, bob, carol = server.client("alice"), server.client("bob"), server.client("carol")
    for client in (alice, bob, carol):
        client.guest()
    table_id = alice.create_table(game="summy", seats=2, move_seconds=60)["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", {})
    alice.post(f"/api/tables/{table_id}/start")
    socks = {0: alice.connect(table_id), 1: bob.connect(table_id)}
    watcher = carol.connect(table_id)
    for sock in (*socks.values(), watcher):
        sock.recv_until(lambda m: m["type"] == "hello")
    first = socks[0].to_act[0]
    p, q = socks[first], socks[1 - first]
    clients = {first: alice if first == 0 else bob, 1 - first: bob if first == 0 else alice}

    def sync(version: int = 0) -> None:
        for sock in (p, q, watcher):
            sock.wait_version(max(version, p.version, q.version))

    assert refused(p) == "takeback_none"
    move(p)
    sync()
    ask = send(p, {"type": "takeback"})
    asked = q.recv_until(lambda m: m.get("kind") == "takeback_ask")
    assert ask["version"] == asked["version"] and asked["seat"] == first
    assert asked["data"] == {"count": 1, "waiting": [1 - first]}
    watcher.wait_version(asked["version"])
    summary = carol.get(f"/api/tables/{table_id}")["table"]["takeback"]
    assert summary == {
        "allowed": True,
        "asked": {"seat": first, "count": 1, "waiting": [1 - first]},
    }
    assert refused(p) == "takeback_asked"
    assert refused(p, "accept") == "takeback_no_ask"  # nobody asks it of the asker
    assert refused(watcher, "accept") == "not_seated"

    declined = send(q, {"type": "takeback", "answer": "decline"})
    sync(declined["version"])
    events = [m for m in p.messages if m["type"] == "event"]
    assert declined["type"] == "ack" and events[-1]["kind"] == "takeback_decline"
    assert refused(p) == "takeback_declined"
    assert carol.get(f"/api/tables/{table_id}")["table"]["takeback"]["asked"] is None

    move(q)  # now p's move is not the last: only q may ask, and q's ask lapses at p's move
    sync()
    assert refused(p) == "takeback_not_yours"
    sync(send(q, {"type": "takeback"})["version"])
    move(p)
    sync()
    assert carol.get(f"/api/tables/{table_id}")["table"]["takeback"]["asked"] is None
    assert refused(p, "accept") == "takeback_no_ask"

    move(q)
    sync()
    before, mark = p.view, p.version
    move(p)
    sync()
    server.advance(30)
    sync(send(p, {"type": "takeback"})["version"])
    answer = clients[1 - first].post(f"/api/tables/{table_id}/takeback", {"answer": "accept"})
    taken = p.recv_until(lambda m: m.get("kind") == "takeback")
    assert answer == {"version": taken["version"], "duplicate": False}
    kinds = [m["kind"] for m in p.messages if m.get("type") == "event" and m["version"] > mark]
    assert kinds == ["action", "takeback_ask", "takeback_accept", "takeback"]
    assert (taken["seat"], taken["data"]) == (first, {"count": 1})
    assert taken["view"] == before and taken["to_act"] == [first]
    assert taken["deadlines"] == {str(first): server.clock.now() + 60}
    q.wait_version(taken["version"])
    assert q.to_act == [first] and q.view is not None and q.view["seat"] == 1 - first
    assert refused(q, "decline") == "takeback_no_ask"
    for sock in (p, q, watcher):
        assert all(m["type"] != "error" or m["code"].startswith(("takeback", "not_seated"))
                   for m in sock.messages)  # fmt: skip
