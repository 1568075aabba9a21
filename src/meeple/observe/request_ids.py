"""The request a piece of work belongs to, and the table it works on, for the logs.

Each HTTP request and each WebSocket gets one request id (``meeple.web.request_ids``:
the client's ``X-Request-ID`` when it is a sane one, else a new one). It is held in
:data:`REQUEST_ID`, a ``ContextVar``, so it follows the work the request causes without
being passed along: the awaits of the request, the tasks it starts (a bot's move, a
table's clock: asyncio copies the context into each new task), the jobs it queues after
its answer (:meth:`meeple.tables.facts.TableFacts.soon` carries it) and the command it
forwards to the table's owner on another server (the call carries it over the bus).
:data:`TABLE_ID` holds the table the work is on, where one is. Every log line names both
(:mod:`meeple.observe.logs`).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
"""The id of the request (or socket) the running work belongs to; ``None`` outside one."""

TABLE_ID: ContextVar[str | None] = ContextVar("table_id", default=None)
"""The table the running work is on, where there is one."""

GOOD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
"""What a request id taken from a client may look like: a UUID, a proxy's hex id, up to
64 letters, digits and ``. _ : -`` (nothing that could break a log line)."""


def new_request_id() -> str:
    """A fresh request id: 32 hex digits."""
    return uuid.uuid4().hex


def request_id_from(header: str | None) -> str:
    """The client's ``X-Request-ID`` if it is a sane id (:data:`GOOD_ID`), else a new one."""
    if header is not None and GOOD_ID.fullmatch(header):
        return header
    return new_request_id()


@contextmanager
def working_for(request_id: str | None) -> Iterator[None]:
    """Inside, :data:`REQUEST_ID` is ``request_id`` (as it was before, when ``None``)."""
    if request_id is None:
        yield
        return
    token = REQUEST_ID.set(request_id)
    try:
        yield
    finally:
        REQUEST_ID.reset(token)


@contextmanager
def on_table(table_id: str | None) -> Iterator[None]:
    """Inside, :data:`TABLE_ID` is ``table_id`` (as it was before, when ``None``)."""
    if table_id is None:
        yield
        return
    token = TABLE_ID.set(table_id)
    try:
        yield
    finally:
        TABLE_ID.reset(token)


def carrying(job: Callable[[], Awaitable[T]]) -> Callable[[], Awaitable[T]]:
    """``job``, to be run later (by another task) for the request and on the table of the
    work that asks for it now."""
    request_id, table_id = REQUEST_ID.get(), TABLE_ID.get()
    if request_id is None and table_id is None:
        return job

    async def run() -> T:
        with working_for(request_id), on_table(table_id):
            return await job()

    return run
