"""One request id per HTTP request and per WebSocket, in the log and in the answer's header.

:class:`RequestIds` is the outermost middleware: it takes the client's (or the proxy's)
``X-Request-ID`` when it is a sane id, else makes one
(:func:`~meeple.observe.request_ids.request_id_from`), runs the request with it in
:data:`~meeple.observe.request_ids.REQUEST_ID`, so every log line of the work the
request causes names it, and sends it back as ``X-Request-ID`` on the answer (on a
WebSocket, on the handshake's answer). A socket keeps its one id for its whole life.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meeple.observe.request_ids import request_id_from, working_for

HEADER = "X-Request-ID"


class RequestIds:
    """Gives each HTTP request and WebSocket its request id (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request under its id; add the id to the answer's headers."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(Headers(scope=scope).get(HEADER))

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append(HEADER, request_id)
            elif message["type"] == "websocket.accept":
                headers = list(message.get("headers", []))
                headers.append((HEADER.lower().encode(), request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        with working_for(request_id):
            await self.app(scope, receive, send_with_id)
