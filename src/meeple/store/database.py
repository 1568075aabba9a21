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
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
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
        self._waiting: list[_Write] = []
        self._events_connection: Connection | None = None
        """The writing thread's own connection, for groups of events alone (:meth:`write_event`)."""
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
        return cast(T, await self._queue(_Write(query, args, None)))

    async def write_event(
        self, row: Mapping[str, Any], then: Callable[[Session], Any] | None = None
    ) -> None:
        """Store one table event (its column values), with ``then(session)`` in the same
        transaction if given (what else the event changes), committed together with the
        writes waiting with it, as :meth:`write`.

        A group of events alone, what most moves write, is inserted in one statement on a
        connection the writing thread keeps, without an ORM session: the session's begin,
        flush, commit and close, and a connection taken from the pool and given back, cost
        several times the insert itself on the server's busiest path.
        :class:`~meeple.store.queries.VersionConflict` if that version is already stored.
        """
        await self._queue(_Write(then, (), dict(row)))

    async def _queue(self, write: _Write) -> Any:
        loop = asyncio.get_running_loop()
        write.future = loop.create_future()
        self._waiting.append(write)
        if not self._flushing:
            self._flushing = True
            self._flusher = loop.create_task(self._flush())
        return await write.future

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                group, self._waiting = self._waiting, []
                outcomes = await loop.run_in_executor(self._writer, self._commit_group, group)
                for write, (ok, value) in zip(group, outcomes, strict=True):
                    future = write.future
                    if future is None or future.done():
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
        finally:
            self._flushing = False

    def _commit_group(self, group: list[_Write]) -> list[tuple[bool, Any]]:
        try:
            if all(write.query is None for write in group):
                self._insert_events([write.row for write in group if write.row is not None])
                return [(True, None)] * len(group)
            with self.sessions.begin() as session:
                results = [write.apply(session) for write in group]
            return [(True, result) for result in results]
        except Exception as exc:
            if len(group) == 1 and group[0].query is not None:
                return [(False, exc)]
        return [self._commit_one(write) for write in group]

    def _insert_events(self, rows: list[dict[str, Any]]) -> None:
        """Insert ``rows`` in one transaction on the writing thread's own connection (taken
        from the pool once; given back, to be checked out afresh, after any failure)."""
        if self._events_connection is None:
            self._events_connection = self.engine.connect()
        connection = self._events_connection
        try:
            with connection.begin():
                queries.insert_events(connection, rows)
        except Exception:
            self._events_connection = None
            connection.close()
            raise

    def _commit_one(self, write: _Write) -> tuple[bool, Any]:
        try:
            return True, self.call(write.apply)
        except Exception as exc:
            return False, exc

    def close(self) -> None:
        """Stop the query threads and close every connection."""
        self._executor.shutdown(wait=True)
        self._writer.shutdown(wait=True)
        self._first.shutdown(wait=True)
        if self._events_connection is not None:
            self._events_connection.close()
            self._events_connection = None
        self.engine.dispose()


@dataclass(slots=True)
class _Write:
    """A write waiting for its group commit: a query of a session, an event's row, or both."""

    query: Callable[..., Any] | None
    args: tuple[Any, ...]
    row: dict[str, Any] | None
    future: asyncio.Future[Any] | None = None

    def apply(self, session: Session) -> Any:
        """Do this write in ``session``'s transaction; the query's result."""
        if self.row is not None:
            queries.append_event(session, self.row)
        return None if self.query is None else self.query(session, *self.args)


def _forget_pending_events(session: Session) -> None:
    """A rolled-back transaction's events are not inserted by the next one."""
    session.info.pop(queries.PENDING_EVENTS, None)
