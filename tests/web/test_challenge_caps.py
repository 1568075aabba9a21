"""What one determined stranger can do with challenges, and what holds (docs/bot-api.md,
Challenges): a bot's event stream survives any number of open challenges to it, replaying the
newest; open challenges are capped per sender and per recipient (on every server), the
challenge notifications one person gets are bounded, and bot accounts stay out of quick play.
"""

from __future__ import annotations

import json
import queue
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from bot_api_support import bot_account
from server_harness import Client, LiveServer, make_settings, require_redis, running, start_server

from meeple.store import challenges as store


class Lines:
    """An event stream read in a thread: each JSON line as it comes, ``None`` once it ends."""

    def __init__(self, server: LiveServer, token: str) -> None:
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.status: int | None = None
        self._http = httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=None))
        headers = {"Authorization": f"Bearer {token}"}
        self._thread = threading.Thread(target=self._read, args=(headers,), daemon=True)
        self._thread.start()

    def _read(self, headers: dict[str, str]) -> None:
        try:
            with self._http.stream("GET", "/api/stream/events", headers=headers) as response:
                self.status = response.status_code
                for text in response.iter_lines():
                    if text.strip():
                        self.lines.put(json.loads(text))
        except (httpx.HTTPError, RuntimeError):
            pass  # closed by the test
        finally:
            self.lines.put(None)

    def take(self, count: int) -> list[dict[str, Any]]:
        """The next ``count`` lines; fails if the stream ends first."""
        taken = []
        for _ in range(count):
            line = self.lines.get(timeout=20)
            assert line is not None, f"the stream ended after {len(taken)} lines"
            taken.append(line)
        return taken

    def close(self) -> None:
        """Stop reading."""
        self._http.close()
        self._thread.join(timeout=10)


def store_open_challenges(server: LiveServer, sender: Client, to_id: int, count: int) -> list[str]:
    """``count`` open challenges from ``sender`` to account ``to_id``, stored directly (as many
    senders within the caps would leave them), one second apart; their ids, oldest first."""
    assert sender.user is not None
    now = server.clock.now()
    ttl = server.services.settings.challenge_ttl_s
    ids = [f"stored-{n:04d}" for n in range(count)]

    def insert_all(session: Any) -> None:
        for n, challenge_id in enumerate(ids):
            created = now - count + n
            values = {
                "id": challenge_id,
                "from_id": sender.user["id"],
                "to_id": to_id,
                "game": "summy",
                "options": {"players": 2},
                "pace": "realtime",
                "move_seconds": 60,
                "rated": False,
                "status": store.OPEN,
                "created_at": created,
                "expires_at": created + ttl,
            }
            store.insert_challenge(session, values)

    server.services.db.call(insert_all)
    return ids


def challenge(client: Client, to: str, expect: int = 201) -> Any:
    """Send a casual Summy challenge; the answer."""
    return client.post("/api/challenges", {"to": to, "game": "summy"}, expect)


def test_a_bot_with_300_open_challenges_keeps_its_stream_newest_first(
    server: LiveServer,
) -> None:
    bot, token = bot_account(server, "deep-bot")
    assert bot.user is not None
    ada = server.client("ada")
    ada.register("ada")
    # One running game: its game_start comes first and takes a line of the replay's room.
    first = challenge(ada, "deep-bot")
    table_id = bot.post(f"/api/challenges/{first['id']}/accept")["table_id"]
    ids = store_open_challenges(server, ada, bot.user["id"], 300)
    room = server.services.settings.stream_buffer // 2 - 1
    stream = Lines(server, token)
    try:
        head = stream.take(1 + room)
        assert (head[0]["type"], head[0]["table_id"]) == ("game_start", table_id)
        assert all(line["type"] == "challenge" for line in head[1:])
        replayed = [line["challenge"]["id"] for line in head[1:]]
        assert replayed == list(reversed(ids))[:room]
        # The stream stays open: the bot is told what happens next.
        ada.post(f"/api/challenges/{ids[0]}/cancel")
        [line] = stream.take(1)
        assert (line["type"], line["challenge"]["id"]) == ("challenge_cancelled", ids[0])
        assert stream.status == 200
    finally:
        stream.close()


def accounts(server: LiveServer, *names: str) -> list[Client]:
    """Registered accounts, signed in."""
    clients = [server.client(name) for name in names]
    for client, name in zip(clients, names, strict=True):
        client.register(name)
    return clients


