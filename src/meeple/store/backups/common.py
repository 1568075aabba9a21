"""What every backup shares: its error, what a backup file holds, the schema revision."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from meeple.store.database import alembic_config

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""

PG_DUMP_MAGIC = b"PGDMP"
"""The first bytes of a ``pg_dump --format=custom`` archive."""


class BackupError(RuntimeError):
    """A backup or restore that stopped; the message says why in one line."""


@dataclass(frozen=True)
class BackupInfo:
    """What a backup file holds: its database engine, its schema revision, its size."""

    engine: str
    """``sqlite`` or ``postgresql``."""
    revision: str
    """The Alembic revision of the schema backed up."""
    size: int
    """The file's size in bytes."""


def engine_of_url(url: str) -> str:
    """``sqlite`` or ``postgresql``, the engine a database URL names."""
    if url.startswith("sqlite"):
        return "sqlite"
    if url.startswith("postgresql"):
        return "postgresql"
    raise BackupError(f"cannot back up {url.split(':', 1)[0]}: only SQLite and PostgreSQL")


def engine_of_file(path: Path) -> str:
    """``sqlite`` or ``postgresql``, the kind of backup ``path`` is, read from its first bytes."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise BackupError(
        f"{path} is not a meeple backup (neither a SQLite file nor a pg_dump archive)"
    )


def revisions() -> tuple[str, list[str]]:
    """The newest schema revision this meeple knows, and every revision it knows."""
    script = ScriptDirectory.from_config(alembic_config())
    known = [revision.revision for revision in script.walk_revisions()]
    head = script.get_current_head()
    assert head is not None, "the packaged migrations have one head"
    return head, known


def check_revision(revision: str, path: Path) -> None:
    """Refuse a backup whose schema revision this meeple does not know (a newer version's)."""
    head, known = revisions()
    if revision not in known:
        raise BackupError(
            f"{path} is at schema revision {revision}, which this meeple does not know"
            f" (its newest is {head}): restore it with the meeple version that made it"
        )


def partial_path(path: Path) -> Path:
    """Where a backup is written until it is complete, then renamed to ``path``."""
    return path.with_name(path.name + ".partial")


def shown(url: str) -> str:
    """A database URL for messages: its password (if any) as ``***``."""
    return make_url(url).render_as_string(hide_password=True)
