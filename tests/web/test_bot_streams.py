"""The Bot API's NDJSON streams and acting over HTTP, as a bot program uses them.

Every stream is read over a real connection (httpx, or a raw socket for the
client that stops reading); every line a test receives is kept and, once its
game is over, goes through the secret check the socket tests use.
"""

from __future__ import annotations

import asyncio
import queue
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from secrets_check import check_messages
from server_harness import GAMES, Client, LiveServer, make_settings, running, strict_json

from meeple.games.base import GameRecord, replay
from meeple.tables.notices.user_events import publish_user_event


class LineReader:
    """One NDJSON stream, read in a thread: every line parsed and kept, blank ones counted."""

    def __init__(
        self, server: LiveServer, path: str, token: str | None, gzip: bool = True, **params: Any
    ) -> None:
        """``token`` None: ``params`` holds ``cookie``, the session cookie header to send."""
        self.client = httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=120))
        cookie = params.pop("cookie", None)
        headers = {"Authorization": f"Bearer {token}"} if token else {"Cookie": cookie}
        if not gzip:
            headers["Accept-Encoding"] = "identity"
        self._context = self.client.stream("GET", path, headers=headers, params=params)
        self.response = self._context.__enter__()
        self.lines: queue.Queue[dict[str, Any] | str | None] = queue.Queue()
        self.received: list[dict[str, Any]] = []
        self.blank = 0
        if self.response.status_code == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines():
                self.lines.put(strict_json(line) if line else "")
        except (httpx.HTTPError, OSError, ValueError):
            pass
        finally:
            self.lines.put(None)

    def next(self, timeout: float = 30.0, blank: bool = False) -> dict[str, Any] | str | None:
        """The next line (``None``: the stream ended), skipping blank lines unless asked."""
        deadline = time.monotonic() + timeout
        while True:
            item = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if item == "":
                self.blank += 1
                if not blank:
                    continue
            if isinstance(item, dict):
                self.received.append(item)
            return item

    def line(self, timeout: float = 30.0) -> dict[str, Any]:
        """The next JSON line; fails if the stream ended."""
        item = self.next(timeout)
        assert isinstance(item, dict), f"the stream ended ({item!r})"
        return item

    def close(self) -> None:
        """Cut the connection (shut down first: closing a socket another thread reads from
        would not send the server its end until that read returned)."""
        stream = self.response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if sock is not None:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.response.close()
        self.client.close()


def bot_with_token(server: LiveServer, name: str, bot: bool = True) -> tuple[Client, str]:
    """A new account (a bot account unless asked) and a ``bot:play`` token of it."""
    client = server.client(name)
    client.register(name)
    if bot:
        client.post("/api/account/bot")
    made = client.post("/api/account/tokens", {"label": "test", "scopes": ["bot:play"]}, 201)
    return client, made["token"]


def api(server: LiveServer, token: str, method: str, path: str, body: Any = None) -> Any:
    """A Bot API request with the token; the response."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        return http.request(method, path, json=body, headers=headers)


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A plain player's pick among the legal actions: the longest placement, else pass, else
    the biggest discard (so a game ends in reasonable time)."""
    places = [a for a in legal if a["type"] == "place"]
    if places:
        return max(places, key=lambda a: len(a["tiles"]))
    passes = [a for a in legal if a["type"] == "pass"]
    if passes:
        return passes[0]
    return max(legal, key=lambda a: len(a.get("tiles", ())))


def bot_table(server: LiveServer, client: Client) -> str:
    """A Summy table with the account at seat 0 and the casual built-in bot at seat 1."""
    table = client.create_table(game="summy", seats=2, bots={"1": "greedy"}, rated=False)
    table_id: str = table["table"]["id"]
    client.post(f"/api/tables/{table_id}/start")
    return table_id


