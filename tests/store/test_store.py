"""Storage on SQLite and PostgreSQL: migrations, users, the versioned event log, ratings."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from server_harness import run_async
from sqlalchemy import inspect, text
from sqlalchemy.orm import Session

from meeple.store import queries
from meeple.store.database import Database, alembic_config
from meeple.store.models import Base, GameTable, Rating, TableSeat


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    database = Database(db_url)
    database.migrate()
    yield database
    database.close()


def a_table(db: Database, table_id: str = "t1", private: bool = False) -> None:
    user_id = db.call(old_schema_user, f"owner-{table_id}")
    row = GameTable(
        id=table_id, game="slide", options={"players": 2}, seed=2**61, seat_count=2,
        private=private, invite_token="tok", rated=False, pace="realtime", move_seconds=60,
        creator_id=user_id, auto_start=False, status="open", created_at=1.0,
    )  # fmt: skip
    seats = [TableSeat(table_id=table_id, seat=s, zombie=False, left=False, timeouts=0,
                       wants_rematch=False) for s in range(2)]  # fmt: skip
    db.call(queries.insert_table, row, seats)


def old_schema_user(session: Session, name: str) -> int:
    """A guest inserted through the columns every revision has (a test migrates from old
    revisions, before ``users`` had its later columns such as ``bot``)."""
    session.execute(
        text(
            "INSERT INTO users (name, name_key, password_hash, guest, created_at)"
            " VALUES (:name, :key, NULL, :guest, 1.0)"
        ),
        {"name": name, "key": name.lower(), "guest": True},
    )
    found = session.scalar(
        text("SELECT id FROM users WHERE name_key = :key"), {"key": name.lower()}
    )
    return int(found)


def event(
    table_id: str, version: int, client_id: str | None = None, user_id: int | None = None
) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "version": version,
        "kind": "chat",
        "seat": None,
        "user_id": user_id,
        "client_id": client_id,
        "data": {"text": "hi"},
        "at": 2.0,
    }


def test_migrations_create_exactly_the_models_and_run_twice(db: Database) -> None:
    db.migrate()
    names = set(inspect(db.engine).get_table_names())
    assert {"users", "game_tables", "table_seats", "table_events", "ratings",
            "rating_changes", "alembic_version"} <= names  # fmt: skip
    with db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_names_are_unique_whatever_the_case(db: Database) -> None:
    db.call(queries.create_user, "Ada", "hash", False, 1.0)
    with pytest.raises(queries.NameTaken):
        db.call(queries.create_user, "ADA", "hash", False, 1.0)
    found = db.call(queries.user_by_name, "aDa")
    assert found is not None and found.name == "Ada"


def test_a_guest_upgrade_keeps_the_id(db: Database) -> None:
    guest = db.call(queries.create_user, "guest-abc", None, True, 1.0)
    account = db.call(queries.upgrade_guest, guest.id, "Grace", "hash")
    assert (account.id, account.name, account.guest) == (guest.id, "Grace", False)
    with pytest.raises(ValueError, match="only a guest"):
        db.call(queries.upgrade_guest, guest.id, "Again", "hash")


def test_a_version_is_stored_once_so_one_writer_wins(db: Database) -> None:
    a_table(db)
    db.call(queries.append_event, event("t1", 1))
    with pytest.raises(queries.VersionConflict):
        db.call(queries.append_event, event("t1", 1))
    db.call(queries.append_event, event("t1", 2))
    assert [e.version for e in db.call(queries.events_after, "t1", 0)] == [1, 2]
    assert [e.version for e in db.call(queries.events_after, "t1", 1)] == [2]


def test_stored_json_reads_back_exactly(db: Database) -> None:
    """Integers beyond 64 bits, floats and any text come back as they were stored."""
    a_table(db)
    data = {"big": 10**30, "low": -(10**19) + 1, "max": 2**64 - 1, "x": 0.1, "text": "é 🎲"}
    db.call(queries.append_event, event("t1", 1) | {"data": data})
    [stored] = db.call(queries.events_after, "t1", 0)
    assert stored.data == data
    assert all(type(stored.data[k]) is type(v) for k, v in data.items())


def test_a_client_action_id_is_stored_once_per_user(db: Database) -> None:
    a_table(db)
    owner = db.call(queries.user_by_name, "owner-t1")
    db.call(queries.append_event, event("t1", 1, "c1", owner.id))
    with pytest.raises(queries.VersionConflict):
        db.call(queries.append_event, event("t1", 2, "c1", owner.id))
    stored = db.call(queries.events_after, "t1", 0)
    assert [(e.version, e.client_id) for e in stored] == [(1, "c1")]


def test_open_public_tables_leave_out_private_and_started_ones(db: Database) -> None:
    a_table(db, "pub")
    a_table(db, "priv", private=True)
    a_table(db, "run")
    db.call(queries.update_table, "run", {"status": "playing"})
    assert [t.id for t, _ in db.call(queries.open_public_tables, None)] == ["pub"]
    assert db.call(queries.open_public_tables, "summy") == []
    assert db.call(queries.table_ids_with_status, ["open", "playing"]) == ["pub", "priv", "run"]


def test_the_leaderboard_orders_by_mu_minus_three_sigma(db: Database) -> None:
    ids = [db.call(queries.create_user, name, "h", False, 1.0).id for name in ("a1", "b1", "c1")]
    ratings = [
        Rating(user_id=ids[0], game="slide", mu=30.0, sigma=8.0, games=1, wins=1),  # 6
        Rating(user_id=ids[1], game="slide", mu=26.0, sigma=2.0, games=9, wins=3),  # 20
        Rating(user_id=ids[2], game="summy", mu=40.0, sigma=1.0, games=2, wins=2),
    ]
    db.call(queries.save_ratings, ratings, [])
    board = db.call(queries.leaderboard, "slide", 10)
    assert [name for _, name in board] == ["b1", "a1"]


def test_writes_waiting_together_commit_together_and_a_conflict_fails_alone(db: Database) -> None:
    a_table(db)
    db.call(queries.append_event, event("t1", 1))

    async def scenario() -> list[object]:
        writes = [db.write(queries.append_event, event("t1", v)) for v in (2, 1, 3, 4)]
        return await asyncio.gather(*writes, return_exceptions=True)

    outcomes = run_async(scenario())
    assert [type(o).__name__ for o in outcomes] == [
        "NoneType",
        "VersionConflict",
        "NoneType",
        "NoneType",
    ]
    assert [e.version for e in db.call(queries.events_after, "t1", 0)] == [1, 2, 3, 4]


def test_a_group_commit_inserts_its_events_in_one_statement(db: Database) -> None:
    """Hundreds of tables writing at once make one INSERT of their events, not one each
    (each round trip waited for the interpreter, held by the busy event loop)."""
    for n in range(20):
        a_table(db, f"g{n}")
    inserts: list[bool] = []

    def counted(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool):
        if statement.startswith("INSERT INTO table_events"):
            inserts.append(many)

    sqlalchemy.event.listen(db.engine, "before_cursor_execute", counted)

    async def scenario() -> None:
        await asyncio.gather(
            *(db.write(queries.append_event, event(f"g{n}", v)) for n in range(20) for v in (1, 2))
        )

    run_async(scenario())
    sqlalchemy.event.remove(db.engine, "before_cursor_execute", counted)
    assert len(inserts) <= 2  # the first write alone, then the 39 that waited for it
    assert [e.version for e in db.call(queries.events_after, "g7", 0)] == [1, 2]


def test_events_alone_are_inserted_on_a_kept_connection_without_a_session(db: Database) -> None:
    """A move's event changes nothing else: groups of them take no ORM session and no
    connection from the pool each time, and a conflict still fails alone."""
    a_table(db)
    checkouts: list[int] = []
    sessions: list[int] = []
    sqlalchemy.event.listen(db.engine, "checkout", lambda *_: checkouts.append(1))
    sqlalchemy.event.listen(db.sessions, "after_begin", lambda *_: sessions.append(1))

    async def scenario() -> list[list[object]]:
        rounds = []
        for versions in ((1, 2), (3, 2, 4), (5,)):  # version 2 again: a conflict
            writes = [db.write_event(event("t1", v)) for v in versions]
            rounds.append(await asyncio.gather(*writes, return_exceptions=True))
        return rounds

    outcomes = run_async(scenario())
    kinds = [[type(o).__name__ for o in round_] for round_ in outcomes]
    assert kinds == [["NoneType"] * 2, ["NoneType", "VersionConflict", "NoneType"], ["NoneType"]]
    assert [e.version for e in db.call(queries.events_after, "t1", 0)] == [1, 2, 3, 4, 5]
    # One checkout for the kept connection, given back after the conflict and taken again;
    # sessions only where the conflicting group was retried one write at a time.
    assert len(checkouts) - len(sessions) == 2


def test_an_event_with_other_changes_commits_them_in_its_transaction(db: Database) -> None:
    a_table(db)

    def start(session: Session) -> None:
        queries.update_table(session, "t1", {"status": "playing"})

    async def scenario() -> list[object]:
        writes = [db.write_event(event("t1", 1), start), db.write_event(event("t1", 1), start)]
        return await asyncio.gather(*writes, return_exceptions=True)

    outcomes = run_async(scenario())
    assert [type(o).__name__ for o in outcomes] == ["NoneType", "VersionConflict"]
    assert [e.version for e in db.call(queries.events_after, "t1", 0)] == [1]
    assert db.call(queries.table_ids_with_status, ["playing"]) == ["t1"]


def test_a_new_table_and_its_first_event_are_stored_in_one_transaction(db: Database) -> None:
    """The table's row goes before its events (which refer to it), though both are queued."""

    user = db.call(queries.create_user, "owner-fresh", None, True, 1.0)

    def create(session: Any) -> None:
        row = GameTable(
            id="fresh", game="slide", options={"players": 2}, seed=1, seat_count=2,
            private=False, invite_token="tok", rated=False, pace="realtime", move_seconds=60,
            creator_id=user.id, auto_start=False, status="open", created_at=1.0,
        )  # fmt: skip
        queries.insert_table(session, row, [])
        queries.append_event(session, event("fresh", 1))

    db.call(create)
    assert [e.version for e in db.call(queries.events_after, "fresh", 0)] == [1]


