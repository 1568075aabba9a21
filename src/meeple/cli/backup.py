"""``meeple backup FILE`` and ``meeple restore FILE``: a site's database into one file and back.

Both find the database as ``meeple serve`` does (``--db`` / ``MEEPLE_DB``, else
the SQLite file in ``--data-dir`` / ``MEEPLE_DATA_DIR``); see
:mod:`meeple.store.backups` for what each database engine does.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from meeple.config import ConfigError, Settings, load_settings
from meeple.games.kit.commands import fail
from meeple.store.backups import BackupError, backup, restore
from meeple.store.backups.common import revisions, shown


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``backup`` and ``restore`` commands."""
    saving = subparsers.add_parser(
        "backup",
        help="copy the site's database into a file, while servers run",
        description=(
            "Copy the database meeple serve uses into FILE: SQLite through its online backup"
            " API, PostgreSQL with pg_dump --format=custom. Servers may go on running."
        ),
    )
    saving.add_argument("file", type=Path, metavar="FILE", help="the backup to write")
    database_flags(saving)
    saving.set_defaults(func=run_backup)
    loading = subparsers.add_parser(
        "restore",
        help="replace the site's database with a backup (servers stopped)",
        description=(
            "Replace the database meeple serve uses with the backup FILE. Every server using"
            " the database must be stopped first (refused while one is connected). An older"
            " backup is migrated forward by the next server to start."
        ),
    )
    loading.add_argument("file", type=Path, metavar="FILE", help="a file meeple backup wrote")
    loading.add_argument(
        "--replace",
        action="store_true",
        help="the database may hold tables already: replace them (else refused)",
    )
    database_flags(loading)
    loading.set_defaults(func=run_restore)


def database_flags(parser: argparse.ArgumentParser) -> None:
    """The flags that name the database, as ``meeple serve`` has them."""
    parser.add_argument("--db", help="database URL: sqlite:///FILE or postgresql://...")
    parser.add_argument("--data-dir", help="folder of the default SQLite file")


def settings_of(args: argparse.Namespace) -> Settings:
    """The settings the flags and ``MEEPLE_*`` variables give; one line and exit if wrong."""
    try:
        return load_settings(db=args.db, data_dir=args.data_dir)
    except ConfigError as exc:
        fail(str(exc))


def run_backup(args: argparse.Namespace) -> int:
    """Write the backup; one line saying what it holds."""
    url = settings_of(args).database_url
    try:
        info = backup(url, args.file)
    except BackupError as exc:
        fail(f"cannot back up: {exc}", status=1)
    print(
        f"backed up {shown(url)} (schema revision {info.revision}) into {args.file}"
        f" ({info.size:,} bytes)"
    )
    return 0


def run_restore(args: argparse.Namespace) -> int:
    """Restore the backup; one line saying what the next server start does with it."""
    url = settings_of(args).database_url
    try:
        info = restore(args.file, url, replace=args.replace)
    except BackupError as exc:
        fail(f"cannot restore: {exc}", status=1)
    head, _known = revisions()
    then = (
        "the servers may start"
        if info.revision == head
        else f"the next server to start migrates it to revision {head}"
    )
    print(f"restored {args.file} (schema revision {info.revision}) into {shown(url)}; {then}")
    return 0
