"""One owner per table when servers share tables: only the owner runs a table's clocks and bots
and writes its events; the other servers forward writes to it; when it dies, another server
takes the table over within seconds, with no action lost or applied twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from serve_process import RemoteServer, ServeProcess, client_of
from server_harness import (
    GAMES,
    Client,
    LiveServer,
    Socket,
    brain,
    free_port,
    play_out,
    require_redis,
    run_async,
)

from meeple.errors import Code
from meeple.games.base import GameRecord, replay
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import GameTable
from meeple.tables.cluster.owners import OWNER_PREFIX
from meeple.tables.core.log import LogEvent, Snapshot, advance, apply_action


@contextmanager
def east_and_west(
    tmp_path: Path, pg_url: str
) -> Iterator[tuple[ServeProcess, ServeProcess, list[Socket]]]:
    """Two ``meeple serve`` processes sharing PostgreSQL and Redis, with 3 s leases, and a
    list for the test's sockets: all closed (the east one killed if alive) at the end."""
    redis_url = require_redis()
    settings = {
        "MEEPLE_DB": pg_url,
        "MEEPLE_REDIS": redis_url,
        "MEEPLE_LEASE_S": "3",
        # The limits live in Redis, which outlives a run: the default twenty guests an hour
        # from one address refused the tests after a few runs.
        "MEEPLE_LIMIT_GUESTS": "1000/minute",
        "MEEPLE_LIMIT_AUTH": "1000/minute",
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    east = ServeProcess(tmp_path / "a", free_port(), settings)
    west = ServeProcess(tmp_path / "b", free_port(), settings)
    sockets: list[Socket] = []
    try:
        yield east, west, sockets
    finally:
        for s in sockets:
            s.close()
        west.stop()
        if east.process.poll() is None:
            east.kill()


def count_bot_calls(server: LiveServer) -> list[str]:
    """Record every bot move the server computes (by table id)."""
    calls: list[str] = []
    pool = server.services.bots
    choose = pool.choose

    async def counted(game: str, level: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(game)
        return await choose(game, level, *args, **kwargs)

    pool.choose = counted  # type: ignore[method-assign]
    return calls


def alice_against_two_bots(server: LiveServer) -> tuple[Client, str]:
    """Alice, registered on ``server``, and the Slide game she started there against two bots."""
    alice = server.client("alice")
    alice.register("alice")
    bots = {"1": "greedy", "2": "greedy"}
    table_id = alice.create_table(game="slide", seats=3, bots=bots)["table"]["id"]
    alice.post(f"/api/tables/{table_id}/start")
    return alice, table_id


def alice_at_greedy_tables(
    east: LiveServer, west: LiveServer, count: int
) -> tuple[Client, list[str]]:
    """Alice, registered on ``east``, with ``count`` started two-seat Slide tables there
    against a greedy bot; returns her client on ``west`` (same cookies) and the table ids."""
    alice = east.client("alice")
    alice.register("alice")
    table_ids = []
    for _ in range(count):
        table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
        alice.post(f"/api/tables/{table_id}/start")
        table_ids.append(table_id)
    on_west = west.client("alice")
    on_west.http.cookies = alice.http.cookies
    return on_west, table_ids


def count_queries(db: Database) -> tuple[list[str], list[str]]:
    """Record the name of every query ``db`` runs from now on: those in the common queue
    (``run``) and those ahead of it (``run_first``)."""
    asked: list[str] = []
    asked_first: list[str] = []
    run, run_first = db.run, db.run_first

    async def counted(query: Any, *args: Any) -> Any:
        asked.append(query.__name__)
        return await run(query, *args)

    async def counted_first(query: Any, *args: Any) -> Any:
        asked_first.append(query.__name__)
        return await run_first(query, *args)

    db.run, db.run_first = counted, counted_first  # type: ignore[method-assign]
    return asked, asked_first


@pytest.mark.postgres
@pytest.mark.redis
def test_only_the_owner_runs_the_bots_and_the_others_forward(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    east, west = two_servers
    east_bots, west_bots = count_bot_calls(east), count_bot_calls(west)
    alice, table_id = alice_against_two_bots(east)
    # Alice plays the whole game through the other server: her actions are forwarded.
    on_west = west.client("alice")
    on_west.http.cookies = alice.http.cookies
    sock = on_west.connect(table_id)
    assert sock.recv()["table"]["status"] == "playing"
    sent = play_out({0: sock}, "slide")
    assert sent > 10
    table = on_west.get(f"/api/tables/{table_id}")["table"]
    assert table["status"] == "finished"
    assert east.services.tables.tables[table_id].owned
    assert not west.services.tables.tables[table_id].owned
    assert west_bots == [] and len(east_bots) > 20  # the bots ran once, on the owner
    events = alice.get(f"/api/tables/{table_id}/events")
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))


@pytest.mark.postgres
@pytest.mark.redis
def test_a_server_that_does_not_own_a_table_learns_its_events_from_the_bus(
    two_servers: tuple[LiveServer, LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    east, west = two_servers
    alice, table_id = alice_against_two_bots(east)
    on_west = west.client("alice")
    on_west.http.cookies = alice.http.cookies
    sock = on_west.connect(table_id)
    assert sock.recv()["table"]["status"] == "playing"
    store_reads: list[str] = []
    events_after, events_after_each = queries.events_after, queries.events_after_each

    def counted(session: Any, table: str, after: int) -> Any:
        store_reads.append(table)
        return events_after(session, table, after)

    def counted_each(session: Any, since: dict[str, int]) -> Any:
        store_reads.extend(since)
        return events_after_each(session, since)

    monkeypatch.setattr(queries, "events_after", counted)
    monkeypatch.setattr(queries, "events_after_each", counted_each)
    play_out({0: sock}, "slide")
    west_table = west.services.tables.tables[table_id]
    assert not west_table.owned and west_table.snap.status == "finished"
    # Every event (the bots' and Alice's own) reached west's copy without reading the store.
    assert store_reads == []
    owner = east.services.tables.tables[table_id]
    assert west_table.events == owner.events


@pytest.mark.postgres
@pytest.mark.redis
def test_deadlines_seen_on_another_server_are_the_owners(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    east, west = two_servers
    alice = east.client("alice")
    alice.register("alice")
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"}, move_seconds=60)[
        "table"
    ]["id"]
    alice.post(f"/api/tables/{table_id}/start")
    sock = alice.connect(table_id)
    hello = sock.recv()
    on_west = west.client("alice")
    on_west.http.cookies = alice.http.cookies
    seen = on_west.get(f"/api/tables/{table_id}")["table"]["deadlines"]
    assert seen == hello["table"]["deadlines"] == {"0": pytest.approx(east.clock.now() + 60)}


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_the_owner_is_killed_and_another_server_finishes_the_game(
    tmp_path: Path, pg_url: str
) -> None:
    with east_and_west(tmp_path, pg_url) as (east, west, sockets):
        creator = client_of(RemoteServer(east.url), "alice")
        creator.guest()
        table_id = creator.create_table(
            game="slide", seats=3, bots={"1": "greedy", "2": "greedy"}, move_seconds=3600
        )["table"]["id"]
        creator.post(f"/api/tables/{table_id}/start")
        player = client_of(RemoteServer(west.url), "alice", creator.http.cookies)
        sock = player.connect(table_id)
        sockets.append(sock)
        sock.recv()
        play_out({0: sock}, "slide", stop=lambda: sock.version >= 20)
        east.kill()
        killed = time.monotonic()
        # The next action goes through once the west server owns the table.
        first_after = play_out({0: sock}, "slide", stop=lambda: sock.version >= 40)
        assert first_after > 0
        taken_over = time.monotonic() - killed
        play_out({0: sock}, "slide")
        table = player.get(f"/api/tables/{table_id}")["table"]
        assert table["status"] == "finished"
        record = GameRecord.from_json(player.get(f"/api/tables/{table_id}/record"))
        final = GAMES["slide"].result(replay(GAMES["slide"], record)[-1])
        assert final is not None and table["result"] == final.to_json()
        events = player.get(f"/api/tables/{table_id}/events")
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        assert sum(e["kind"] == "action" for e in events) == len(record.actions)
        assert taken_over < 20, taken_over


@pytest.mark.postgres
@pytest.mark.redis
def test_an_event_the_dead_owner_stored_but_never_announced_reaches_players_elsewhere(
    tmp_path: Path, pg_url: str
) -> None:
    """The owner commits an event and dies before announcing it: the server taking the
    table over folds it from the store and sends it to its own connections too (a player
    there waited for it forever, and the table stalled)."""
    with east_and_west(tmp_path, pg_url) as (east, west, sockets):
        creator = client_of(RemoteServer(east.url), "alice")
        user_id = creator.guest()["id"]
        spec = {"game": "slide", "seats": 2, "move_seconds": 3600}
        table_id = creator.create_table(**spec)["table"]["id"]
        bob = client_of(RemoteServer(east.url), "bob")
        bob.guest()
        bob.post(f"/api/tables/{table_id}/join", {})
        creator.post(f"/api/tables/{table_id}/start")
        # Both players on the other server; nobody but them moves (no bot, an hour's clock).
        alice_west = client_of(RemoteServer(west.url), "alice", creator.http.cookies)
        bob_west = client_of(RemoteServer(west.url), "bob", bob.http.cookies)
        sock, other = alice_west.connect(table_id), bob_west.connect(table_id)
        sockets += [sock, other]
        sock.recv()
        other.recv()
        play_out(
            {0: sock, 1: other}, "slide", stop=lambda: sock.version >= 10 and sock.to_act == [0]
        )
        version, game, store = sock.version, GAMES["slide"], Database(pg_url)
        stored = store.call(queries.events_after, table_id, 0)
        table = store.call(lambda session: session.get(GameTable, table_id))
        snap = Snapshot()
        for stored_event in stored:  # the position now, as the owner holds it
            snap = advance(game, table.options, table.seed, snap, LogEvent.from_row(stored_event))
        assert sock.view is not None and snap.version == version
        applied = apply_action(game, snap.state, 0, brain("slide", 7)(sock.view, 0))
        data = {"action": applied.action, "by": "player", "events": applied.events}
        event = LogEvent(version + 1, "action", 0, data, user_id, "stored-then-died", time.time())
        store.call(queries.append_event, event.row(table_id))  # as the owner would, then dies
        store.close()
        # A request on the other server reads the stored event before any take-over (as
        # the dead server's players reconnecting there do); its connections must hear of it.
        assert alice_west.get(f"/api/tables/{table_id}")["table"]["version"] == version + 1
        east.kill()
        other.wait_version(version + 1, timeout=30)  # and bob, whose turn it may be, plays on
        play_out({0: sock, 1: other}, "slide")
        assert alice_west.get(f"/api/tables/{table_id}")["table"]["status"] == "finished"


@pytest.mark.postgres
@pytest.mark.redis
def test_spectators_on_another_server_are_counted_everywhere(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    east, west = two_servers
    alice = east.client("alice")
    alice.register("alice")
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
    seated = alice.connect(table_id)
    assert seated.recv()["table"]["spectators"] == 0
    watcher = west.client("watcher")
    watching = watcher.connect(table_id)
    assert watching.recv()["table"]["spectators"] == 1
    news = seated.recv_until(lambda m: m.get("type") == "watchers")
    assert news["spectators"] == 1
    assert alice.get(f"/api/tables/{table_id}")["table"]["spectators"] == 1
    # The spectator's server learns who else is there from the other server.
    news = watching.recv_until(lambda m: m.get("type") == "watchers" and m["present"] == [0])
    assert news["spectators"] == 1
    watching.close()
    news = seated.recv_until(lambda m: m.get("type") == "watchers")
    assert news["spectators"] == 0


@pytest.mark.postgres
@pytest.mark.redis
def test_a_table_opened_on_one_server_is_in_the_others_lobby_at_once(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    east, west = two_servers
    west.services.tables.lobby_cache.ttl_s = 3600.0  # only lobby news may refresh it
    visitor = west.client("visitor")
    visitor.guest()
    before = {t["id"] for t in visitor.get("/api/tables", game="slide")}
    host = east.client("host")
    host.guest()
    opened = host.create_table(game="slide", seats=2)["table"]["id"]
    deadline = time.monotonic() + 5
    while opened not in {t["id"] for t in visitor.get("/api/tables", game="slide")}:
        assert time.monotonic() < deadline, "the other server's lobby never saw the table"
        time.sleep(0.02)
    assert opened not in before
    host.post(f"/api/tables/{opened}/leave")  # the creator leaves: the table closes
    while opened in {t["id"] for t in visitor.get("/api/tables", game="slide")}:
        assert time.monotonic() < deadline, "the other server's lobby kept a closed table"
        time.sleep(0.02)


@pytest.mark.postgres
@pytest.mark.redis
def test_copies_on_another_server_catch_up_in_one_read_for_sockets_opening_together(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """A server's stale copies (nobody there followed them) are caught up with what the
    owner stored, read for every socket opening meanwhile together (a dead server's
    thousand players reconnecting here made a thousand reads), never one table at a time."""
    east, west = two_servers
    on_west, table_ids = alice_at_greedy_tables(east, west, 6)
    for table_id in table_ids:  # west loads its copies, then nobody there follows them
        sock = on_west.connect(table_id)
        sock.recv()
        sock.close()
    alice = east.clients[0]
    for table_id in table_ids:  # the owner plays on: the copies on west fall behind
        sock = alice.connect(table_id)
        start = sock.recv()["version"]
        play_out({0: sock}, "slide", stop=lambda s=sock, v=start: s.version >= v + 2)
        sock.close()
    owner_versions = {t: east.services.tables.tables[t].snap.version for t in table_ids}
    assert all(west.services.tables.tables[t].snap.version < owner_versions[t] for t in table_ids)
    asked: list[str] = []
    db = west.services.db
    run = db.run

    async def counted(query: Any, *args: Any) -> Any:
        asked.append(query.__name__)
        if query.__name__ == "events_after_each" and asked.count(query.__name__) == 1:
            await asyncio.sleep(1)  # the first read is slow: the other sockets open meanwhile
        return await run(query, *args)

    db.run = counted  # type: ignore[method-assign]
    reads_before = west.services.tables.catch_ups.reads
    socks = [on_west.connect(t) for t in table_ids]
    hellos = [sock.recv() for sock in socks]
    # Caught up with at least what the owner had stored (its bot may have moved since).
    assert all(h["version"] >= owner_versions[t] for h, t in zip(hellos, table_ids, strict=True))
    assert "events_after" not in asked
    batched = west.services.tables.catch_ups.reads - reads_before
    assert asked.count("events_after_each") == batched == 2  # the first socket's, then the rest


@pytest.mark.postgres
@pytest.mark.redis
def test_a_server_taking_over_many_tables_leases_and_reads_them_all_at_once(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """Every lease in one Redis call, what the last owner stored in one query per hundred
    tables and the tables it has no copy of loaded together (not a round trip of each per
    table, which made a 500-table take-over take seconds on a busy server); then each
    table runs and finishes on its new owner."""
    east, west = two_servers
    on_west, table_ids = alice_at_greedy_tables(east, west, 12)
    socks = {table_id: on_west.connect(table_id) for table_id in table_ids[:4]}
    for sock in socks.values():
        sock.recv()
    tables = west.services.tables
    asked, asked_first = count_queries(west.services.db)
    single: list[str] = []
    acquire = tables.ownership.acquire

    async def acquire_one(table_id: str) -> bool:
        single.append(table_id)
        return await acquire(table_id)

    tables.ownership.acquire = acquire_one  # type: ignore[method-assign]
    deadline = time.monotonic() + 10
    while not set(table_ids) <= set(tables.ownership.keeper._watched):
        assert time.monotonic() < deadline, "west never watched the new tables"
        time.sleep(0.05)  # (handed to its keeper twice a second)
    east.stop()  # a clean stop lets the leases go at once
    deadline = time.monotonic() + 20
    while not all(t in tables.tables and tables.tables[t].owned for t in table_ids):
        assert time.monotonic() < deadline, "the west server did not take every table"
        time.sleep(0.05)
    assert single == []
    # Read ahead of the common queue (run_first), where the sockets' reads wait.
    assert asked_first.count("events_after_each") == 1
    assert asked_first.count("tables_with_events") == 1  # the eight it had no copy of, together
    assert "events_after_each" not in asked and "tables_with_events" not in asked
    for sock in socks.values():
        play_out({0: sock}, "slide")
        assert sock.finished


@pytest.mark.postgres
@pytest.mark.redis
def test_a_write_waiting_on_a_silent_owner_runs_as_soon_as_this_server_takes_the_table(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """The forwarded call stops waiting when the take-over runs the table here, not when
    a look at the lease or the call's time-out says the owner is gone."""

    east, west = two_servers
    on_west, table_ids = alice_at_greedy_tables(east, west, 1)
    sock = on_west.connect(table_ids[0])
    sock.recv()

    async def silent(_message: Any) -> None:
        """East hears the call and never answers (it is dying)."""

    async def holds(_server: str, _table: str) -> bool:
        return True  # the lease looks held: only the take-over can end the wait

    calls = west.services.tables.calls
    outcomes: list[str] = []
    call = calls.call

    async def watched(*args: Any, **kwargs: Any) -> Any:
        try:
            result = await call(*args, **kwargs)
        except BaseException as exc:
            outcomes.append(type(exc).__name__)
            raise
        outcomes.append("answered")
        return result

    east.services.tables.calls._take = silent  # type: ignore[method-assign]
    west.services.tables.ownership.still_holds = holds  # type: ignore[method-assign]
    calls.call = watched  # type: ignore[method-assign]
    sock.send({"type": "action", "id": "w", "action": brain("slide", 1)(sock.view, 0)})
    deadline = time.monotonic() + 10
    while not calls._pending:
        assert time.monotonic() < deadline, "the write was not forwarded"
        time.sleep(0.01)
    east.stop()  # its leases go; west's keeper takes the table
    assert sock.recv_until(lambda m: m.get("id") == "w")["type"] == "ack"
    assert west.services.tables.tables[table_ids[0]].owned
    assert outcomes == ["NotOwner"]  # not CallTimeout


@pytest.mark.postgres
@pytest.mark.redis
def test_a_request_for_a_table_a_take_over_is_slow_to_run_runs_it_at_once(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """A take-over leases its tables at once and runs them together; a player acting on one
    that the take-over is slow to get to (a server busy with a dead server's reconnecting
    players) runs it from the request, not after the take-over (it waited up to 22 s at
    1,000 tables)."""
    east, west = two_servers
    on_west, table_ids = alice_at_greedy_tables(east, west, 4)
    last = table_ids[-1]
    sock = on_west.connect(last)
    sock.recv()
    for table_id in table_ids[:-1]:
        on_west.connect(table_id).recv()  # west has every table loaded, like a busy server
    tables = west.services.tables
    table_here = tables.cluster.table_here
    slow_started: list[str] = []
    slow_done: list[str] = []

    async def slow_table_here(table_id: str) -> Any:
        slow_started.append(table_id)
        await asyncio.sleep(5)  # a busy server
        slow_done.append(table_id)
        return await table_here(table_id)

    tables.cluster.table_here = slow_table_here  # type: ignore[method-assign]
    east.stop()
    deadline = time.monotonic() + 20
    while sorted(slow_started) != sorted(table_ids):
        assert time.monotonic() < deadline, "no take-over started"
        time.sleep(0.01)
    sock.send({"type": "action", "id": "now", "action": brain("slide", 1)(sock.view, 0)})
    assert sock.recv_until(lambda m: m.get("id") == "now")["type"] == "ack"
    assert slow_done == []  # acknowledged while the take-over is still slow
    assert tables.tables[last].owned  # run by the request
    while not all(tables.tables[t].owned for t in table_ids):
        assert time.monotonic() < deadline, "the take-over did not run the others"
        time.sleep(0.05)


@pytest.mark.postgres
@pytest.mark.redis
def test_writes_finding_their_tables_without_an_owner_run_them_with_reads_together(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """Players acting on tables whose owner died each claim their table; what the last
    owner stored is read for all of them together, ahead of the common queue (each read
    its own, behind the reconnecting players' reads, and ran a second after the rest)."""
    east, west = two_servers
    on_west, table_ids = alice_at_greedy_tables(east, west, 6)
    socks = [on_west.connect(table_id) for table_id in table_ids]
    for sock in socks:
        sock.recv()
    tables = west.services.tables
    asked, asked_first = count_queries(west.services.db)

    def no_take_over(*_args: Any) -> None:
        """The requests, not the watcher, find these tables without an owner."""

    tables.ownership.watch = no_take_over  # type: ignore[method-assign]
    east.stop()  # a clean stop lets the leases go at once
    for n, sock in enumerate(socks):
        sock.send({"type": "action", "id": f"a{n}", "action": brain("slide", 1)(sock.view, 0)})
    for n, sock in enumerate(socks):
        assert sock.recv_until(lambda m, n=n: m.get("id") == f"a{n}")["type"] == "ack"
    assert all(tables.tables[t].owned for t in table_ids)
    assert "events_after" not in asked + asked_first
    assert 1 <= asked_first.count("events_after_each") <= 3
    assert "events_after_each" not in asked


@pytest.mark.postgres
@pytest.mark.redis
def test_a_new_table_is_leased_before_it_is_stored(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """Otherwise another server, looking for tables without an owner, could take a table
    in the moment between its row and its lease (it did, in the 20-table kill bench)."""
    east, west = two_servers
    tables = east.services.tables
    run = east.services.db.run
    owners_when_stored: list[str | None] = []

    async def checked(query: Any, *args: Any) -> Any:
        if query.__name__ == "_insert_table_tx":
            owners_when_stored.append(await tables.ownership.owner_of(args[0].id))
        return await run(query, *args)

    east.services.db.run = checked  # type: ignore[method-assign]
    alice = east.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2)["table"]["id"]
    assert owners_when_stored == [tables.server_id]
    import redis

    lease = redis.Redis.from_url(require_redis()).get(OWNER_PREFIX + table_id)
    assert lease == tables.server_id.encode()
    assert (
        table_id not in west.services.tables.tables
        or not west.services.tables.tables[table_id].owned
    )


@pytest.mark.postgres
@pytest.mark.redis
def test_a_take_over_whose_resume_collides_resumes_again(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """The last owner's late write makes the new owner's first resume conflict: it folds the
    log and resumes again, and the table runs (it used to stay owned but stopped)."""
    east, west = two_servers
    on_west, (table_id,) = alice_at_greedy_tables(east, west, 1)
    sock = on_west.connect(table_id)
    sock.recv()
    copy = west.services.tables.tables[table_id]
    resume = copy.resume
    calls: list[int] = []

    async def collides_once() -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            raise Code.CONFLICT.error()
        await resume()

    copy.resume = collides_once  # type: ignore[method-assign]
    east.stop()  # a clean stop lets the lease go: the west server takes the table
    deadline = time.monotonic() + 20
    while not copy.owned or len(calls) < 2:
        assert time.monotonic() < deadline, "the west server never ran the table"
        time.sleep(0.05)
    play_out({0: sock}, "slide")
    assert on_west.get(f"/api/tables/{table_id}")["table"]["status"] == "finished"
    assert calls == [0, 1]


@pytest.mark.redis
def test_one_server_of_several_claims_a_one_off_job() -> None:
    import redis.asyncio as aioredis

    from meeple.tables.cluster.owners import RedisLeases

    url = require_redis()

    async def scenario() -> list[bool]:
        client = aioredis.Redis.from_url(url)
        try:
            job = f"review:test-{time.time_ns()}"
            east, west = RedisLeases(client, 3, url), RedisLeases(client, 3, url)
            try:
                return [await east.claim_job(job, 60), await west.claim_job(job, 60)]
            finally:
                east.close()
                west.close()
        finally:
            await client.aclose()

    assert run_async(scenario()) == [True, False]


@pytest.mark.redis
def test_leases_are_kept_while_the_event_loop_is_busy_and_run_out_when_it_hangs() -> None:
    """The keeper thread renews while the loop has spoken lately, however late its own tasks run."""
    import asyncio

    import redis.asyncio as aioredis

    from meeple.tables.cluster.owners import ALIVE_LEASES, RedisLeases

    url = require_redis()
    lease_s = 0.4

    async def scenario() -> tuple[str | None, str | None, str | None, str]:
        client = aioredis.Redis.from_url(url)
        leases = RedisLeases(client, lease_s, url)
        table = f"keeper-test-{time.time_ns()}"
        try:
            assert await leases.acquire(table)
            await leases.renew([table])
            time.sleep(3 * lease_s)  # the loop is blocked for three leases
            busy = await leases.owner_of(table)
            await leases.renew([table])
            await asyncio.sleep(lease_s)
            alive = await leases.owner_of(table)
            time.sleep((ALIVE_LEASES + 2) * lease_s)  # the loop hangs for good
            hung = await leases.owner_of(table)
            return busy, alive, hung, leases.server_id
        finally:
            leases.close()
            await client.aclose()

    busy, alive, hung, me = run_async(scenario())
    assert busy == me and alive == me
    assert hung is None


@pytest.mark.redis
def test_a_lease_is_renewed_from_the_moment_it_is_acquired() -> None:
    """A take-over acquiring its first leases keeps them before the loop hands over any list."""
    import asyncio

    import redis.asyncio as aioredis

    from meeple.tables.cluster.owners import RedisLeases

    url = require_redis()
    lease_s = 0.4

    async def scenario() -> tuple[list[str], list[str | None], str]:
        client = aioredis.Redis.from_url(url)
        leases = RedisLeases(client, lease_s, url)
        tables = [f"keeper-start-test-{time.time_ns()}-{n}" for n in range(3)]
        try:
            acquired = await leases.acquire_many(tables)
            await asyncio.sleep(3 * lease_s)  # no renew() call from the loop yet
            owners = [await leases.owner_of(t) for t in tables]
            return acquired, owners, leases.server_id
        finally:
            leases.close()
            await client.aclose()

    acquired, owners, me = run_async(scenario())
    assert len(acquired) == 3
    assert owners == [me, me, me]


@pytest.mark.redis
def test_a_lease_released_while_a_renewal_runs_is_not_kept() -> None:
    """The renewal takes back leases that ran out with nobody taking them; one released
    by a server stopping, between the keeper's list and its script, is let go again
    (else the stopping server held it for a lease and the take-over came in two parts)."""
    import redis as sync_redis
    import redis.asyncio as aioredis

    from meeple.tables.cluster.owners import OWNER_PREFIX, RedisLeases

    url = require_redis()

    async def scenario() -> tuple[str | None, str | None, str]:
        client = aioredis.Redis.from_url(url)
        leases = RedisLeases(client, 5, url)
        keeper = leases.keeper
        released, kept = f"race-{time.time_ns()}", f"race-kept-{time.time_ns()}"
        direct = sync_redis.Redis.from_url(url)
        try:
            assert await leases.acquire_many([released, kept]) == [released, kept]
            renew_now = keeper.renew_now

            def loop_releases_meanwhile(ids: Any) -> Any:
                keeper.forget([released])
                direct.delete(OWNER_PREFIX + released)  # what release() then does
                return renew_now(ids)

            keeper.renew_now = loop_releases_meanwhile  # type: ignore[method-assign]
            keeper._renew()
            return await leases.owner_of(released), await leases.owner_of(kept), leases.server_id
        finally:
            leases.close()
            direct.close()
            await client.aclose()

    released_owner, kept_owner, me = run_async(scenario())
    assert released_owner is None and kept_owner == me


@pytest.mark.redis
def test_the_keeper_takes_a_dead_servers_leases_as_they_run_out_and_tells_the_loop() -> None:
    """A server watching another's tables takes each lease once it runs out (not while it
    is still the other's), keeps it, and hands the ids to its event loop."""
    import asyncio

    import redis.asyncio as aioredis

    from meeple.tables.cluster.owners import RedisLeases

    url = require_redis()
    lease_s = 0.4

    async def scenario() -> tuple[list[list[str]], list[str | None], str, list[str]]:
        client = aioredis.Redis.from_url(url)
        dead, watcher = RedisLeases(client, lease_s, url), RedisLeases(client, lease_s, url)
        tables = [f"watch-test-{time.time_ns()}-{n}" for n in range(3)]
        handed: list[list[str]] = []
        try:
            assert await dead.acquire_many(tables) == tables
            await dead.renew(tables)
            watcher.watch(tables, handed.append)
            for _ in range(4):
                await dead.renew(tables)  # its loop and ours are alive
                await watcher.renew([])
                await asyncio.sleep(lease_s / 2)
            early = list(handed)  # the dead server is still alive: nothing taken
            dead.close()  # it dies: its leases run out within a lease
            deadline = time.monotonic() + 10
            while sum(map(len, handed)) < len(tables) and time.monotonic() < deadline:
                await watcher.renew([t for ids in handed for t in ids])
                await asyncio.sleep(0.02)
            for _ in range(6):  # kept by the watcher's keeper since, as its loop runs them
                await watcher.renew([t for ids in handed for t in ids])
                await asyncio.sleep(lease_s / 2)
            owners = [await watcher.owner_of(t) for t in tables]
            return handed, owners, watcher.server_id, early
        finally:
            watcher.close()
            await client.aclose()

    handed, owners, me, early = run_async(scenario())
    assert early == []
    taken = [t for ids in handed for t in ids]
    assert sorted(taken) == sorted(set(taken)) and len(taken) == 3  # each handed over once
    assert owners == [me, me, me]


@pytest.mark.postgres
@pytest.mark.redis
def test_a_server_cut_off_from_redis_gives_its_tables_up_and_the_other_runs_them(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """A network split: the owner cannot renew its leases, so it stops running its tables
    within a lease (fencing itself) and the other server takes them; play goes on."""
    import redis

    east, west = two_servers
    alice, table_id = alice_against_two_bots(east)
    sock = alice.connect(table_id)
    sock.recv()
    play_out({0: sock}, "slide", stop=lambda: sock.version >= 10)
    keeper = east.services.tables.ownership.keeper
    assert keeper is not None and east.services.tables.tables[table_id].owned

    def split(_ids: Any) -> Any:
        raise redis.ConnectionError("no route to Redis")

    keeper.renew_now = split  # type: ignore[method-assign]
    cut = time.monotonic()
    deadline = cut + 20
    while east.services.tables.tables[table_id].owned or not (
        table_id in west.services.tables.tables and west.services.tables.tables[table_id].owned
    ):
        assert time.monotonic() < deadline, "the tables were not handed over"
        time.sleep(0.05)
    handed_over = time.monotonic() - cut
    east_bots = count_bot_calls(east)
    play_out({0: sock}, "slide")  # through east, forwarded to west
    assert alice.get(f"/api/tables/{table_id}")["table"]["status"] == "finished"
    assert east_bots == []  # east computed nothing for the table once it let it go
    events = alice.get(f"/api/tables/{table_id}/events")
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert handed_over < 10, handed_over


@pytest.mark.redis
def test_a_lease_that_ran_out_with_nobody_taking_it_is_taken_back_and_a_released_one_is_not() -> (
    None
):
    import redis.asyncio as aioredis

    from meeple.tables.cluster.owners import OWNER_PREFIX, RedisLeases

    url = require_redis()

    async def scenario() -> tuple[str | None, str | None, str]:
        client = aioredis.Redis.from_url(url)
        leases = RedisLeases(client, 0.4, url)
        kept, released = f"retake-{time.time_ns()}", f"released-{time.time_ns()}"
        try:
            assert await leases.acquire(kept) and await leases.acquire(released)
            await client.delete(OWNER_PREFIX + kept)  # as if it had run out, nobody taking it
            await leases.renew([kept, released])
            await leases.release([released])  # the keeper's thread must not take it back
            await asyncio.sleep(0.5)
            assert await leases.renew([kept]) == set()
            await asyncio.sleep(0.3)
            return await leases.owner_of(kept), await leases.owner_of(released), leases.server_id
        finally:
            leases.close()
            await client.aclose()

    kept_owner, released_owner, me = run_async(scenario())
    assert kept_owner == me and released_owner is None
