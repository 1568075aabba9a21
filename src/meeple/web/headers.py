"""Security headers on every HTTP response: no framing by other sites, scripts from here only.

The site's pages load their scripts as files from ``/static`` (no inline
script, no inline event handler, no ``eval``), their styles from
``/static/meeple.css`` (style attributes are set through the CSSOM, which a
policy does not govern) and talk only to this server. The policy says just
that, so an injected ``<script>`` or ``style`` attribute does nothing.

The API documentation (``/docs``, ``/redoc``), FastAPI's own pages, loads
Swagger UI and ReDoc from their CDN and starts them with an inline script: it
gets a looser policy of its own, still not framable by other sites. Those
pages show only the OpenAPI description, written in this code.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

PAGE_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'self'",
    ]
)
"""The policy of the site's pages (and of every other response: none needs more)."""

DOCS_CDN = "https://cdn.jsdelivr.net"
DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        f"script-src 'self' 'unsafe-inline' {DOCS_CDN}",
        f"style-src 'self' 'unsafe-inline' {DOCS_CDN} https://fonts.googleapis.com",
        "font-src 'self' https://fonts.gstatic.com",
        f"img-src 'self' data: {DOCS_CDN} https://fastapi.tiangolo.com",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'self'",
    ]
)
"""The policy of FastAPI's documentation pages: their CDN and their inline start-up script."""

COMMON_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # a table's page URL may hold its invite token
    (b"x-frame-options", b"SAMEORIGIN"),  # frame-ancestors for browsers that predate it
]


class SecurityHeaders:
    """Adds the security headers to every HTTP response a route did not give them itself."""

    def __init__(self, app: Any, docs_paths: Iterable[str | None] = ()) -> None:
        self.app = app
        self.docs_paths = frozenset(path for path in docs_paths if path)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Pass the request on; add the headers to its response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope["path"] in self.docs_paths else PAGE_POLICY
        added = [*COMMON_HEADERS, (b"content-security-policy", policy.encode())]

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _value in headers}
                headers.extend(item for item in added if item[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
