"""Changes of a table go through one door (:class:`meeple.tables.cluster.writes.Writes`): run on the
owner, their outcomes acted on by the caller, never by the table calling up."""

from __future__ import annotations

import inspect
import json
import time
from typing import Any, get_type_hints

import pytest
from server_harness import LiveServer, require_redis

from meeple.tables.commands import COMMANDS
from meeple.tables.core.changes import TableChanges
from meeple.tables.core.outcomes import Outcome
from meeple.tables.core.table import TableContext


def test_a_table_holds_no_callback_into_the_manager() -> None:
    """What a change leaves its caller to do comes back as an outcome, and what it did goes
    out as facts on the hook (:mod:`meeple.tables.facts`), which names no feature; the context
    a table gets has nothing to call up with."""
    hooks = [f for f, kind in TableContext.__annotations__.items() if "Callable" in str(kind)]
    assert hooks == []
    taken = {}
    for name, method in inspect.getmembers(TableChanges, inspect.iscoroutinefunction):
        hints = get_type_hints(method)
        for kind in COMMANDS.values():
            if kind in hints.values():
                taken[kind] = name
                assert hints["return"].__args__[1] is Outcome, name
    assert set(taken) == set(COMMANDS.values())  # each command is a change of the table


@pytest.mark.postgres
@pytest.mark.redis
def test_a_call_forwarded_over_the_bus_runs_a_table_change_and_nothing_else(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """A call naming another method of the table (its unchecked writer) is refused and changes
    nothing; a forwarded change still runs (and its outcome reaches the lobby)."""
    import redis

    east, west = two_servers
    alice = east.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2)["table"]["id"]
    client = redis.Redis.from_url(require_redis())
    replies = client.pubsub()
    replies.subscribe("meeple:server:probe")
    assert replies.get_message(timeout=5)["type"] == "subscribe"

    def call(op: str, args: dict[str, Any]) -> dict[str, Any]:
        message = {"type": "call", "id": op, "from": "probe", "table": table_id, "op": op}
        client.publish(
            f"meeple:server:{east.services.tables.server_id}", json.dumps({**message, "args": args})
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            heard = replies.get_message(timeout=1)
            if heard and heard["type"] == "message":
                reply: dict[str, Any] = json.loads(heard["data"])
                if reply.get("id") == op:
                    return reply
        raise AssertionError(f"no reply to {op}")

    forged = call("write", {"kind": "close", "seat": None, "data": {"reason": "forged"}})
    assert forged["error"]["code"] == "unavailable"
    table = alice.get(f"/api/tables/{table_id}")["table"]
    assert (table["status"], table["version"]) == ("open", 1)
    bob = west.client("bob").guest()
    joined = call("join", {"user_id": bob["id"], "name": bob["name"], "seat": None})
    assert joined["result"] == 1
    lobby = west.client().get("/api/tables")
    assert [t["seats"][1]["name"] for t in lobby if t["id"] == table_id] == [bob["name"]]
    replies.close()
    client.close()