def test_stored_actions_with_extra_keys_are_rewritten_so_old_records_replay(db_url: str) -> None:
    database = Database(db_url)
    config = alembic_config()
    with database.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
    a_table(database, "old")
    junk = {"type": "take", "value": 3, "side": "left", "junk": "J" * 100}
    place = {"type": "place", "dir": "H", "tiles": [{"row": 0, "col": 0, "tile": "1", "x": 1}]}
    for version, action in ((1, junk), (2, place)):
        data = {"action": action, "by": "player"}
        row = {"table_id": "old", "version": version, "kind": "action", "seat": 0,
               "user_id": None, "client_id": None, "data": data, "at": 1.0}  # fmt: skip
        database.call(queries.append_event, row)
    database.migrate()
    stored = [row.data["action"] for row in database.call(queries.events_after, "old", 0)]
    assert stored == [
        {"type": "take", "value": 3, "side": "left"},
        {"type": "place", "dir": "H", "tiles": [{"row": 0, "col": 0, "tile": "1"}]},
    ]
    database.close()


def test_tables_are_read_with_their_events_in_order_many_at_once(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(queries, "LOAD_CHUNK", 2)  # several chunks with three tables
    for table_id in ("a", "b", "c"):
        a_table(db, table_id)
        for version in (2, 1, 3) if table_id != "b" else (1,):
            db.call(queries.append_event, event(table_id, version))
    found = db.call(queries.tables_with_events, ["c", "a", "nowhere", "b", "a"])
    assert sorted(found) == ["a", "b", "c"]
    assert {t: [e.version for e in events] for t, (_row, events) in found.items()} == {
        "a": [1, 2, 3],
        "b": [1],
        "c": [1, 2, 3],
    }
    assert all(row.id == t for t, (row, _events) in found.items())


def finished_before_busy_reads(db: Database, work: Any) -> bool:
    """Whether ``work`` (an awaitable of ``db``'s) finished before any of eight slow reads
    asked for just before it, which hold every read thread of ``db``."""

    def slow_read(session: Any) -> str:
        session.execute(sqlalchemy.text("SELECT pg_sleep(1)"))
        return "read"

    async def scenario() -> list[str]:
        finished: list[str] = []

        async def note(name: str, awaited: Any) -> None:
            await awaited
            finished.append(name)

        reads = [note("read", db.run(slow_read)) for _ in range(8)]
        await asyncio.gather(*reads, note("work", work))
        return finished

    try:
        return run_async(scenario())[0] == "work"
    finally:
        db.close()


@pytest.mark.postgres
def test_a_write_commits_while_every_read_thread_is_busy(pg_url: str) -> None:
    """Group commits have a thread of their own on PostgreSQL: a burst of reads (a thousand
    players reconnecting) does not hold back the players' moves."""
    db = Database(pg_url)
    db.migrate()
    a_table(db)
    assert finished_before_busy_reads(db, db.write(queries.append_event, event("t1", 1)))


@pytest.mark.postgres
def test_a_read_asked_for_first_answers_while_every_read_thread_is_busy(pg_url: str) -> None:
    """A take-over's reads (``run_first``) do not queue behind the reads of a thousand
    reconnecting sockets."""
    db = Database(pg_url)
    db.migrate()
    a_table(db)
    read_first = db.run_first(queries.table_ids_with_status, ["open", "playing"])
    assert finished_before_busy_reads(db, read_first)
