"""The FastAPI application: REST under ``/api``, WebSockets under ``/ws``, docs at ``/docs``.

:func:`create_app` takes the settings and, for tests, a clock; start-up opens
and migrates the database, then loads every open or running table back by
replaying its record.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from meeple import __version__
from meeple.config import Settings
from meeple.errors import Code, TableError
from meeple.plugins import load_games
from meeple.tables.facade import Clock
from meeple.web import pages
from meeple.web.access_log import install_secret_filter
from meeple.web.allow import install_allow
from meeple.web.cross_site import CrossSiteGuard
from meeple.web.errors import code_status, refusal_body, table_error_answer
from meeple.web.guard import InputGuard
from meeple.web.headers import SecurityHeaders
from meeple.web.me_socket import ME_SOCKET_PATH, me_socket_route
from meeple.web.pages import email_pages, moderation_pages
from meeple.web.readiness import ReadyOut, readiness
from meeple.web.reconnect_rush import TABLE_SOCKET_PATH, table_socket_route
from meeple.web.request_ids import RequestIds
from meeple.web.routes import account, analysis, auth, games, puzzles, records, tables, users
from meeple.web.routes import challenges as challenge_routes
from meeple.web.routes import email as email_routes
from meeple.web.routes import friends as friend_routes
from meeple.web.routes import game_text as text_routes
from meeple.web.routes import hints as hint_routes
from meeple.web.routes import me as me_routes
from meeple.web.routes import metrics as metrics_routes
from meeple.web.routes import moderation as moderation_routes
from meeple.web.routes import notifications as notification_routes
from meeple.web.routes import safety as safety_routes
from meeple.web.routes import streams as stream_routes
from meeple.web.routes import takebacks as takeback_routes
from meeple.web.routes import tokens as token_routes
from meeple.web.routes import tournaments as tournament_routes
from meeple.web.routes import tutorials as tutorial_routes
from meeple.web.routes import unsubscribe as unsubscribe_routes
from meeple.web.schemas import BotStatsOut, CallStatsOut, HealthOut
from meeple.web.services import Services
from meeple.web.sockets import router as sockets_router
from meeple.web.tournament_socket import router as tournament_socket_router

DESCRIPTION = """\
The meeple game server: accounts, lobby, tables, bots, records, ratings.

Errors are JSON: `{"detail": "what is wrong, in plain words", "code": "a_stable_word"}`.
A browser's request that changes something from another site's page (its `Origin`, else
`Sec-Fetch-Site`) is refused: 403 `cross_site`; programs send neither header.
Real-time play goes through the WebSocket `/ws/tables/{id}` (see docs/protocol.md);
the lobby updates live on `/ws/lobby`.
"""


def create_app(settings: Settings, clock: Clock | None = None) -> FastAPI:
    """The application for ``settings``; ``clock`` replaces the wall clock in tests."""
    load_games(settings.extra_game_modules())
    install_secret_filter()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = Services.build(settings, clock)
        app.state.services = services
        try:
            await services.start()
            app.state.tables_started = True
            yield
        finally:
            app.state.tables_started = False
            await services.close()

    app = FastAPI(
        title="meeple",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.tables_started = False

    app.add_exception_handler(TableError, table_error_answer)  # type: ignore[arg-type]

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(validation_body(exc), status_code=code_status(Code.INVALID))

    # First among the routes, so a reconnecting player's socket is matched at once
    # (see meeple.web.reconnect_rush).
    app.router.add_websocket_route(TABLE_SOCKET_PATH, table_socket_route)
    app.router.add_websocket_route(ME_SOCKET_PATH, me_socket_route)

    @app.get("/api/health", tags=["meta"], response_model=HealthOut)
    async def health(request: Request) -> HealthOut:
        """Whether the server is up, its version, what its bot pool and its forwarded
        changes have done."""
        services = request.app.state.services
        stats = services.bots.stats.to_json()
        calls = services.tables.calls.stats.to_json()
        return HealthOut(
            status="ok",
            version=__version__,
            bots=BotStatsOut(**stats),
            calls=CallStatsOut(**calls),
        )

    @app.get(
        "/api/ready",
        tags=["meta"],
        response_model=ReadyOut,
        responses={503: {"model": ReadyOut, "description": "not ready: the part that failed"}},
    )
    async def ready(request: Request, response: Response) -> ReadyOut:
        """Whether a proxy should send this server players: its database and bus answer and
        it has taken its tables (200), or not (503, naming the part that failed)."""
        report = await readiness(request.app.state.services, request.app.state.tables_started)
        if report.status != "ready":
            response.status_code = 503
        return report

    app.include_router(auth.router)
    app.include_router(account.router)
    app.include_router(email_routes.router)
    app.include_router(token_routes.router)
    app.include_router(challenge_routes.router)
    app.include_router(tournament_routes.router)
    app.include_router(notification_routes.router)
    app.include_router(games.router)
    app.include_router(tables.router)
    app.include_router(hint_routes.router)
    app.include_router(takeback_routes.router)
    app.include_router(stream_routes.router)
    app.include_router(records.router)
    app.include_router(text_routes.router)
    app.include_router(analysis.router)
    app.include_router(puzzles.router)
    app.include_router(tutorial_routes.router)
    app.include_router(users.router)
    app.include_router(unsubscribe_routes.router)
    app.include_router(me_routes.router)
    app.include_router(friend_routes.router)
    app.include_router(metrics_routes.router)
    app.include_router(safety_routes.router)
    app.include_router(moderation_routes.router)
    app.include_router(sockets_router)
    app.include_router(tournament_socket_router)
    install_allow(app)
    app.include_router(pages.router)
    app.include_router(email_pages.router)
    app.include_router(moderation_pages.router)
    pages.mount_static(app)
    app.add_middleware(InputGuard, max_bytes=settings.max_message_bytes)
    # Added last, so run first: a foreign request is refused before its body is read,
    # and every answer, refusals included, carries the security headers.
    app.add_middleware(CrossSiteGuard)
    docs_paths = (app.docs_url, app.swagger_ui_oauth2_redirect_url, app.redoc_url)
    app.add_middleware(SecurityHeaders, docs_paths=docs_paths)
    # Outermost: every answer carries its request id, and every log line of its work.
    app.add_middleware(RequestIds)
    return app


def validation_body(exc: RequestValidationError) -> dict[str, object]:
    """A refused request as JSON: the first problem in words, then each one's place and kind.

    The client's input is never echoed back: it can be large, and a value such
    as a lone surrogate cannot be written as JSON at all.
    """
    errors = [
        {
            "loc": [part if isinstance(part, int) else str(part) for part in error.get("loc", ())],
            "msg": str(error.get("msg", "")),
            "type": str(error.get("type", "")),
        }
        for error in exc.errors()
    ]
    first = errors[0] if errors else {"loc": [], "msg": Code.INVALID.sentence()}
    where = ".".join(str(part) for part in first["loc"] if part != "body")
    detail = f"{where}: {first['msg']}" if where else str(first["msg"])
    return {**refusal_body(Code.INVALID, detail), "errors": errors}
