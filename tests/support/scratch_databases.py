"""Whole PostgreSQL databases made for one test and dropped after it.

A backup dumps a whole database, so the schema-per-test URLs of ``pg_url``
(all in the shared database ``test``) would dump every other test's schema too.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy
from server_harness import PG_URL, missing_service


@contextmanager
def scratch_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped (with its connections) afterwards."""
    name = f"meeple_scratch_{secrets.token_hex(6)}"
    admin = sqlalchemy.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    except sqlalchemy.exc.OperationalError as exc:
        admin.dispose()
        missing_service(f"PostgreSQL ({PG_URL})", str(exc.orig).splitlines()[0])
    try:
        yield sqlalchemy.make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
