"""An account's event stream (GET /api/stream/events) read in a thread, for the tests: each line
goes through the secret check, and a test takes the lines of the types it waits for."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import httpx
from secrets_check import check_messages

from meeple.games import get_game


class EventStream:
    """An account's event stream read in a thread: its lines, as they come."""

    def __init__(self, url: str, headers: dict[str, str], query: str = "") -> None:
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self._client = httpx.Client(base_url=url, headers=headers, timeout=None)
        self._open = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(query,), daemon=True)
        self._thread.start()
        assert self._open.wait(10), "the event stream did not open"

    def _read(self, query: str) -> None:
        try:
            with self._client.stream("GET", "/api/stream/events" + query) as response:
                assert response.status_code == 200, response.status_code
                self._open.set()
                for text in response.iter_lines():
                    if text.strip():
                        self.lines.put(json.loads(text))
        except (httpx.HTTPError, RuntimeError):
            pass  # closed by the test

    def next(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The first line of type ``kind`` not taken yet (lines of other types wait their turn:
        a game_start may come before or after its challenge's challenge_accepted)."""
        for line in self.seen:
            if line["type"] == kind and not line.get("_taken"):
                line["_taken"] = True
                return line
        while True:
            line = self.lines.get(timeout=timeout)
            check_messages(get_game("summy"), [], {}, {}, [line], None)
            self.seen.append(line)
            if line["type"] == kind:
                line["_taken"] = True
                return line

    def close(self) -> None:
        """Stop reading."""
        self._client.close()
        self._thread.join(timeout=10)
