"""Tournaments in the store, on SQLite and PostgreSQL: the cap on open tournaments, joining
up to the field's size, a round stored once with its games and byes, a result recorded once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from meeple.store import queries
from meeple.store import tournaments as store
from meeple.store.database import Database
from meeple.store.models import Base


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    database = Database(db_url)
    database.migrate()
    yield database
    database.close()


def a_user(db: Database, name: str) -> int:
    return db.call(lambda s: queries.create_user(s, name, None, True, 1.0).id)


def values(tournament_id: str, creator: int, **extra: Any) -> dict[str, Any]:
    row = {"id": tournament_id, "name": "Friday Swiss", "game": "summy", "options": {},
           "format": "swiss", "rounds": 3, "duration_s": None, "table_size": 2,
           "pace": "realtime", "move_seconds": 60, "round_s": None, "starts_at": 100.0,
           "rated": False, "bots_allowed": False, "private": False, "secret": None,
           "max_players": 3, "creator_id": creator, "status": store.SCHEDULED, "round": 0,
           "created_at": 1.0, "finished_at": None}  # fmt: skip
    row.update(extra)
    return row


def test_the_migration_makes_exactly_the_models(db: Database) -> None:
    with db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_a_creator_holds_at_most_the_cap_of_open_tournaments(db: Database) -> None:
    ada = a_user(db, "Ada")
    assert db.call(store.insert_tournament_within, values("t1", ada), 2)
    assert db.call(store.insert_tournament_within, values("t2", ada), 2)
    assert not db.call(store.insert_tournament_within, values("t3", ada), 2)
    assert db.call(store.tournament_by_id, "t3") is None  # nothing half-created
    assert db.call(store.set_status, "t1", [store.SCHEDULED], store.CANCELLED, 5.0)
    assert not db.call(store.set_status, "t1", [store.SCHEDULED], store.RUNNING, 6.0)
    assert db.call(store.insert_tournament_within, values("t3", ada), 2)


def test_joining_fills_the_field_and_a_withdrawn_player_may_come_back(db: Database) -> None:
    ada, bob, cy, dee = (a_user(db, name) for name in ("Ada", "Bob", "Cy", "Dee"))
    db.call(store.insert_tournament_within, values("t1", ada), 5)
    for user in (ada, bob, cy):
        assert db.call(store.join, "t1", user, 2.0) is None
    assert db.call(store.join, "t1", ada, 2.5) is None  # again: nothing changes
    assert db.call(store.join, "t1", dee, 3.0) == "full"
    assert db.call(store.withdraw, "t1", bob, 4.0)
    assert not db.call(store.withdraw, "t1", bob, 4.5)
    assert db.call(store.join, "t1", dee, 5.0) is None
    assert db.call(store.join, "t1", bob, 6.0) == "full"
    names = [
        (user.name, entrant.withdrawn_at) for entrant, user in db.call(store.entrants_of, "t1")
    ]
    assert names == [("Ada", None), ("Bob", 4.0), ("Cy", None), ("Dee", None)]
    db.call(store.set_status, "t1", [store.SCHEDULED], store.FINISHED, 9.0)
    assert db.call(store.join, "t1", bob, 10.0) == store.FINISHED


def test_a_round_is_stored_once_and_each_result_once(db: Database) -> None:
    ada, bob, cy = (a_user(db, name) for name in ("Ada", "Bob", "Cy"))
    db.call(store.insert_tournament_within, values("t1", ada), 5)
    db.call(store.set_status, "t1", [store.SCHEDULED], store.RUNNING, 2.0)
    games = [("tab1", [ada, bob])]
    assert db.call(store.store_round, "t1", 1, 3.0, None, games, [cy])
    assert not db.call(store.store_round, "t1", 1, 3.0, None, [("tab9", [ada, cy])], [bob])
    assert not db.call(store.store_round, "t1", 3, 3.0, None, [], [])  # not the next round
    assert [(g.table_id, g.status) for g in db.call(store.games_of, "t1")] == [("tab1", "pending")]
    assert [(b.round, b.user_id) for b in db.call(store.byes_of, "t1")] == [(1, cy)]
    db.call(store.mark_playing, ["tab1"])
    assert [g.table_id for g in db.call(store.games_of_tables, ["tab1", "other"])] == ["tab1"]
    assert db.call(store.record_finish, "tab1", [2, 1], "played", 4.0)
    assert not db.call(store.record_finish, "tab1", [1, 2], "played", 5.0)
    game = db.call(store.games_of, "t1")[0]
    assert (game.status, game.ranks, game.seq) == ("finished", [2, 1], 1)
    assert db.call(store.store_round, "t1", 2, 6.0, 99.0, [("tab2", [cy, ada])], [bob])
    assert [r.deadline for r in db.call(store.rounds_of, "t1")] == [None, 99.0]


def test_the_public_list_leaves_private_ones_out(db: Database) -> None:
    ada = a_user(db, "Ada")
    db.call(store.insert_tournament_within, values("t1", ada, starts_at=50.0), 9)
    db.call(store.insert_tournament_within, values("t2", ada, private=True, secret="s"), 9)
    db.call(store.insert_tournament_within, values("t3", ada, starts_at=20.0), 9)
    db.call(store.join, "t1", ada, 2.0)
    listed = db.call(store.public_tournaments, [store.SCHEDULED], 10)
    assert [(t.id, count) for t, count in listed] == [("t3", 0), ("t1", 1)]
    assert db.call(store.tournaments_of, ada) == ["t1"]
