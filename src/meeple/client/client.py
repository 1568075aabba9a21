"""``MeepleClient``: every route of the Bot API (docs/bot-api.md) as an async method.

A bot's core (``examples/bot_api_example.py`` is a whole one)::

    async with MeepleClient("https://meeple.example", token) as client:
        async for event in client.events():
            if event["type"] == "game_start":
                table_id, acted = event["table_id"], 0
                async for line in client.game(table_id):
                    # A line before our last action's may carry the `legal` it had then.
                    if line.get("legal") and line["version"] >= acted:
                        acted = (await client.act(table_id, line["legal"][0]))["version"]

Built on one :class:`httpx.AsyncClient` (a pool of keep-alive connections);
the token goes in the ``Authorization`` header of every request. A refusal
raises a :class:`~meeple.client.errors.MeepleError` subclass carrying the
server's ``code``. Tokens themselves are made and revoked on the account
page (they need the session cookie, not a token).
"""

from __future__ import annotations

import logging
import secrets
from types import TracebackType
from typing import Any, cast

import httpx

import meeple
from meeple.client.errors import TransportError, error_from_response
from meeple.client.lines import ActionResult, Challenge, JSONObject
from meeple.client.streams import Backoff, EventStream, GameStream

log = logging.getLogger("meeple.client")

DECLINE_REASONS: tuple[str, ...] = (
    "generic",
    "later",
    "too_fast",
    "too_slow",
    "rated",
    "casual",
    "variant",
)
"""The reasons a challenge may be declined with."""


def new_action_id() -> str:
    """A fresh client action id: a repeat of the same id is applied once by the server."""
    return secrets.token_urlsafe(12)