def test_open_challenges_are_capped_per_sender_and_per_recipient(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path, max_challenges_sent=3, max_challenges_received=4, limit_challenges="1000/minute"
    )
    with running(settings) as server:
        ada, bob, cat, dan, eve = accounts(server, "ada", "bob", "cat", "dan", "eve")
        sent = [challenge(ada, "bob") for _ in range(3)]
        # A fourth open challenge from ada, to anyone, is refused until one closes.
        for to in ("bob", "cat"):
            full = challenge(ada, to, expect=409)
            assert full["code"] == "too_many_challenges" and full["params"] == {"limit": 3}
            assert "3 open challenges" in full["detail"]
        ada.post(f"/api/challenges/{sent[0]['id']}/cancel")
        challenge(ada, "cat")
        # bob holds 2 from ada; 2 more fill his 4; a fifth sender is refused.
        challenge(cat, "bob")
        declined = challenge(dan, "bob")
        bob.post(f"/api/challenges/{declined['id']}/decline")
        challenge(dan, "bob")
        busy = challenge(eve, "bob", expect=409)
        assert busy["code"] == "player_too_many_challenges"
        assert busy["params"] == {"limit": 4, "name": "bob"} and "bob" in busy["detail"]
        assert len([c for c in bob.get("/api/challenges") if c["to"]["name"] == "bob"]) == 4
        # Lapsed challenges count no more.
        server.advance(settings.challenge_ttl_s)
        challenge(eve, "bob")
        challenge(ada, "bob")


def test_the_rate_per_sender_says_when_to_retry(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, limit_challenges="2/minute")) as server:
        ada, _bob = accounts(server, "ada", "bob")
        challenge(ada, "bob")
        challenge(ada, "bob")
        response = ada.http.post("/api/challenges", json={"to": "bob", "game": "summy"})
        assert response.status_code == 429
        body = response.json()
        assert body["code"] == "rate_limited" and "challenges" in body["detail"]
        assert int(response.headers["Retry-After"]) == body["retry_after"] >= 1


def test_challenge_notifications_to_one_person_are_bounded(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path, limit_challenges="1000/minute", limit_challenge_notifications="3/hour"
    )
    with running(settings) as server:
        bob, ada, cat = accounts(server, "bob", "ada", "cat")
        # One sender sending and cancelling, another sending: every challenge is sent, ...
        for _ in range(4):
            sent = challenge(ada, "bob")
            ada.post(f"/api/challenges/{sent['id']}/cancel")
        challenge(cat, "bob")
        assert [c["from"]["name"] for c in bob.get("/api/challenges")] == ["cat"]
        # ... but only the first three made a notification.
        page = bob.get("/api/notifications")
        assert [n["kind"] for n in page["notifications"]] == ["challenge"] * 3
        assert page["unread"] == 3
        # The count is per recipient: cat is told of ada's challenge.
        challenge(ada, "cat")
        assert [n["kind"] for n in cat.get("/api/notifications")["notifications"]] == ["challenge"]


@pytest.mark.postgres
def test_the_recipient_cap_holds_across_two_servers(tmp_path: Path, pg_url: str) -> None:
    redis_url = require_redis()
    values = {"max_challenges_received": 5, "limit_challenges": "1000/minute"}
    east = start_server(make_settings(tmp_path / "a", pg_url, redis=redis_url, **values))
    west = start_server(make_settings(tmp_path / "b", pg_url, redis=redis_url, **values))
    try:
        names = [f"sender{n}" for n in range(12)]
        bob = east.client("bob")
        bob.register("bob")
        senders = [(east if n % 2 else west).client(name) for n, name in enumerate(names)]
        for sender, name in zip(senders, names, strict=True):
            sender.register(name)
        with ThreadPoolExecutor(max_workers=12) as pool:
            answers = list(pool.map(lambda s: challenge(s, "bob", expect=None), senders))
        codes = sorted(a.get("code") or "sent" for a in answers)
        assert codes == ["player_too_many_challenges"] * 7 + ["sent"] * 5
        assert len(bob.get("/api/challenges")) == 5
    finally:
        east.stop()
        west.stop()


def test_bot_accounts_stay_out_of_quick_play(server: LiveServer) -> None:
    _bot, token = bot_account(server, "deep-bot")
    bearer = {"Authorization": f"Bearer {token}"}
    ada = server.client("ada")
    ada.register("ada")
    waiting = ada.post("/api/quickplay", {"game": "summy"})["table"]
    with httpx.Client(base_url=server.url, headers=bearer) as bot:
        refused = bot.post("/api/quickplay", json={"game": "summy"})
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "bot_quick_play"
        # Nor by the waiting quick-play table's id.
        joined = bot.post(f"/api/tables/{waiting['id']}/join", json={})
        assert joined.status_code == 403 and joined.json()["code"] == "bot_quick_play"
        # A table of its own, or one a person opened for anyone, it still may join.
        mine = bot.post("/api/tables", json={"game": "summy", "seats": 2})
        assert mine.status_code == 201, mine.text
        open_table = ada.create_table(game="summy", seats=2)["table"]
        assert bot.post(f"/api/tables/{open_table['id']}/join", json={}).status_code == 200
    seats = ada.get(f"/api/tables/{waiting['id']}")["table"]["seats"]
    assert [s["name"] for s in seats if s["name"]] == ["ada"]
