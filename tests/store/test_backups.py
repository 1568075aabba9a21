"""``meeple backup`` / ``meeple restore`` on their own: what a backup holds, what a restore refuses.

The round trip of a live site (a server running, games in progress) is in
test_backup_round_trip.py.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from scratch_databases import scratch_database
from sqlalchemy import text

from meeple.cli import main
from meeple.store import backups
from meeple.store.backups.common import BackupError, revisions
from meeple.store.database import Database, alembic_config, make_engine

OLD_REVISION = "0010"
"""A schema revision well behind the newest, that a restored backup is migrated forward from."""


def migrated(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` to ``revision`` (the newest by default)."""
    engine = make_engine(url)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()


def stored_revision(url: str) -> str:
    """The revision ``alembic_version`` holds."""
    db = Database(url)
    try:
        return str(
            db.call(
                lambda s: s.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
            )
        )
    finally:
        db.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def two_databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A site's database and a fresh one to restore into, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'site.db'}", f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    with scratch_database() as site, scratch_database() as fresh:
        yield site, fresh


def test_an_older_backup_is_restored_as_it_is_and_the_next_start_migrates_it_forward(
    two_databases: tuple[str, str], tmp_path: Path
) -> None:
    site, fresh = two_databases
    migrated(site, OLD_REVISION)
    file = tmp_path / "site.backup"
    made = backups.backup(site, file)
    assert made.revision == OLD_REVISION and file.stat().st_size == made.size
    assert not (tmp_path / "site.backup.partial").exists()
    restored = backups.restore(file, fresh, replace=False)
    assert restored.revision == OLD_REVISION == stored_revision(fresh)
    db = Database(fresh)  # what meeple serve does first
    db.migrate()
    db.close()
    head, _known = revisions()
    assert stored_revision(fresh) == head


def test_a_database_with_tables_is_replaced_only_when_asked(
    two_databases: tuple[str, str], tmp_path: Path
) -> None:
    site, fresh = two_databases
    migrated(site, OLD_REVISION)
    migrated(fresh)  # a newer schema, with tables the old backup has not
    file = tmp_path / "site.backup"
    backups.backup(site, file)
    with pytest.raises(BackupError, match="add --replace"):
        backups.restore(file, fresh, replace=False)
    head, _known = revisions()
    assert stored_revision(fresh) == head  # nothing changed
    backups.restore(file, fresh, replace=True)
    assert stored_revision(fresh) == OLD_REVISION
    db = Database(fresh)
    db.migrate()  # the newer revisions' tables went with the restore: they are made again
    db.close()
    assert stored_revision(fresh) == head


def test_a_backup_from_a_newer_meeple_is_refused(tmp_path: Path) -> None:
    site = f"sqlite:///{tmp_path / 'site.db'}"
    migrated(site)
    with sqlite3.connect(tmp_path / "site.db") as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    backups.backup(site, tmp_path / "newer.db")
    with pytest.raises(BackupError, match="revision 9999, which this meeple does not know"):
        backups.restore(tmp_path / "newer.db", f"sqlite:///{tmp_path / 'fresh.db'}", False)
    assert not (tmp_path / "fresh.db").exists()


def test_a_sqlite_database_open_elsewhere_is_not_restored_over(tmp_path: Path) -> None:
    site = f"sqlite:///{tmp_path / 'site.db'}"
    migrated(site)
    backups.backup(site, tmp_path / "site.backup")
    running = Database(site)  # a server's pool: a connection kept open
    try:
        running.call(lambda s: s.execute(text("SELECT 1")))
        with pytest.raises(BackupError, match="open in another process"):
            backups.restore(tmp_path / "site.backup", site, replace=True)
    finally:
        running.close()
    backups.restore(tmp_path / "site.backup", site, replace=True)


def test_the_command_line_names_each_refusal_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = f"sqlite:///{tmp_path / 'site.db'}"
    migrated(site)
    assert main(["backup", str(tmp_path / "b.db"), "--db", site]) == 0
    assert capsys.readouterr().out.startswith(f"backed up {site} (schema revision")
    cases = [
        (["backup", str(tmp_path / "site.db"), "--db", site], "is the database itself"),
        (["restore", str(tmp_path / "b.db"), "--db", site], "add --replace"),
        (["restore", str(tmp_path / "none.db"), "--db", site], "cannot read"),
        (["restore", __file__, "--db", site], "is not a meeple backup"),
        (["restore", str(tmp_path / "b.db"), "--db", "postgresql://u@h/d"], "is a sqlite backup"),
        (["backup", str(tmp_path / "c.db"), "--db", "mysql://x"], "bad setting --db"),
    ]
    for argv, words in cases:
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        err = capsys.readouterr().err
        assert stopped.value.code in (1, 2) and words in err and err.count("\n") == 1, argv
    assert not (tmp_path / "c.db").exists()


def test_missing_postgresql_tools_are_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    with pytest.raises(BackupError, match=r"pg_dump is not installed.*postgresql-client"):
        backups.backup("postgresql://nobody@127.0.0.1:1/none", tmp_path / "site.dump")
    (tmp_path / "site.dump").write_bytes(b"PGDMP and the rest")
    with pytest.raises(BackupError, match="pg_restore is not installed"):
        backups.restore(tmp_path / "site.dump", "postgresql://nobody@127.0.0.1:1/none", False)


def test_a_password_goes_to_the_tools_in_their_environment_not_their_arguments() -> None:
    from meeple.store.backups.postgres import libpq_target

    target, env = libpq_target(
        "postgresql+psycopg://site:s3cret@db.example:5433/meeple?sslmode=require"
    )
    assert target == "postgresql://site@db.example:5433/meeple?sslmode=require"
    assert env["PGPASSWORD"] == "s3cret"
