"""SQLite backups through SQLite's online backup API (``sqlite3.Connection.backup``).

Backing up reads the database in one step inside one read transaction: with
the write-ahead log the servers use, that read sees one consistent moment and
never stops them writing. The backup is a plain SQLite file (rollback journal,
not WAL), readable by any ``sqlite3``.

Restoring copies the backup into the database through a connection that holds
SQLite's exclusive lock for the whole copy. Every connection a server keeps
open holds a shared lock on the file, so while any server (or anything else)
has the database open the lock is refused, and the restore with it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

from meeple.store.backups.common import (
    BackupError,
    BackupInfo,
    check_revision,
    partial_path,
)


def database_path(url: str) -> Path:
    """The file a ``sqlite:///`` URL names."""
    name = make_url(url).database
    if not name or name == ":memory:":
        raise BackupError(f"{url} names no database file")
    return Path(name)


def revision_of(connection: sqlite3.Connection, where: object) -> str:
    """The Alembic revision stored in an open SQLite database; refused if it has none."""
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        row = None
    if row is None:
        raise BackupError(f"{where} is not a meeple database (it has no schema revision)")
    return str(row[0])


def check_intact(connection: sqlite3.Connection, where: object) -> None:
    """Refuse a damaged SQLite database (``PRAGMA quick_check``)."""
    try:
        verdict = connection.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{where} is not a readable SQLite database: {exc}") from exc
    if verdict != "ok":
        raise BackupError(f"{where} is damaged: {verdict}")


def backup(url: str, path: Path) -> BackupInfo:
    """Copy the live SQLite database at ``url`` into the file ``path``."""
    source_path = database_path(url)
    if not source_path.is_file():
        raise BackupError(f"there is no database at {source_path}")
    if path.resolve() == source_path.resolve():
        raise BackupError(f"{path} is the database itself: back it up into another file")
    written = partial_path(path)
    written.unlink(missing_ok=True)
    try:
        with (
            contextlib.closing(sqlite3.connect(source_path, timeout=30)) as source,
            contextlib.closing(sqlite3.connect(written)) as copy,
        ):
            source.backup(copy)  # one step: one read transaction, one moment
            copy.execute("PRAGMA journal_mode=DELETE")
            check_intact(copy, path)
            revision = revision_of(copy, source_path)
        os.replace(written, path)
    except sqlite3.Error as exc:
        written.unlink(missing_ok=True)
        raise BackupError(f"cannot back up {source_path}: {exc}") from exc
    except BaseException:
        written.unlink(missing_ok=True)
        raise
    return BackupInfo("sqlite", revision, path.stat().st_size)


def restore(path: Path, url: str, replace: bool) -> BackupInfo:
    """Replace the SQLite database at ``url`` with the backup ``path``; refused while it is
    open elsewhere, or when it holds tables and ``replace`` is false."""
    target_path = database_path(url)
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as source:
            check_intact(source, path)
            revision = revision_of(source, path)
            check_revision(revision, path)
            target_path.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.closing(
                sqlite3.connect(target_path, timeout=0, isolation_level=None)
            ) as target:
                take_exclusive_lock(target, target_path)
                tables = target.execute(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                ).fetchone()[0]
                if tables and not replace:
                    raise BackupError(
                        f"{target_path} holds a database already: add --replace to replace it"
                        " with the backup"
                    )
                source.backup(target)
                check_intact(target, target_path)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot restore {path} into {target_path}: {exc}") from exc
    return BackupInfo("sqlite", revision, path.stat().st_size)


def take_exclusive_lock(connection: sqlite3.Connection, where: Path) -> None:
    """Hold SQLite's exclusive lock on the database until ``connection`` closes.

    Refused at once (no waiting) while any other connection has the file open:
    a running server keeps its connections open, each holding a shared lock.
    """
    connection.execute("PRAGMA locking_mode=EXCLUSIVE")
    try:
        connection.execute("BEGIN EXCLUSIVE")
        connection.execute("COMMIT")  # in exclusive locking mode the lock stays taken
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc):
            raise
        raise BackupError(
            f"{where} is open in another process (a meeple server?): stop every server using"
            " it, then restore"
        ) from None
