"""``GET /api/ready``: whether a proxy should send this server players, beside ``/api/health``.

``/api/health`` answers as long as the process serves HTTP (liveness: restart
it if not). ``/api/ready`` answers 200 only when the server can do its work:
its database answers a query, its bus answers a ping, and it has taken its
part of the tables (start-up resumed every table nobody else runs, and it is
not shutting down); else 503 with the part that failed. Each check gives up
after :data:`CHECK_TIMEOUT_S`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import text
from sqlalchemy.orm import Session

from meeple.web.services import Services

log = logging.getLogger(__name__)

CHECK_TIMEOUT_S = 2.0
"""How long the database and the bus each have to answer."""

OK = "ok"


class ReadyOut(BaseModel):
    """Whether the server is ready for players, and each part's answer."""

    status: Literal["ready", "not_ready"]
    database: str = Field(description='"ok", or why the database did not answer')
    bus: str = Field(description='"ok", or why the bus (Redis) did not answer')
    tables: str = Field(description='"ok" once start-up has taken this server\'s tables')


async def answer(part: str, check: Awaitable[Any]) -> str:
    """``ok`` when ``check`` finishes in time, else what went wrong in a few words.

    The answer is public, so it names the kind of failure only; the log has the
    rest (an address, a database name).
    """
    try:
        await asyncio.wait_for(check, CHECK_TIMEOUT_S)
    except TimeoutError:
        log.warning("not ready: the %s gave no answer within %g s", part, CHECK_TIMEOUT_S)
        return f"no answer within {CHECK_TIMEOUT_S:g} s"
    except Exception as exc:
        log.warning("not ready: the %s failed: %s", part, exc)
        return f"failed ({type(exc).__name__})"
    return OK


def one_query(session: Session) -> None:
    """The smallest query the database can answer."""
    session.execute(text("SELECT 1"))


async def readiness(services: Services, tables_started: bool) -> ReadyOut:
    """Check the database and the bus (together) and the tables; the report."""
    # The database is asked on the thread kept for work that must not queue behind a
    # burst of reads: a server taking in a dead one's players is busy, not unready, and
    # a proxy that dropped it then would pile those players on the others.
    database, bus = await asyncio.gather(
        answer("database", services.db.run_first(one_query)), answer("bus", services.bus.ping())
    )
    tables = OK if tables_started else "not taken: starting up or shutting down"
    ready = database == bus == tables == OK
    return ReadyOut(
        status="ready" if ready else "not_ready", database=database, bus=bus, tables=tables
    )
