"""The two NDJSON streams, read line by line and reconnected when the connection drops.

A stream is an async iterator of parsed lines; blank keep-alive lines are
skipped. When the connection drops, or stays silent longer than
``idle_s`` (the server sends a keep-alive every few seconds, so silence
means a dead connection), the stream reconnects after a backoff of 0.5, 1,
2, 4, then 8 s, each times a random 0.5-1.5 (docs/protocol.md: clients cut
off together must not come back together). A refusal the server answers
(a revoked token's 401, a 404) ends the stream with its
:class:`~meeple.client.errors.MeepleError`; a 429 waits its ``retry_after``.

A game stream reconnects with ``since`` = the last version it yielded, so
the events it yields have consecutive versions: none missed, none twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator
from typing import Any, cast

import httpx

from meeple.client.errors import RateLimited, ServerError, error_from_response
from meeple.client.lines import ENDING_KINDS, AccountEvent, GameLine

log = logging.getLogger("meeple.client")

BACKOFF_S: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Waits before reconnecting, one per failed attempt in a row (the last repeats)."""


class Backoff:
    """The wait before each reconnection in a row, spread at random; reset by a good line."""

    def __init__(self, delays: tuple[float, ...] = BACKOFF_S, rng: random.Random | None = None):
        self.delays = delays
        self.attempt = 0
        self.rng = rng or random.Random()

    def next_delay(self) -> float:
        """The wait before the next attempt (and count that attempt)."""
        base = self.delays[min(self.attempt, len(self.delays) - 1)]
        self.attempt += 1
        return base * self.rng.uniform(0.5, 1.5)

    def reset(self) -> None:
        """The connection works again: the next failure waits the shortest time."""
        self.attempt = 0


async def ndjson_lines(
    http: httpx.AsyncClient, path: str, params: dict[str, Any], idle_s: float
) -> AsyncIterator[dict[str, Any]]:
    """The JSON objects of one connection to an NDJSON stream, keep-alive lines skipped.

    Raises the server's refusal as a :class:`MeepleError` and a dropped or
    silent connection as :class:`httpx.TransportError`; ends when the server
    ends the response.
    """
    timeout = httpx.Timeout(30.0, read=idle_s)
    async with http.stream("GET", path, params=params, timeout=timeout) as response:
        if response.status_code != 200:
            await response.aread()
            raise error_from_response(response)
        async for raw in response.aiter_lines():
            if raw.strip():
                line = json.loads(raw)
                if isinstance(line, dict):
                    yield line


class ReconnectingStream:
    """What both streams share: connect, read, and on a drop wait and connect again.

    ``reconnects`` counts the connections made after the first; :meth:`close`
    ends the iteration at the next line or wait.
    """

    path: str

    def __init__(self, http: httpx.AsyncClient, idle_s: float, backoff: Backoff | None = None):
        self.http = http
        self.idle_s = idle_s
        self.backoff = backoff or Backoff()
        self.reconnects = 0
        self.closed = False
        self._connections = 0
        self._iterator: AsyncIterator[Any] | None = None

    def params(self) -> dict[str, Any]:
        """The query of the next connection."""
        return {}

    def done(self) -> bool:
        """Whether the stream has nothing more to give (checked after each line)."""
        return self.closed

    def close(self) -> None:
        """Stop: the iteration ends at its next step."""
        self.closed = True

    async def aclose(self) -> None:
        """Stop now, closing the connection (for a loop left before the stream's end)."""
        self.closed = True
        iterator = self._iterator
        if iterator is not None and hasattr(iterator, "aclose"):
            await iterator.aclose()

    def _iterate(self, iterator: AsyncIterator[Any]) -> AsyncIterator[Any]:
        """Keep the iteration :meth:`aclose` ends, and hand it out."""
        self._iterator = iterator
        return iterator

    async def lines(self) -> AsyncIterator[dict[str, Any]]:
        """Every line of every connection until :meth:`done`, reconnecting in between."""
        while not self.done():
            if self._connections:
                self.reconnects += 1
            self._connections += 1
            try:
                async for line in ndjson_lines(self.http, self.path, self.params(), self.idle_s):
                    self.backoff.reset()
                    yield line
                    if self.done():
                        return
                wait = self.backoff.next_delay()
                log.info("%s ended by the server; reconnecting in %.1f s", self.path, wait)
            except (httpx.TransportError, ServerError) as exc:
                wait = self.backoff.next_delay()
                log.info("%s dropped (%s); reconnecting in %.1f s", self.path, exc, wait)
            except RateLimited as exc:
                wait = exc.retry_after
                log.info("%s refused for now (%s); again in %.1f s", self.path, exc.code, wait)
            if self.done():
                return
            await asyncio.sleep(wait)


class EventStream(ReconnectingStream):
    """The account's events (``GET /api/stream/events``), reconnecting on a drop.

    On each connection the server sends a ``game_start`` for every game not
    over and a ``challenge`` for every open challenge again, so after a
    reconnection a line may repeat one seen before: key what you do on the
    table or challenge id.
    """

    path = "/api/stream/events"

    def __init__(
        self,
        http: httpx.AsyncClient,
        idle_s: float,
        accept: list[str] | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        super().__init__(http, idle_s, backoff)
        self.accept = accept

    def params(self) -> dict[str, Any]:
        """``accept``: the games whose challenges the bot takes, shown with it online."""
        return {} if self.accept is None else {"accept": ",".join(self.accept)}

    def __aiter__(self) -> AsyncIterator[AccountEvent]:
        return cast(AsyncIterator[AccountEvent], self._iterate(self.lines()))


class GameStream(ReconnectingStream):
    """One table's stream (``GET /api/stream/game/{id}``), reconnecting with ``since``.

    The iteration ends after the table's last event (``finish``, or ``close``
    before a start), or at once after a ``hello`` of a table already over.
    ``version`` is the last event version yielded; ``seat`` the token's seat
    (None: watching); ``duplicates`` counts lines dropped because their version
    was already yielded (a server keeping its contract sends none).
    """

    def __init__(
        self,
        http: httpx.AsyncClient,
        table_id: str,
        idle_s: float,
        since: int | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        super().__init__(http, idle_s, backoff)
        self.table_id = table_id
        self.path = f"/api/stream/game/{table_id}"
        self.version: int | None = since
        self.seat: int | None = None
        self.duplicates = 0
        self.finished = False

    def params(self) -> dict[str, Any]:
        """``since`` once a version is known, so a reconnection resumes after it."""
        return {} if self.version is None else {"since": self.version}

    def done(self) -> bool:
        """Closed, or the table changes no more."""
        return self.closed or self.finished

    def _accept(self, line: dict[str, Any]) -> bool:
        """Track ``line``; False for an event already yielded."""
        kind = line.get("type")
        if kind == "hello":
            self.version = int(line["version"])
            self.seat = line.get("seat")
            status = line.get("table", {}).get("status")
            self.finished = status in ("finished", "closed")
        elif kind == "event":
            version = int(line["version"])
            if self.version is not None and version <= self.version:
                self.duplicates += 1
                return False
            self.version = version
            self.finished = line.get("kind") in ENDING_KINDS
        return True

    async def _game_lines(self) -> AsyncIterator[GameLine]:
        async for line in self.lines():
            if self._accept(line):
                yield line

    def __aiter__(self) -> AsyncIterator[GameLine]:
        return self._iterate(self._game_lines())


__all__ = [
    "BACKOFF_S",
    "Backoff",
    "EventStream",
    "GameStream",
    "ReconnectingStream",
    "ndjson_lines",
]
