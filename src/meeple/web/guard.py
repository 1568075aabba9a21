"""The ASGI middleware in front of every route: inputs checked once, failures answered in JSON.

- A URL (path or query) holding a NUL character is refused: no id or name
  has one, and PostgreSQL cannot even compare with one.
- A request body is at most ``max_bytes`` (read no further) and, if JSON,
  strict JSON (:func:`meeple.web.inputs.loads_strict`), so a route never meets
  an input the WebSocket would have refused. The body is handed on unchanged.
- A route that fails anyway gets a JSON 500 (logged with its traceback)
  instead of an exception reaching uvicorn, which would drop the keep-alive
  connection and every request the client had queued on it.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from meeple.errors import Code
from meeple.web.errors import code_status, refusal_body
from meeple.web.inputs import BadInput, loads_strict

log = logging.getLogger(__name__)


def _is_json(content_type: str) -> bool:
    """Whether FastAPI would read a body of this type as JSON (it does when none is given)."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind in ("", "application/json") or kind.endswith("+json")


def _has_nul(scope: dict[str, Any]) -> bool:
    query: bytes = scope.get("query_string", b"")
    return "\x00" in scope.get("path", "") or b"%00" in query or b"\x00" in query


async def _answer(send: Any, code: Code, message: str | None = None) -> None:
    status = code_status(code)
    payload = json.dumps(refusal_body(code, message)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(payload))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


class InputGuard:
    """Checks every request's URL and body before the app sees it; answers failures in JSON."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Refuse a bad URL or body, else pass the request on, catching what it raises."""
        if scope["type"] == "websocket" and _has_nul(scope):
            await send({"type": "websocket.close", "code": 1008, "reason": "a bad URL"})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _has_nul(scope):
            await _answer(send, Code.BAD_URL)
            return
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            receive = await self._checked_body(scope, receive, send)
            if receive is None:
                return
        started = False

        async def watched_send(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        except Exception:
            log.exception("%s %s failed", scope["method"], scope.get("path"))
            if not started:
                await _answer(send, Code.SERVER_ERROR, "the server failed on this request")

    async def _checked_body(self, scope: Any, receive: Any, send: Any) -> Any:
        """A ``receive`` replaying the checked body, or ``None`` once a refusal was sent."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        too_big = f"a request body has at most {self.max_bytes} bytes"
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await _answer(send, Code.TOO_BIG, too_big)
            return None
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _answer(send, Code.TOO_BIG, too_big)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and _is_json(headers.get("content-type", "")):
            try:
                loads_strict(body)
            except BadInput as exc:
                await _answer(send, Code.BAD_JSON, exc.message)
                return None
        return _replay(body, receive)


def _replay(body: bytes, receive: Any) -> Any:
    """A ``receive`` that gives the body already read once, then waits as the real one does."""
    sent = False

    async def replay() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