class MeepleClient:
    """A program's connection to a meeple server, acting for the token's account.

    ``idle_s``: a stream silent this long (no line, no keep-alive) is taken
    as dropped and reconnected. ``transport`` replaces httpx's network
    transport (tests). Use it as an async context manager, or call
    :meth:`aclose`.
    """

    def __init__(
        self,
        server_url: str,
        token: str,
        *,
        timeout: float = 30.0,
        idle_s: float = 20.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.server_url = server_url.rstrip("/")
        self.idle_s = idle_s
        self.http = httpx.AsyncClient(
            base_url=self.server_url,
            headers={
                "Authorization": f"Bearer {token}",
                "User-Agent": f"meeple-client/{meeple.__version__}",
            },
            timeout=timeout,
            transport=transport,
        )

    async def __aenter__(self) -> MeepleClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close every connection (open streams end with a transport error)."""
        await self.http.aclose()

    async def request(
        self, method: str, path: str, body: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """One request; the answer's JSON (None for an empty one).

        Raises the server's refusal as its :class:`MeepleError` subclass, and
        :class:`TransportError` when no answer came.
        """
        try:
            response = await self.http.request(method, path, json=body, params=params)
        except httpx.TransportError as exc:
            raise TransportError(str(exc) or type(exc).__name__, "transport") from exc
        if response.status_code >= 400:
            raise error_from_response(response)
        return response.json() if response.content else None

    # The account

    async def account(self) -> JSONObject:
        """The token's account: ``{"id", "name", "guest", "bot", …}`` (``GET /api/auth/me``)."""
        return cast(JSONObject, await self.request("GET", "/api/auth/me"))

    def events(
        self, accept: list[str] | None = None, backoff: Backoff | None = None
    ) -> EventStream:
        """The account's event stream: challenges, games starting and finishing.

        An async iterator of :data:`~meeple.client.lines.AccountEvent` lines;
        it reconnects on a drop and never ends by itself (``close()`` it).
        While it is open, a bot account shows as online, with ``accept``
        (the games whose challenges it takes) beside its name.
        """
        return EventStream(self.http, self.idle_s, accept, backoff)

    # A game

    def game(
        self, table_id: str, since: int | None = None, backoff: Backoff | None = None
    ) -> GameStream:
        """The stream of table ``table_id`` as the token's seat sees it.

        An async iterator of :data:`~meeple.client.lines.GameLine` lines: a
        ``hello`` (or, with ``since``, the events after that version), then
        every event, up to the game's ``finish``. A line after which the seat
        must act carries ``legal``. It reconnects with ``since`` = the last
        version it yielded, so no event is missed or yielded twice.
        """
        return GameStream(self.http, table_id, self.idle_s, since, backoff)

    async def table(self, table_id: str) -> JSONObject:
        """The table as it is now (``GET /api/tables/{id}``)."""
        answer = await self.request("GET", f"/api/tables/{table_id}")
        return cast(JSONObject, answer["table"])

    async def record(self, table_id: str) -> JSONObject:
        """A finished game's record (``GameRecord.from_json`` reads it)."""
        return cast(JSONObject, await self.request("GET", f"/api/tables/{table_id}/record"))

    async def act(
        self, table_id: str, action: Any, action_id: str | None = None, seat: int | None = None
    ) -> ActionResult:
        """Play ``action`` (the game's JSON form) at table ``table_id``.

        ``action_id`` (a fresh one when not given) makes a repeat harmless: on
        a transport error the request is sent once more with the same id, and
        the server applies the action once (``duplicate`` is then True if the
        first had arrived). ``seat`` only for an account holding several seats.
        """
        body: dict[str, Any] = {"id": action_id or new_action_id(), "action": action}
        if seat is not None:
            body["seat"] = seat
        path = f"/api/tables/{table_id}/actions"
        try:
            answer = await self.request("POST", path, body)
        except TransportError as exc:
            log.info("action %s: no answer (%s); sending it again", body["id"], exc)
            answer = await self.request("POST", path, body)
        return cast(ActionResult, answer)

    async def chat(self, table_id: str, text: str) -> int:
        """Say ``text`` at the table; the version of its chat event."""
        answer = await self.request("POST", f"/api/tables/{table_id}/chat", {"text": text})
        return int(answer["version"])

    async def leave(self, table_id: str) -> JSONObject:
        """Leave the table (during a game a bot plays the seat on); the table after it."""
        answer = await self.request("POST", f"/api/tables/{table_id}/leave")
        return cast(JSONObject, answer.get("table", answer))

    # Challenges

    async def challenge(
        self,
        to: str,
        game: str,
        options: JSONObject | None = None,
        *,
        pace: str = "realtime",
        move_seconds: int | None = None,
        rated: bool = False,
        fill: str | None = None,
    ) -> Challenge:
        """Challenge the account named ``to`` to ``game`` with its ``options``.

        ``options["players"]`` (2 unless said) seats the table; the seats
        beyond the two players' go to built-in bots of level ``fill``.
        ``pace`` is ``realtime`` or ``turn``, with ``move_seconds`` its clock.
        """
        body: dict[str, Any] = {
            "to": to,
            "game": game,
            "options": options or {},
            "pace": pace,
            "rated": rated,
        }
        if move_seconds is not None:
            body["move_seconds"] = move_seconds
        if fill is not None:
            body["fill"] = fill
        return cast(Challenge, await self.request("POST", "/api/challenges", body))

    async def get_challenge(self, challenge_id: str) -> Challenge:
        """One challenge to or from the account, as it is now (``status``, ``table_id``)."""
        path = f"/api/challenges/{challenge_id}"
        return cast(Challenge, await self.request("GET", path))

    async def challenges(self) -> list[Challenge]:
        """The open challenges to and from the account."""
        return cast(list[Challenge], await self.request("GET", "/api/challenges"))

    async def accept(self, challenge_id: str) -> str:
        """Accept a challenge; the id of the table that opens with both seated."""
        answer = await self.request("POST", f"/api/challenges/{challenge_id}/accept")
        return str(answer["table_id"])

    async def decline(self, challenge_id: str, reason: str = "generic") -> Challenge:
        """Decline a challenge with one of :data:`DECLINE_REASONS`."""
        path = f"/api/challenges/{challenge_id}/decline"
        return cast(Challenge, await self.request("POST", path, {"reason": reason}))

    async def cancel(self, challenge_id: str) -> Challenge:
        """Take back a challenge the account made."""
        path = f"/api/challenges/{challenge_id}/cancel"
        return cast(Challenge, await self.request("POST", path))

    async def online_bots(self) -> list[JSONObject]:
        """The bot accounts online now (their event stream open)."""
        return cast(list[JSONObject], await self.request("GET", "/api/bots/online"))
