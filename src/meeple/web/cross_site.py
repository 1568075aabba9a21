"""Requests from other sites' pages change nothing: one origin check for REST and the table socket.

A browser sends this site's cookie (``SameSite=Lax``) with a page's request
only from the same site, but "same site" takes in every sibling subdomain,
and a response's ``Set-Cookie`` applies even to a request that carried no
cookie. So a request that changes state must show that a page of this very
server sent it: its ``Origin``, or, from a browser that sends none,
``Sec-Fetch-Site``. Programs that are not browsers (curl, the tests, bots
of other people) send neither header and are let in: they act with their own
cookies, never a visitor's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlparse

from starlette.datastructures import Headers
from starlette.responses import JSONResponse

from meeple.errors import Code
from meeple.web.errors import code_status, refusal_body

READ_ONLY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing (the routes keep it so); every other one is checked."""

SIGNED_LINK_PATHS = frozenset({"/email/unsubscribe"})
"""Paths whose POST carries its own authority (a signed token in the link, no cookie used):
a mail provider's one-click unsubscribe (RFC 8058) comes from no page of this site."""

OWN_FETCH_SITES = frozenset({"same-origin", "none"})
"""``Sec-Fetch-Site`` values of this site's own pages (``none``: typed in by the person)."""


def same_origin(headers: Mapping[str, str]) -> bool:
    """Whether a browser sent this request, or opened this socket, from this server's own pages.

    ``headers`` is case-insensitive with lower-case names, as Starlette's are.
    ``Origin`` decides when it is present (``null``, sent by sandboxed frames
    and some redirects, is another site); else ``Sec-Fetch-Site``, where
    ``same-site`` (a sibling subdomain) is refused too; a client sending
    neither is not a browser and is let in.
    """
    origin = headers.get("origin")
    if origin is not None:
        host = headers.get("host")
        return host is not None and urlparse(origin).netloc.lower() == host.lower()
    return headers.get("sec-fetch-site", "none") in OWN_FETCH_SITES


class CrossSiteGuard:
    """Refuses (JSON 403, code ``cross_site``) a state-changing request from another site's page."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Answer a foreign request that changes state with a 403, pass every other one on."""
        if (
            scope["type"] == "http"
            and scope["method"] not in READ_ONLY_METHODS
            and scope["path"] not in SIGNED_LINK_PATHS
            and not same_origin(Headers(scope=scope))
        ):
            refusal = JSONResponse(
                refusal_body(Code.CROSS_SITE), status_code=code_status(Code.CROSS_SITE)
            )
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)
