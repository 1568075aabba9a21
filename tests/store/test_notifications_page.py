"""A page of notifications and its unread count agree, even when one is stored between reads."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session

from meeple.store import queries
from meeple.store.database import Database
from meeple.store.notifications import insert_notification, mark_read, notifications_page


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    database = Database(db_url)
    database.migrate()
    yield database
    database.close()


def a_user(db: Database, name: str) -> int:
    return db.call(lambda s: queries.create_user(s, name, None, True, 1.0).id)


def note(db: Database, user_id: int, kind: str = "challenge") -> int:
    values = {"user_id": user_id, "kind": kind, "data": {}, "table_id": None,
              "dedupe": None, "created_at": 2.0}  # fmt: skip
    return db.call(lambda s: insert_notification(s, values).id)  # type: ignore[union-attr]


def test_a_page_is_newest_first_and_counts_only_the_accounts_unread(db: Database) -> None:
    bob, alice = a_user(db, "Bob"), a_user(db, "Alice")
    ids = [note(db, bob) for _ in range(3)]
    note(db, alice)
    db.call(mark_read, bob, [ids[0]], 5.0)
    rows, unread = db.call(notifications_page, bob, 30, None)
    assert [row.id for row in rows] == ids[::-1]
    assert unread == 2
    rows, unread = db.call(notifications_page, bob, 30, ids[2])
    assert [row.id for row in rows] == ids[1::-1] and unread == 2
    assert db.call(notifications_page, a_user(db, "Carol"), 30, None) == ([], 0)


def test_a_notification_stored_between_the_count_and_the_list_is_in_neither(
    db: Database,
) -> None:
    bob = a_user(db, "Bob")
    first = note(db, bob)
    stored: list[int] = []

    def store_one_more(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not stored and "count(" in statement.lower():
            stored.append(note(db, bob))  # another connection, committed at once

    event.listen(db.engine, "after_cursor_execute", store_one_more)
    try:
        rows, unread = db.call(notifications_page, bob, 30, None)
    finally:
        event.remove(db.engine, "after_cursor_execute", store_one_more)
    assert stored, "the second notification was stored while the page was read"
    assert [row.id for row in rows] == [first]
    assert unread == 1  # the page's own unread one: the relayed one adds the second

    def both(session: Session) -> tuple[list[int], int]:
        rows, unread = notifications_page(session, bob, 30, None)
        return [row.id for row in rows], unread

    assert db.call(both) == ([stored[0], first], 2)
