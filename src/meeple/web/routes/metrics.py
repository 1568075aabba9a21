"""``GET /metrics``: the server's figures in the Prometheus text format, for its token only.

Off (404, as if there were no such route) while ``MEEPLE_METRICS_TOKEN`` is empty; with
it set, a request without ``Authorization: Bearer <that token>`` is refused with 401
(the token compared in constant time). Not in the OpenAPI document: it is for the
operator's Prometheus, not for clients (docs/deploy.md, Metrics).
"""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.exceptions import HTTPException

from meeple.web.deps import ServicesDep
from meeple.web.security import bearer_token

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request, services: ServicesDep) -> Response:
    """Every figure of this server, for the bearer of ``MEEPLE_METRICS_TOKEN``."""
    expected = services.settings.metrics_token
    if not expected:
        raise HTTPException(404)  # answered as a path that does not exist
    given = bearer_token(request.headers.get("authorization")) or ""
    if not secrets.compare_digest(given.encode(), expected.encode()):
        return Response(
            "this needs Authorization: Bearer <MEEPLE_METRICS_TOKEN>",
            status_code=401,
            media_type="text/plain",
            headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
        )
    body = await services.metrics.scrape(services)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
