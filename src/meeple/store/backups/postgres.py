"""PostgreSQL backups through PostgreSQL's own tools: ``pg_dump``, ``pg_restore`` and ``psql``.

Backing up runs ``pg_dump --format=custom``: one consistent snapshot of the
whole database ``MEEPLE_DB`` names, taken while the servers write. Restoring
feeds ``pg_restore --clean --if-exists --no-owner --no-privileges`` into
``psql --single-transaction``: the backup's tables replace the database's in
one transaction, so a failed restore changes nothing. Tables the database has
and the backup has not (added by a newer version's migrations) are dropped in
that same transaction, so the next server migrates the backup forward from its
own revision. The restored objects belong to the role that restores them.

Every server names itself ``meeple`` to PostgreSQL (``application_name``, see
:func:`meeple.store.database.make_engine`); a restore refuses while such a
connection to the database exists. The tools come with PostgreSQL's client
package (``postgresql-client`` on Debian); their major version must be at least
the server's.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

from meeple.store.backups.common import (
    BackupError,
    BackupInfo,
    check_revision,
    partial_path,
    shown,
)
from meeple.store.database import APPLICATION_NAME, normalise_url

TABLE_ENTRY = re.compile(r"^\d+; \d+ \d+ TABLE (\S+) (\S+) ")
"""A table in ``pg_restore --list``: ``230; 1259 41931 TABLE public users postgres``."""


def tool(name: str) -> str:
    """The path of a PostgreSQL client tool; refused with what to install when it is missing."""
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed (or not on PATH): install PostgreSQL's client tools"
            " (Debian: apt install postgresql-client), of the server's major version or newer"
        )
    return found


def libpq_target(url: str) -> tuple[str, dict[str, str]]:
    """``url`` as the tools read it (no driver name, no password), and their environment.

    The password travels in ``PGPASSWORD``, not on the command line, where any
    user of the machine could read it.
    """
    parsed = make_url(url)
    env = dict(os.environ)
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    plain = URL.create(
        "postgresql", parsed.username, None, parsed.host, parsed.port, parsed.database, parsed.query
    )
    return plain.render_as_string(hide_password=False), env


def run(command: list[str], env: dict[str, str], what: str) -> str:
    """Run one tool to its end; its standard output, or its first error line as a refusal."""
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{what} failed: {first_error(done.stderr)}")
    return done.stdout


def first_error(stderr: str) -> str:
    """The line of a tool's error output that says what went wrong."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "error" in line.lower() or "fatal" in line.lower():
            return line
    return lines[0] if lines else "no message"


def archive_revision(path: Path) -> str:
    """The Alembic revision stored in a ``pg_dump`` archive (its ``alembic_version`` row)."""
    script = run(
        [tool("pg_restore"), "--data-only", "--table=alembic_version", "--file=-", str(path)],
        dict(os.environ),
        f"reading {path}",
    )
    lines = script.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("COPY ") and ".alembic_version " in line and number + 1 < len(lines):
            revision = lines[number + 1].strip()
            if revision and revision != "\\.":
                return revision
    raise BackupError(f"{path} is not a meeple backup (it has no schema revision)")


def archive_tables(path: Path) -> set[tuple[str, str]]:
    """The (schema, table) pairs a ``pg_dump`` archive holds."""
    listing = run([tool("pg_restore"), "--list", str(path)], dict(os.environ), f"reading {path}")
    return {
        (match[1], match[2]) for line in listing.splitlines() if (match := TABLE_ENTRY.match(line))
    }


def backup(url: str, path: Path) -> BackupInfo:
    """Dump the database at ``url`` into the custom-format archive ``path``."""
    target, env = libpq_target(url)
    written = partial_path(path)
    written.unlink(missing_ok=True)
    try:
        run(
            [tool("pg_dump"), "--format=custom", "--no-password", f"--file={written}", target],
            env,
            f"pg_dump of {shown(url)}",
        )
        revision = archive_revision(written)
        os.replace(written, path)
    finally:
        written.unlink(missing_ok=True)
    return BackupInfo("postgresql", revision, path.stat().st_size)


def restore(path: Path, url: str, replace: bool) -> BackupInfo:
    """Replace the tables of the database at ``url`` with the archive ``path``'s, in one
    transaction; refused while a server is connected, or when the database holds the
    backup's schemas' tables and ``replace`` is false."""
    pg_restore, psql = tool("pg_restore"), tool("psql")
    revision = archive_revision(path)
    check_revision(revision, path)
    tables = archive_tables(path)
    present = tables_and_servers(url, {schema for schema, _ in tables})
    if present and not replace:
        raise BackupError(
            f"{shown(url)} holds tables already: add --replace to replace them with the backup"
        )
    extra = sorted(present - tables)
    target, env = libpq_target(url)
    command = [psql, "--no-psqlrc", "--quiet", "--no-password", "--set=ON_ERROR_STOP=1"]
    command += ["--single-transaction", "--output=/dev/null"]
    if extra:
        drops = " ".join(f"DROP TABLE IF EXISTS {quoted(s)}.{quoted(t)} CASCADE;" for s, t in extra)
        command.append(f"--command={drops}")
    command += ["--file=-", target]
    script = [pg_restore, "--clean", "--if-exists", "--no-owner", "--no-privileges", "--file=-"]
    with tempfile.TemporaryFile() as dump_errors:
        # pg_restore writes the SQL script that psql runs as it comes, in one transaction.
        dump = subprocess.Popen(
            [*script, str(path)], env=env, stdout=subprocess.PIPE, stderr=dump_errors
        )
        assert dump.stdout is not None
        loaded = subprocess.run(command, env=env, stdin=dump.stdout, capture_output=True)
        dump.stdout.close()
        if dump.wait() != 0:
            dump_errors.seek(0)
            message = first_error(dump_errors.read().decode(errors="replace"))
            raise BackupError(f"pg_restore of {path} failed, nothing changed: {message}")
    if loaded.returncode != 0:
        message = first_error(loaded.stderr.decode(errors="replace"))
        raise BackupError(f"restoring {path} into {shown(url)} failed, nothing changed: {message}")
    return BackupInfo("postgresql", revision, path.stat().st_size)


def tables_and_servers(url: str, schemas: set[str]) -> set[tuple[str, str]]:
    """The tables the database at ``url`` has in ``schemas``; refused while a meeple server
    is connected to it."""
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as connection:
            servers = connection.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND application_name = :name AND pid <> pg_backend_pid()"
                ),
                {"name": APPLICATION_NAME},
            ).scalar_one()
            rows = connection.execute(
                text("SELECT schemaname, tablename FROM pg_tables WHERE schemaname = ANY(:s)"),
                {"s": sorted(schemas)},
            ).all()
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise BackupError(f"cannot open the database {shown(url)}: {reason}") from exc
    finally:
        engine.dispose()
    if servers:
        raise BackupError(
            f"{servers} meeple connection(s) to {shown(url)} are open (a server is running):"
            " stop every server using it, then restore"
        )
    return {(str(schema), str(table)) for schema, table in rows}


def quoted(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'