class Player:
    """A bot program's game loop: read the game stream, act when a line carries ``legal``."""

    def __init__(self, server: LiveServer, token: str, table_id: str) -> None:
        self.server, self.token, self.table_id = server, token, table_id
        self.lines: list[dict[str, Any]] = []
        self.acted = 0
        self.version = 0
        self.finished = False

    def follow(self, reader: LineReader, stop_after: int | None = None) -> None:
        """Play from ``reader`` until the game ends (or after ``stop_after`` own actions)."""
        while not self.finished:
            line = reader.line()
            self.lines.append(line)
            if line["type"] == "hello":
                self.version = line["version"]
            elif line["type"] == "resume":
                assert line["from"] == self.version
            elif line["type"] == "event":
                assert line["version"] == self.version + 1, ("out of step", self.version, line)
                self.version = line["version"]
                self.finished = line["kind"] == "finish"
            if "legal" in line and not self.finished:
                assert 0 in (line.get("to_act") or line.get("table", {}).get("to_act"))
                self.act(choose(line["legal"]))
                if stop_after is not None and self.acted >= stop_after:
                    return

    def act(self, action: dict[str, Any]) -> None:
        """Post one action under a fresh client id; a repeat of the first is applied once."""
        body = {"id": f"move-{self.acted}", "action": action}
        path = f"/api/tables/{self.table_id}/actions"
        answer = api(self.server, self.token, "POST", path, body)
        assert answer.status_code == 200, answer.text
        if self.acted == 0:
            again = api(self.server, self.token, "POST", path, body)
            assert again.json() == {"version": answer.json()["version"], "duplicate": True}
        self.acted += 1


def check_secrets(server: LiveServer, client: Client, table_id: str, lines: list[Any]) -> int:
    """Every line through the secret check, from the finished game's record; views checked."""
    game = GAMES["summy"]
    record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record"))
    states = replay(game, record)
    versions: dict[int, int] = {}
    actions: dict[int, Any] = {}
    count, started = 0, False
    for event in client.get(f"/api/tables/{table_id}/events"):
        started = started or event["kind"] == "start"
        if event["kind"] == "action":
            actions[event["version"]] = record.actions[count][1]
            count += 1
        if started:
            versions[event["version"]] = count
    for line in lines:
        if "legal" in line:
            # Exactly the seat's own legal actions in the true position: nothing beyond its
            # view (the stock check below would mistake a discard of 4 own tiles that
            # happen to lie in the stock's order for the stock).
            state = states[versions[line["version"]]]
            assert line["legal"] == [game.action_json(a) for a in game.legal_actions(state, 0)]
    plain = [{k: v for k, v in line.items() if k != "legal"} for line in lines]
    return check_messages(game, states, versions, actions, plain, 0)


def test_a_bot_plays_a_game_to_the_end_from_its_streams(server: LiveServer) -> None:
    client, token = bot_with_token(server, "deep-summy")
    events = LineReader(server, "/api/stream/events", token)
    try:
        table_id = bot_table(server, client)
        start = events.line()
        assert start == {"type": "game_start", "table_id": table_id, "game": "summy", "seat": 0}
        stream = LineReader(server, f"/api/stream/game/{table_id}", token)
        assert stream.response.headers["content-encoding"] == "gzip"
        player = Player(server, token, table_id)
        hello = stream.line()
        assert hello["type"] == "hello" and hello["seat"] == 0
        assert hello["view"]["hand"], "the seat's own hand is in its view"
        player.lines.append(hello)
        player.version = hello["version"]
        if "legal" in hello:
            player.act(choose(hello["legal"]))
        player.follow(stream)
        finish = events.line()
        assert finish == {"type": "game_finish", "table_id": table_id, "game": "summy", "seat": 0}
        stream.close()
    finally:
        events.close()
    wait_for(lambda: server.services.streams.total() == 0, timeout=3)
    assert player.acted >= 3
    kinds = {line.get("kind") for line in player.lines}
    assert {"action", "finish"} <= kinds
    legal_lines = [line for line in player.lines if "legal" in line]
    assert len(legal_lines) >= player.acted
    assert all(0 in line.get("to_act", [0]) for line in legal_lines)
    checked = check_secrets(server, client, table_id, player.lines + events.received)
    assert checked >= player.acted


