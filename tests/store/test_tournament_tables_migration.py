"""Migration 0021: the tables a tournament opened before it are marked as its games (no
takebacks there, docs/server.md "Takebacks"); every other table is not."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from meeple.store.database import Database, alembic_config

TABLE = (
    "INSERT INTO game_tables (id, game, options, seed, seat_count, private, invite_token,"
    " rated, pace, move_seconds, creator_id, auto_start, status, created_at)"
    " VALUES (:id, 'summy', '{}', 1, 2, false, 'tok', false, 'realtime', 60, :user, true,"
    " 'playing', 1.0)"
)
TOURNAMENT = (
    "INSERT INTO tournaments (id, name, game, options, format, rounds, table_size, pace,"
    " move_seconds, starts_at, rated, bots_allowed, private, max_players, creator_id, status,"
    " round, created_at) VALUES ('k1', 'Casual', 'summy', '{}', 'swiss', 1, 2, 'realtime', 60,"
    " 1.0, false, false, false, 16, :user, 'running', 1, 1.0)"
)
GAME = (
    "INSERT INTO tournament_games (table_id, tournament_id, round, board, players, status)"
    " VALUES ('in-k1', 'k1', 1, 1, '[1, 2]', 'playing')"
)


def test_tables_opened_by_a_tournament_before_0021_are_marked_its_games(db_url: str) -> None:
    database = Database(db_url)
    config = alembic_config()
    with database.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0020")
    with database.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (name, name_key, password_hash, guest, created_at)"
                " VALUES ('ada', 'ada', NULL, false, 1.0)"
            )
        )
        user = connection.scalar(text("SELECT id FROM users WHERE name_key = 'ada'"))
        for table_id in ("in-k1", "casual"):
            connection.execute(text(TABLE), {"id": table_id, "user": user})
        connection.execute(text(TOURNAMENT), {"user": user})
        connection.execute(text(GAME))
    database.migrate()
    with database.engine.connect() as connection:
        rows = connection.execute(text("SELECT id, tournament FROM game_tables ORDER BY id"))
        assert [(row.id, bool(row.tournament)) for row in rows] == [
            ("casual", False),
            ("in-k1", True),
        ]
    database.close()
