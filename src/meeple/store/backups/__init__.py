"""Backing up a site's database into one file, and restoring it: ``meeple backup`` / ``restore``.

The database is the whole of a site's lasting state: accounts, sessions,
tables and their event logs, ratings, reviews, puzzles, notifications, the
key that signs cookies, and the schema's Alembic revision (``alembic_version``).
Redis holds only what lapses by itself (leases, rate-limit counts, open
streams), so it is not backed up.

- SQLite (:mod:`meeple.store.backups.sqlite`): SQLite's online backup API, a
  consistent copy taken while servers write; the backup is a SQLite file.
- PostgreSQL (:mod:`meeple.store.backups.postgres`): ``pg_dump --format=custom``
  and ``pg_restore --clean --if-exists``; the backup is a custom-format dump.

A restore replaces the target database's tables with the backup's, and needs
every server using that database stopped: it refuses while one holds it open.
A backup made at an older revision is restored as it is; the next server to
start migrates it forward. One made by a newer meeple (a revision this one
does not know) is refused, as no server of this version could start on it.
"""

from __future__ import annotations

from pathlib import Path

from meeple.store.backups import postgres, sqlite
from meeple.store.backups.common import BackupError, BackupInfo, engine_of_file, engine_of_url

__all__ = ["BackupError", "BackupInfo", "backup", "restore"]


def backup(url: str, path: Path) -> BackupInfo:
    """Copy the database at ``url`` into the file ``path``, while servers may be using it.

    The copy is written beside ``path`` and moved into place once complete, so a
    failed backup never leaves a partial file under that name.
    """
    if engine_of_url(url) == "sqlite":
        return sqlite.backup(url, path)
    return postgres.backup(url, path)


def restore(path: Path, url: str, replace: bool) -> BackupInfo:
    """Replace the database at ``url`` with the backup ``path``; every server must be stopped.

    ``replace``: the database may already hold tables (else that is refused, so a
    mistyped ``MEEPLE_DB`` cannot lose a site).
    """
    kind, target = engine_of_file(path), engine_of_url(url)
    if kind != target:
        raise BackupError(
            f"{path} is a {kind} backup and the database is {target}: restore it"
            f" into a {kind} database"
        )
    if kind == "sqlite":
        return sqlite.restore(path, url, replace)
    return postgres.restore(path, url, replace)
