"""Request and response bodies of the notification routes (docs/server.md, Notifications)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from meeple.tables.facade import NotificationKind
from meeple.web.schemas import Input

ID_MAX = 2**31 - 1
"""The largest id a notification can have: PostgreSQL's ``integer`` (SQLite's holds more)."""

NotificationId = Annotated[int, Field(ge=1, le=ID_MAX)]
"""A notification's id as a client sends it: beyond the column, a 422 rather than a 500."""


class NotificationOut(BaseModel):
    """One notification."""

    id: int
    kind: NotificationKind
    data: dict[str, Any] = Field(
        description="what the kind needs to be said: game, opponents, rank and score, from..."
    )
    table_id: str | None = Field(None, description="the table it is about, if any")
    created_at: float
    read: bool


class NotificationsOut(BaseModel):
    """A page of the account's notifications, newest first, and how many are unread."""

    notifications: list[NotificationOut]
    unread: int = Field(description="how many of all the account's notifications are unread")
    next_before: int | None = Field(
        None, description="pass as ?before= for the next (older) page; null: no more"
    )


class ReadIn(Input):
    """Which notifications were seen: ``ids``, or every one with ``all``."""

    ids: list[NotificationId] = Field(default_factory=list, max_length=200)
    all: bool = False


class ReadOut(BaseModel):
    """How many notifications were marked read, and how many stay unread."""

    marked: int
    unread: int
