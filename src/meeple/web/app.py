"""The FastAPI application: REST under ``/api``, WebSockets under ``/ws``, docs at ``/docs``.

:func:`create_app` takes the settings and, for tests, a clock; start-up opens
and migrates the database, then loads every open or running table back by
replaying its record.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from meeple import __version__
from meeple.config import Settings
from meeple.tables.clock import Clock
from meeple.tables.errors import TableError
from meeple.web import pages
from meeple.web.routes import auth, records, tables, users
from meeple.web.services import Services
from meeple.web.sockets import router as sockets_router

DESCRIPTION = """\
The meeple game server: accounts, lobby, tables, bots, records, ratings.

Errors are JSON: `{"detail": "what is wrong, in plain words", "code": "a_stable_word"}`.
Real-time play goes through the WebSocket `/ws/tables/{id}` (see docs/protocol.md);
the lobby updates live on `/ws/lobby`.
"""


def create_app(settings: Settings, clock: Clock | None = None) -> FastAPI:
    """The application for ``settings``; ``clock`` replaces the wall clock in tests."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = Services.build(settings, clock)
        app.state.services = services
        try:
            await services.tables.start()
            yield
        finally:
            await services.close()

    app = FastAPI(
        title="meeple",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=exc.status)

    @app.get("/api/health", tags=["meta"])
    async def health() -> dict[str, str]:
        """Whether the server is up, and its version."""
        return {"status": "ok", "version": __version__}

    app.include_router(auth.router)
    app.include_router(tables.router)
    app.include_router(records.router)
    app.include_router(users.router)
    app.include_router(sockets_router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC_DIR), name="static")
    return app
