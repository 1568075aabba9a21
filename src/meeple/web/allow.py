"""Which methods an API path takes: ``OPTIONS`` answers them, and so does every 405.

Starlette answers a method a path does not take with the methods of the first
route of that path only (``GET /api/tables`` and ``POST /api/tables`` are two
routes), and ``OPTIONS`` not at all; HTTP asks for an ``Allow`` header listing
every method of the path (RFC 9110, 9.3.7 and 15.5.6).
"""

from __future__ import annotations

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import Scope

from meeple.errors import Code
from meeple.web.errors import code_status, refusal_body

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
"""The methods a route of meeple may take (``OPTIONS`` is answered here)."""


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some HTTP route of ``app`` takes at the request's path (none: no such
    path), asked of the router itself so included routers count."""
    methods = {
        method
        for method in METHODS
        for route in app.router.routes
        if route.matches({**scope, "method": method})[0] is Match.FULL
    }
    if methods:
        methods.add("OPTIONS")
    return sorted(methods)


def install_allow(app: FastAPI) -> None:
    """Answer ``OPTIONS`` on ``/api`` paths and give every 405 the path's full ``Allow``."""

    @app.options("/api/{path:path}", include_in_schema=False)
    async def options(request: Request) -> Response:
        methods = allowed_methods(app, request.scope)
        if not methods:
            body, status = refusal_body(Code.NO_PATH), code_status(Code.NO_PATH)
            return JSONResponse(body, status_code=status)
        return Response(status_code=204, headers={"Allow": ", ".join(methods)})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(app, request.scope))
        if exc.status_code in (204, 304):
            return Response(status_code=exc.status_code, headers=headers)
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=headers)