def test_a_cut_stream_resumes_with_nothing_missed_or_doubled(server: LiveServer) -> None:
    client, token = bot_with_token(server, "resumer")
    table_id = bot_table(server, client)
    player = Player(server, token, table_id)
    first = LineReader(server, f"/api/stream/game/{table_id}", token)
    hello = first.line()
    player.lines.append(hello)
    player.version = hello["version"]
    if "legal" in hello:
        player.act(choose(hello["legal"]))
    player.follow(first, stop_after=2)
    first.close()  # cut mid-game, right after acting: the bot's answer comes meanwhile
    cut_at = player.version
    wait_for(lambda: server.services.streams.total() == 0, timeout=3)
    time.sleep(0.3)
    second = LineReader(server, f"/api/stream/game/{table_id}", token, since=cut_at)
    resume = second.line()
    assert resume == {"type": "resume", "from": cut_at, "to": resume["to"]}
    assert resume["to"] > cut_at, "events happened while the stream was cut"
    player.lines.append(resume)
    player.follow(second)
    second.close()
    wait_for(lambda: server.services.streams.total() == 0, timeout=3)
    versions = [line["version"] for line in player.lines if line["type"] == "event"]
    assert versions == list(range(hello["version"] + 1, player.version + 1))
    check_secrets(server, client, table_id, player.lines)


def test_a_quiet_stream_sends_keep_alive_lines_and_ends_when_its_token_is_revoked(
    tmp_path: Path,
) -> None:
    settings = make_settings(tmp_path, stream_keepalive_s=0.2, stream_recheck_s=0.2)
    with running(settings) as server:
        client, token = bot_with_token(server, "quiet")
        events = LineReader(server, "/api/stream/events", token, gzip=False)
        assert "content-encoding" not in events.response.headers
        assert events.next(timeout=5, blank=True) == ""
        assert events.next(timeout=5, blank=True) == ""
        tokens = client.get("/api/account/tokens")
        client.http.delete(f"/api/account/tokens/{tokens[0]['id']}")
        started = time.monotonic()
        assert events.next(timeout=10) is None, "the stream ended"
        assert time.monotonic() - started < 5
        assert api(server, token, "GET", "/api/stream/events").status_code == 401
        events.close()


def test_streams_per_token_are_capped(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, max_streams_per_token=2)) as server:
        _client, token = bot_with_token(server, "greedy-bot")
        open_streams = [LineReader(server, "/api/stream/events", token) for _ in range(2)]
        refused = LineReader(server, "/api/stream/events", token)
        assert refused.response.status_code == 429
        refused.response.read()
        assert refused.response.json()["code"] == "too_many_streams"
        refused.close()
        for reader in open_streams:
            reader.close()
        wait_for(lambda: server.services.streams.total() == 0)
        again = LineReader(server, "/api/stream/events", token)
        assert again.response.status_code == 200
        again.close()


def wait_for(check: Any, timeout: float = 10.0) -> None:
    """Wait until ``check()`` holds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "it did not happen in time"
        time.sleep(0.05)


def on_server_loop(server: LiveServer, coroutine: Any) -> Any:
    """Run a coroutine on the server's own event loop (where its bus lives)."""
    loop = server.server.servers[0].get_loop()
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=30)


