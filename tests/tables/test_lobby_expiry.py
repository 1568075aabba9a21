"""One stranger cannot hide the lobby: waiting tables expire, a player's are capped, the newest
show first, a page at a time.

Over the real protocol, on the harness's manual clock: a table nobody acts at closes after
``MEEPLE_WAITING_EXPIRY_REALTIME_S`` (turn-based: ``_TURN_S``), from the stored log, so a
restart keeps the deadline and of several servers only the owner closes it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from server_harness import Client, LiveServer, make_settings, start_server

from meeple.config import Settings

START = 1_800_000_000.0


def wait_status(client: Client, table_id: str, status: str, tries: int = 400) -> dict[str, Any]:
    """The table's summary once it has ``status`` (its owner acts on its own clock)."""
    for _ in range(tries):
        table: dict[str, Any] = client.get(f"/api/tables/{table_id}")["table"]
        if table["status"] == status:
            return table
        time.sleep(0.025)
    raise AssertionError(f"table {table_id} never reached {status}")


def player(server: LiveServer, label: str) -> Client:
    """A new guest."""
    client = server.client(label)
    client.guest()
    return client


def open_table(client: Client, **spec: Any) -> str:
    """A two-seat Slide table waiting for a second player; its id."""
    table_id: str = client.create_table(game="slide", seats=2, **spec)["table"]["id"]
    return table_id


def test_the_lobby_lists_the_newest_tables_first_a_page_at_a_time(server: LiveServer) -> None:
    ids = []
    for n in range(5):
        ids.append(open_table(player(server, f"host{n}")))
        server.advance(1)
    newest_first = ids[::-1]
    anyone = server.client("anyone")
    assert [t["id"] for t in anyone.get("/api/tables")] == newest_first
    first = anyone.get("/api/tables", limit=2)
    assert [t["id"] for t in first] == newest_first[:2]
    second = anyone.get("/api/tables", limit=2, before=first[-1]["id"])
    assert [t["id"] for t in second] == newest_first[2:4]
    last = anyone.get("/api/tables", limit=2, before=second[-1]["id"])
    assert [t["id"] for t in last] == newest_first[4:]
    assert anyone.get("/api/tables", limit=2, before=last[-1]["id"]) == []
    assert anyone.get("/api/tables", before="no-such-table", expect=404)["code"] == "no_table"
    assert anyone.get("/api/tables", limit=101, expect=422)


def test_tables_opened_at_the_same_moment_page_without_repeats(server: LiveServer) -> None:
    ids = {open_table(player(server, f"host{n}")) for n in range(4)}  # the clock stands still
    anyone = server.client("anyone")
    seen: list[str] = []
    page = anyone.get("/api/tables", limit=3)
    for _ in range(3):  # two pages, then an empty one
        seen += [t["id"] for t in page]
        page = anyone.get("/api/tables", limit=3, before=page[-1]["id"]) if page else []
    assert sorted(seen) == sorted(ids) and len(seen) == len(ids)


def test_a_player_has_a_few_waiting_tables_at_most(server: LiveServer) -> None:
    cap = server.services.settings.max_waiting_tables
    host = player(server, "host")
    ids = [open_table(host, private=n % 2 == 1) for n in range(cap)]
    refused = host.post("/api/tables", {"game": "slide", "seats": 2}, expect=409)
    assert refused["code"] == "too_many_tables" and refused["params"] == {"limit": cap}
    assert refused["detail"]
    # Others are not held back by one player's tables.
    open_table(player(server, "other"))
    # A table that starts, or closes, waits no more: room for one more.
    guest = player(server, "guest")
    guest.post(f"/api/tables/{ids[0]}/join", {})
    host.post(f"/api/tables/{ids[0]}/start")
    open_table(host)
    host.post(f"/api/tables/{ids[1]}/close")
    open_table(host)
    host.post("/api/tables", {"game": "slide", "seats": 2}, expect=409)


def test_a_waiting_table_nobody_acts_at_expires(server: LiveServer) -> None:
    settings = server.services.settings
    host = player(server, "host")
    real_time = open_table(host)
    turn_based = open_table(host, pace="turn", move_seconds=86_400)
    anyone = server.client("anyone")
    server.advance(settings.waiting_expiry_realtime_s - 60)
    # Someone acting puts the close off: a join, then a leave, each restart the wait.
    joiner = player(server, "joiner")
    joiner.post(f"/api/tables/{real_time}/join", {})
    joiner.post(f"/api/tables/{real_time}/leave")
    server.advance(120)
    assert anyone.get(f"/api/tables/{real_time}")["table"]["status"] == "open"
    server.advance(settings.waiting_expiry_realtime_s)
    wait_status(anyone, real_time, "closed")
    events = anyone.get(f"/api/tables/{real_time}/events")
    assert events[-1]["kind"] == "close" and events[-1]["data"] == {"reason": "expired"}
    lobby = [t["id"] for t in anyone.get("/api/tables")]
    assert lobby == [turn_based]
    # A turn-based table waits days, not minutes.
    assert anyone.get(f"/api/tables/{turn_based}")["table"]["status"] == "open"
    server.advance(settings.waiting_expiry_turn_s)
    wait_status(anyone, turn_based, "closed")
    assert anyone.get("/api/tables") == []


def test_the_deadline_comes_from_the_store_and_outlives_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    first = start_server(settings, clock_start=START)
    try:
        table_id = open_table(player(first, "host"))
    finally:
        first.stop()
    # Restarted long after: the table, loaded from the store, closes at once.
    later = START + settings.waiting_expiry_realtime_s + 1
    second = start_server(settings, clock_start=later)
    try:
        table = wait_status(second.client("anyone"), table_id, "closed")
        assert table["id"] == table_id
    finally:
        second.stop()


def test_with_two_servers_the_owner_alone_closes_an_expired_table(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    first, second = two_servers
    table_id = open_table(player(first, "host"))
    wait = first.services.settings.waiting_expiry_realtime_s
    second.advance(wait + 1)  # not its table: it closes nothing
    watcher = second.client("watcher")
    assert watcher.get(f"/api/tables/{table_id}")["table"]["status"] == "open"
    first.advance(wait + 1)
    wait_status(watcher, table_id, "closed")
    closes = [e for e in watcher.get(f"/api/tables/{table_id}/events") if e["kind"] == "close"]
    assert len(closes) == 1


@pytest.mark.parametrize(
    "setting",
    [
        {"waiting_expiry_realtime_s": 0},
        {"waiting_expiry_turn_s": 10},
        {"max_waiting_tables": 0},
    ],
)
def test_the_lobby_settings_refuse_values_that_make_no_sense(
    tmp_path: Path, setting: dict[str, Any]
) -> None:
    name = next(iter(setting))
    with pytest.raises(ValidationError) as refused:
        Settings(data_dir=tmp_path, **setting)
    assert name in str(refused.value)
    assert getattr(Settings(data_dir=tmp_path, **{name: 3600}), name) == 3600
