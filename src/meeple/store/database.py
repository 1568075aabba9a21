"""Opening the database, migrating it with the packaged Alembic scripts, running queries.

Queries are plain synchronous SQLAlchemy; :meth:`Database.run` runs one in
the database's own thread pool so the event loop never waits on disk. SQLite
gets a single worker thread (one writer at a time is all SQLite allows),
PostgreSQL a few. :meth:`Database.write` is for the hot path (table events):
writes that arrive while a transaction is being committed wait and are then
committed together in one transaction (group commit).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

from meeple import jsontext
from meeple.store import (
    follows,  # noqa: F401  (Base.metadata names its tables)
    moderation_models,  # noqa: F401  (Base.metadata names its tables)
    queries,
    tournament_models,  # noqa: F401  (Base.metadata names its tables)
)

MIGRATIONS_DIR = Path(__file__).parent / "migrations"

APPLICATION_NAME = "meeple"
"""How this program's connections name themselves to PostgreSQL (``pg_stat_activity``)."""

T = TypeVar("T")


def normalise_url(url: str) -> str:
    """The URL with the psycopg 3 driver named for plain ``postgresql://`` URLs."""
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL, foreign keys and a busy timeout."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            json_serializer=jsontext.dumps,
            json_deserializer=jsontext.loads,
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(
        url,
        # The name a restore looks for to tell that a server is connected (store/backups).
        connect_args={} if "application_name=" in url else {"application_name": APPLICATION_NAME},
        pool_pre_ping=True,
        pool_size=8,
        max_overflow=8,
        json_serializer=jsontext.dumps,
        json_deserializer=jsontext.loads,
    )


class MigrationRefused(RuntimeError):
    """A migration that stopped, changing nothing, until the operator fixes what it names."""


def alembic_config() -> Config:
    """An Alembic configuration pointing at the migrations inside the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


MIGRATION_LOCK = 0x6D65_6570_6C65
"""The PostgreSQL advisory lock a migration holds until it commits."""


def migrate(engine: Engine) -> None:
    """Bring the database up to the newest revision (creating it if empty).

    On PostgreSQL one server migrates at a time: servers started together on an
    empty database would each create the tables, and all but one fail.
    """
    config = alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            lock = text("SELECT pg_advisory_xact_lock(:key)")
            connection.execute(lock, {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Database:
    """An engine, a session factory and the thread pool queries run in."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        event.listen(self.sessions, "before_commit", queries.insert_pending_events)
        event.listen(self.sessions, "after_rollback", _forget_pending_events)
        workers = 1 if self.engine.dialect.name == "sqlite" else 4
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="meeple-db")
        self._writer = self._executor
        """Where group commits run: on PostgreSQL a thread of their own, so the players'
        writes never queue behind a burst of reads (a thousand players reconnecting)."""
        self._first = self._executor
        """Where :meth:`run_first` reads run: on PostgreSQL a thread of their own too."""
        if workers > 1:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-db-write")
            self._first = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-db-first")
        self._waiting: list[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = []
        self._flushing = False
        self._flusher: asyncio.Task[None] | None = None

    def migrate(self) -> None:
        """Create or upgrade the schema with the packaged migrations."""
        migrate(self.engine)

    def call(self, query: Callable[..., T], *args: Any) -> T:
        """Run ``query(session, *args)`` in one transaction, synchronously."""
        with self.sessions.begin() as session:
            return query(session, *args)

    async def run(self, query: Callable[..., T], *args: Any) -> T:
        """Run ``query(session, *args)`` in one transaction in the database threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.call, query, *args)

    async def run_first(self, query: Callable[..., T], *args: Any) -> T:
        """:meth:`run`, on a thread kept for work that must not queue behind a burst of reads.

        Taking over a dead server's tables reads the live table ids and their logs while
        that server's thousand players reconnect here, each socket reading its table: in
        the common queue the take-over waited seconds, and the tables with it.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._first, self.call, query, *args)

    async def write(self, query: Callable[..., T], *args: Any) -> T:
        """Run ``query(session, *args)``, committed together with the writes waiting with it.

        Raises what the query raises; one failing write never undoes another
        (the group is retried one write per transaction if any fails).
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._waiting.append((query, args, future))
        if not self._flushing:
            self._flushing = True
            self._flusher = loop.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                group, self._waiting = self._waiting, []
                calls = [(query, args) for query, args, _ in group]
                outcomes = await loop.run_in_executor(self._writer, self._commit_group, calls)
                for (_, _, future), (ok, value) in zip(group, outcomes, strict=True):
                    if future.done():
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
        finally:
            self._flushing = False

    def _commit_group(
        self, calls: list[tuple[Callable[..., Any], tuple[Any, ...]]]
    ) -> list[tuple[bool, Any]]:
        try:
            with self.sessions.begin() as session:
                results = [query(session, *args) for query, args in calls]
            return [(True, result) for result in results]
        except Exception as exc:
            if len(calls) == 1:
                return [(False, exc)]
        return [self._commit_one(query, args) for query, args in calls]

    def _commit_one(self, query: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any]:
        try:
            return True, self.call(query, *args)
        except Exception as exc:
            return False, exc

    def close(self) -> None:
        """Stop the query threads and close every connection."""
        self._executor.shutdown(wait=True)
        self._writer.shutdown(wait=True)
        self._first.shutdown(wait=True)
        self.engine.dispose()


def _forget_pending_events(session: Session) -> None:
    """A rolled-back transaction's events are not inserted by the next one."""
    session.info.pop(queries.PENDING_EVENTS, None)
