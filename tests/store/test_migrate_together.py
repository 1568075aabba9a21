"""Servers started together on an empty PostgreSQL database all come up (a deploy starts two)."""

from __future__ import annotations

import threading

import pytest
from scratch_databases import scratch_database

from meeple.store.backups.common import revisions
from meeple.store.database import Database


@pytest.mark.postgres
def test_three_servers_migrating_one_empty_database_at_once_all_succeed() -> None:
    with scratch_database() as url:
        start = threading.Barrier(3)
        failures: list[BaseException] = []

        def start_up() -> None:
            db = Database(url)
            try:
                start.wait()
                db.migrate()
            except BaseException as exc:
                failures.append(exc)
            finally:
                db.close()

        servers = [threading.Thread(target=start_up) for _ in range(3)]
        for server in servers:
            server.start()
        for server in servers:
            server.join(60)
        assert failures == []
        head, _known = revisions()
        db = Database(url)
        try:
            with db.engine.connect() as connection:
                stored = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
                assert stored.scalar_one() == head
        finally:
            db.close()
