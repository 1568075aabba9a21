"""Telling a client where its table's owner is: a server that forwarded a client's write to
the table's owner, and heard back, gives the client the owner's socket (the owner's
``public_url``); connected there, the client's actions are no longer forwarded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import (
    Client,
    LiveServer,
    Socket,
    brain,
    free_port,
    make_settings,
    play_out,
    require_redis,
    start_server,
)

from meeple.tables.commands import Act, Command

LEASE_S = 10.0


@pytest.fixture
def east_with_address_and_west_without(
    tmp_path: Path, pg_url: str
) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers sharing PostgreSQL and Redis: east has a ``public_url``, west has none.
    Leases of 10 s: no take-over is tested here, and on a loaded machine a 2 s lease once
    went unrenewed, so the table changed owner under the test."""
    redis_url = require_redis()
    port = free_port()
    east_settings = make_settings(
        tmp_path / "a",
        pg_url,
        redis=redis_url,
        public_url=f"http://127.0.0.1:{port}/",
        lease_s=LEASE_S,
    )
    east = start_server(east_settings, port=port)
    west = start_server(make_settings(tmp_path / "b", pg_url, redis=redis_url, lease_s=LEASE_S))
    try:
        yield east, west
    finally:
        east.stop()
        west.stop()


def guests_at_a_table(
    home: LiveServer, away: LiveServer, names: tuple[str, str]
) -> tuple[Client, Client, str]:
    """Two guests, the first on ``home`` and the second on ``away``, and the started two-seat
    Slide table the first opened (so ``home`` runs it) and the second joined."""
    creator, opponent = home.client(names[0]), away.client(names[1])
    creator.guest()
    opponent.guest()
    table_id: str = creator.create_table(game="slide", seats=2)["table"]["id"]
    opponent.post(f"/api/tables/{table_id}/join", {})
    creator.post(f"/api/tables/{table_id}/start")
    return creator, opponent, table_id


def count_calls(server: LiveServer) -> list[type[Command]]:
    """Record every write the server forwards to another from now on (by command type)."""
    calls: list[type[Command]] = []
    router = server.services.tables.calls
    call = router.call

    async def counted(
        owner: str, table_id: str, command: Command, *args: Any, **kwargs: Any
    ) -> Any:
        calls.append(type(command))
        return await call(owner, table_id, command, *args, **kwargs)

    router.call = counted  # type: ignore[method-assign]
    return calls


def first_action(sock: Socket, label: str) -> None:
    """Play the socket's seat's first action and wait for its ack."""
    sock.recv_until(lambda m: m["type"] == "hello")
    seat = sock.seat
    assert seat is not None and seat in sock.to_act and sock.view is not None
    action = brain("slide", 7)(sock.view, seat)
    sock.send({"type": "action", "id": label, "action": action})
    ack = sock.recv_until(lambda m: m.get("id") == label)
    assert ack["type"] == "ack", ack


@pytest.mark.postgres
@pytest.mark.redis
def test_a_client_forwarded_to_the_owner_is_told_where_it_is_and_plays_on_there(
    east_with_address_and_west_without: tuple[LiveServer, LiveServer],
) -> None:
    east, west = east_with_address_and_west_without
    ada, bob, table_id = guests_at_a_table(east, west, ("ada", "bob"))  # run by east
    on_west = bob.connect(table_id)
    first_action(on_west, "b1")
    told = on_west.recv_until(lambda m: m["type"] == "owner", timeout=5)
    assert told == {"type": "owner", "url": f"{east.ws_url}/ws/tables/{table_id}"}
    assert not any(m["type"] == "owner" for m in on_west.messages[:-1])  # not before the write

    # Bob follows, as the pages do on one site: from the last version he saw.
    on_west.drain(wait=0.2)
    on_east = Socket(bob, f"{told['url']}?since={on_west.version}")
    on_west.close()
    assert on_east.recv()["type"] == "resume"
    on_east.adopt(on_west)
    ada_sock = ada.connect(table_id)
    ada_sock.recv_until(lambda m: m["type"] == "hello")
    forwarded = count_calls(west)
    sent = play_out({0: ada_sock, 1: on_east}, "slide")
    assert sent > 10 and on_east.finished
    # Connected to the owner: west forwards nothing more, and nobody is pointed anywhere.
    assert forwarded == []
    assert not any(m["type"] == "owner" for m in on_east.messages + ada_sock.messages)
    events = ada.get(f"/api/tables/{table_id}/events")
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))


@pytest.mark.postgres
@pytest.mark.redis
def test_an_owner_without_a_public_address_is_never_pointed_at(
    east_with_address_and_west_without: tuple[LiveServer, LiveServer],
) -> None:
    east, west = east_with_address_and_west_without
    # Run by west, which has no public address.
    _cleo, dan, table_id = guests_at_a_table(west, east, ("cleo", "dan"))
    on_east = dan.connect(table_id)
    forwarded = count_calls(east)
    first_action(on_east, "d1")
    assert west.services.tables.tables[table_id].owned
    assert forwarded == [Act]  # east forwarded it, and west answered
    on_east.drain(wait=0.5)
    assert not any(m["type"] == "owner" for m in on_east.messages)
