"""Fixtures shared by the tests of every package: databases (SQLite and PostgreSQL), live servers.

The helpers they use (``server_harness``, the fuzzing strategies) live in
``tests/support``, put on the import path here so any test folder can import them.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy

sys.path.insert(0, str(Path(__file__).parent / "support"))

from server_harness import (
    PG_URL,
    LiveServer,
    make_settings,
    missing_service,
    require_redis,
    start_server,
)

# Doctest collection would import this file a second time as a module named
# ``conftest``, clashing with tests/browser/conftest.py; it has no doctests.
collect_ignore = ["conftest.py"]


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search path is a fresh schema, dropped afterwards."""
    schema = f"t_{secrets.token_hex(6)}"
    try:
        admin = sqlalchemy.create_engine(PG_URL)
        with admin.begin() as connection:
            connection.execute(sqlalchemy.text(f"CREATE SCHEMA {schema}"))
    except sqlalchemy.exc.OperationalError as exc:
        missing_service(f"PostgreSQL ({PG_URL})", str(exc.orig).splitlines()[0])
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(sqlalchemy.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One live server on SQLite with a manual clock, shared by a module's games."""
    server = start_server(make_settings(tmp_path_factory.mktemp("live")))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server on SQLite with a manual clock."""
    live = start_server(make_settings(tmp_path))
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def two_servers(tmp_path: Path, pg_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two live servers sharing one PostgreSQL schema and Redis (skipped without Redis)."""
    redis_url = require_redis()
    first = start_server(make_settings(tmp_path / "a", pg_url, redis=redis_url))
    second = start_server(make_settings(tmp_path / "b", pg_url, redis=redis_url))
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()