@contextmanager
def stalled_stream(server: LiveServer, token: str) -> Iterator[socket.socket]:
    """A client that asks for its event stream and then never reads a byte."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    host, port = server.url.removeprefix("http://").split(":")
    sock.connect((host, int(port)))
    request = (
        f"GET /api/stream/events HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n\r\n"
    )
    sock.sendall(request.encode())
    try:
        yield sock
    finally:
        sock.close()


def test_a_client_that_stops_reading_is_dropped(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, stream_buffer=8)) as server:
        client, token = bot_with_token(server, "sleepy")
        user_id = client.user["id"] if client.user else 0
        with stalled_stream(server, token) as sock:
            wait_for(lambda: server.services.streams.total() == 1)
            filler = "x" * 60_000
            # The account's channel floods (as a storm of challenges would): far more than
            # the socket buffers and the stream's queue hold.
            sent = 0
            while server.services.streams.total() and sent < 400:
                line = {"type": "challenge", "n": sent, "filler": filler}
                on_server_loop(server, publish_user_event(server.services.bus, user_id, line))
                sent += 1
            wait_for(lambda: server.services.streams.total() == 0)
            assert sent < 400, "dropped once its queue was full, not at the end of the flood"
            assert sock.fileno() >= 0
        # The server serves on: a reading client gets its stream.
        events = LineReader(server, "/api/stream/events", token)
        on_server_loop(server, publish_user_event(server.services.bus, user_id, {"type": "x"}))
        assert events.line() == {"type": "x"}
        events.close()


def test_a_stream_from_a_server_that_does_not_own_the_table(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    owner, other = two_servers
    client, token = bot_with_token(owner, "far-bot")
    events = LineReader(other, "/api/stream/events", token)
    table_id = bot_table(owner, client)
    assert events.line() == {"type": "game_start", "table_id": table_id, "game": "summy", "seat": 0}
    stream = LineReader(other, f"/api/stream/game/{table_id}", token)
    player = Player(other, token, table_id)
    hello = stream.line()
    player.lines.append(hello)
    player.version = hello["version"]
    if "legal" in hello:
        player.act(choose(hello["legal"]))
    player.follow(stream)
    stream.close()
    assert events.line()["type"] == "game_finish"
    events.close()
    assert player.finished and player.acted >= 3
    versions = [line["version"] for line in player.lines if line["type"] == "event"]
    assert versions == list(range(hello["version"] + 1, player.version + 1))
    check_secrets(owner, client, table_id, player.lines)


@pytest.mark.parametrize("path", ["/api/stream/events", "/api/stream/game/nope"])
def test_streams_need_a_token_with_bot_play(server: LiveServer, path: str) -> None:
    client = server.client("reader")
    client.register("reader")
    made = client.post("/api/account/tokens", {"label": "r", "scopes": ["games:read"]}, 201)
    assert api(server, made["token"], "GET", path).status_code == 403
    assert api(server, "not-a-token", "GET", path).status_code == 401


def test_a_bot_chats_sees_its_opponent_go_and_leaves_over_http(server: LiveServer) -> None:
    alice = server.client("alice")
    alice.register("alice")
    _bot, token = bot_with_token(server, "chatty-bot")
    table_id = alice.create_table(game="summy", seats=2)["table"]["id"]
    joined = api(server, token, "POST", f"/api/tables/{table_id}/join", {})
    assert joined.status_code == 200, joined.text
    person = alice.connect(table_id)
    person.recv()
    stream = LineReader(server, f"/api/stream/game/{table_id}", token)
    hello = stream.line()
    assert hello["seat"] == 1 and hello["table"]["present"] == [0, 1]
    alice.post(f"/api/tables/{table_id}/start")
    said = api(server, token, "POST", f"/api/tables/{table_id}/chat", {"text": "gl hf"})
    assert said.status_code == 200, said.text
    chat = wait_line(stream, lambda line: line.get("kind") == "chat")
    assert chat["data"]["text"] == "gl hf" and chat["seat"] == 1
    person.close()  # the person goes: the bot is told its opponent is gone
    wait_line(stream, lambda line: line["type"] == "watchers" and line["present"] == [1])
    left = api(server, token, "POST", f"/api/tables/{table_id}/leave")
    assert left.status_code == 200, left.text
    zombie = wait_line(stream, lambda line: line.get("kind") == "zombie")
    assert zombie["seat"] == 1
    after = [line for line in stream.received if line.get("version", 0) > zombie["version"]]
    assert all("legal" not in line for line in after), "a seat a bot now plays is not asked"
    stream.close()


def wait_line(reader: LineReader, check: Any, timeout: float = 20.0) -> dict[str, Any]:
    """Read lines until one passes ``check``; returns it."""
    deadline = time.monotonic() + timeout
    while True:
        line = reader.line(timeout=max(0.1, deadline - time.monotonic()))
        if check(line):
            return line


def test_acting_with_a_token_makes_the_sockets_checks(server: LiveServer) -> None:
    client, token = bot_with_token(server, "checked-bot")
    table_id = bot_table(server, client)
    stream = LineReader(server, f"/api/stream/game/{table_id}", token)
    hello = stream.line()
    path = f"/api/tables/{table_id}/actions"
    if "legal" not in hello:  # the built-in bot moves first: wait for our turn
        wait_line(stream, lambda line: "legal" in line)
    bad = api(server, token, "POST", path, {"id": "x1", "action": {"type": "place", "tiles": []}})
    assert bad.status_code == 400 and bad.json()["code"] in ("bad_action", "illegal")
    reader = server.client("reader")
    reader.register("reader")
    made = reader.post("/api/account/tokens", {"label": "r", "scopes": ["games:read"]}, 201)
    scoped = api(server, made["token"], "POST", path, {"id": "x2", "action": {"type": "pass"}})
    assert scoped.status_code == 403 and scoped.json()["code"] == "token_scope"
    stream.close()


def test_a_new_event_stream_starts_with_the_running_games_and_open_challenges(
    server: LiveServer,
) -> None:
    client, token = bot_with_token(server, "busy-bot")
    person = server.client("ada")
    person.register("ada")
    table_id = bot_table(server, client)
    sent = person.post("/api/challenges", {"to": "busy-bot", "game": "summy"}, 201)
    events = LineReader(server, "/api/stream/events", token)
    first, second = events.line(), events.line()
    assert first == {"type": "game_start", "table_id": table_id, "game": "summy", "seat": 0}
    assert second["type"] == "challenge" and second["challenge"]["id"] == sent["id"]
    assert {b["name"] for b in client.get("/api/bots/online")} == {"busy-bot"}
    events.close()
    wait_for(lambda: client.get("/api/bots/online") == [])


def test_the_api_limit_counts_per_token(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, limit_api="3/minute")) as server:
        client, token = bot_with_token(server, "eager-bot")
        table_id = bot_table(server, client)
        path = f"/api/tables/{table_id}/chat"
        for n in range(3):
            assert api(server, token, "POST", path, {"text": f"hi {n}"}).status_code == 200
        refused = api(server, token, "POST", path, {"text": "one more"})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) > 0
        other = client.post("/api/account/tokens", {"label": "2", "scopes": ["bot:play"]}, 201)
        assert api(server, other["token"], "POST", path, {"text": "hi"}).status_code == 200


def test_a_person_streams_with_the_cookie_until_signing_out(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, stream_recheck_s=0.2)) as server:
        ada = server.client("ada")
        ada.register("ada")
        events = LineReader(server, "/api/stream/events", None, cookie=ada.cookie_header())
        assert events.response.status_code == 200
        assert ada.get("/api/bots/online") == [], "a person is not listed as a bot"
        ada.post("/api/auth/logout", expect=None)
        assert events.next(timeout=10) is None, "the stream ended with the session"
        events.close()


def test_a_busy_stream_ends_too_when_its_token_is_revoked(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, stream_recheck_s=0.5, limit_chat="1000/minute")
    with running(settings) as server:
        alice = server.client("alice")
        alice.register("alice")
        bot, token = bot_with_token(server, "revoked-bot")
        table_id = alice.create_table(game="summy", seats=2)["table"]["id"]
        assert api(server, token, "POST", f"/api/tables/{table_id}/join", {}).status_code == 200
        stream = LineReader(server, f"/api/stream/game/{table_id}", token)
        stream.line()
        bot.http.delete(f"/api/account/tokens/{bot.get('/api/account/tokens')[0]['id']}")
        started = time.monotonic()
        ended = False
        while not ended and time.monotonic() - started < 5:
            # Never a quiet half second: a line every tenth of one.
            alice.post(f"/api/tables/{table_id}/chat", {"text": "still there?"})
            with suppress(queue.Empty):
                ended = stream.next(timeout=0.1) is None
        assert ended, "the stream went on after its token was revoked"
        stream.close()
