"""A real server on a free loopback port, and clients that talk to it over HTTP and WebSocket.

The server runs uvicorn in a thread with a :class:`ManualClock`, so tests move
time by hand; clients are httpx and the ``websockets`` sync client, so every
request crosses a real socket. Every message any test socket receives is
recorded (for the secrets test).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from meeple.bots import get_bot
from meeple.cli.serve import uvicorn_options
from meeple.config import Settings
from meeple.games import get_game
from meeple.tables.clock import ManualClock
from meeple.web.app import create_app
from meeple.web.server_messages import TABLE_MESSAGE
from meeple.web.services import Services

T = TypeVar("T")

PG_URL = os.environ.get("MEEPLE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("MEEPLE_TEST_REDIS", "redis://127.0.0.1:6379/15")


def services_required() -> bool:
    """CI sets MEEPLE_REQUIRE_SERVICES=1: a missing PostgreSQL or Redis then fails the test."""
    return os.environ.get("MEEPLE_REQUIRE_SERVICES") == "1"


def missing_service(what: str, reason: str) -> None:
    """Skip (or fail, when services are required) because ``what`` is not reachable."""
    message = f"{what} is not reachable ({reason})"
    if services_required():
        pytest.fail(message + " and MEEPLE_REQUIRE_SERVICES=1")
    pytest.skip(message)


def _no_constants(name: str) -> Any:
    raise AssertionError(f"the server sent {name}, which is not JSON")


def strict_json(text: str | bytes) -> Any:
    """Parse what the server sent, refusing NaN and Infinity as a browser does."""
    return json.loads(text, parse_constant=_no_constants)


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end on a fresh event loop in its own thread.

    Not ``asyncio.run`` in the test's thread: other tests in the same session
    (the browser tests) may leave an event loop running there.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(main)
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value


def require_redis() -> str:
    """The test Redis URL once a bus there answers a ping; else skip (or fail, if required)."""
    from meeple.bus.redis import RedisBus

    async def ping() -> None:
        bus = RedisBus(REDIS_URL)
        try:
            await bus.ping()
        finally:
            await bus.close()

    try:
        run_async(ping())
    except Exception as exc:
        missing_service("Redis at 127.0.0.1:6379", str(exc))
    return REDIS_URL


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def make_settings(tmp_path: Path, db_url: str | None = None, **overrides: Any) -> Settings:
    """Settings for a test server: its own folder, fast thread bots, a fixed secret key."""
    values: dict[str, Any] = {
        "data_dir": tmp_path,
        "db": db_url or f"sqlite:///{tmp_path / 'meeple.db'}",
        "secret_key": "k" * 40,
        "bot_executor": "thread",
        "bot_workers": 2,
        "bot_budget_s": 0.05,
        "bot_min_think_s": 0,
        "limit_auth": "1000/minute",
        "limit_guests": "1000/minute",
        "limit_tables": "1000/minute",
        # Tests count the puzzles they store: no bot games unless a test asks for them.
        "puzzle_pool_target": 0,
    }
    values.update(overrides)
    return Settings(**values)


@dataclass
class LiveServer:
    """A server running in this process, reachable only through its sockets."""

    url: str
    clock: ManualClock
    services: Services
    server: uvicorn.Server
    thread: threading.Thread
    received: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    clients: list[Client] = field(default_factory=list)

    @property
    def ws_url(self) -> str:
        """The ``ws://`` base URL."""
        return "ws" + self.url.removeprefix("http")

    def client(self, label: str = "client") -> Client:
        """A new client with its own cookie jar (closed with the server)."""
        client = Client(self, label)
        self.clients.append(client)
        return client

    def stop(self) -> None:
        """Close every client, shut the server down and wait for it."""
        for client in self.clients:
            client.close()
        self.server.should_exit = True
        self.thread.join(timeout=20)

    def advance(self, seconds: float) -> None:
        """Move the server's clock forward."""
        self.clock.advance(seconds)


def start_server(
    settings: Settings, clock_start: float | None = None, port: int | None = None
) -> LiveServer:
    """Start uvicorn in a thread (on ``port``, else a free one); returns once it accepts
    connections."""
    clock = ManualClock() if clock_start is None else ManualClock(clock_start)
    app = create_app(settings, clock)
    port = port or free_port()
    options = {**uvicorn_options(settings), "host": "127.0.0.1", "port": port}
    # Test clients keep connections idle for long stretches: a server closing one just as a
    # client reuses it reads as "connection reset" (a race of the test, not of the server).
    options["timeout_keep_alive"] = 120
    config = uvicorn.Config(app, **options, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    return LiveServer(f"http://127.0.0.1:{port}", clock, app.state.services, server, thread)


class Client:
    """A browser-like client: an HTTP session with cookies, and table sockets."""

    def __init__(self, server: LiveServer, label: str) -> None:
        self.server = server
        self.label = label
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.user: dict[str, Any] | None = None
        self.sockets: list[Socket] = []

    def post(self, path: str, body: Any = None, expect: int | None = 200) -> Any:
        """POST JSON; checks the status when ``expect`` is given; returns the JSON body."""
        response = self.http.post(path, json=body)
        if expect is not None:
            assert response.status_code == expect, (path, response.status_code, response.text)
        return response.json() if response.content else None

    def get(self, path: str, expect: int | None = 200, **params: Any) -> Any:
        """GET JSON, checking the status when ``expect`` is given."""
        response = self.http.get(path, params=params)
        if expect is not None:
            assert response.status_code == expect, (path, response.status_code, response.text)
        return response.json()

    def guest(self) -> dict[str, Any]:
        """Play as a guest."""
        self.user = self.post("/api/auth/guest", expect=201)
        return self.user

    def register(self, name: str, password: str = "Tile-Slider-42") -> dict[str, Any]:
        """Create an account (and sign in)."""
        self.user = self.post("/api/auth/register", {"name": name, "password": password}, 201)
        return self.user

    def create_table(self, **spec: Any) -> dict[str, Any]:
        """Open a table; returns ``{"table": ..., "invite_url": ...}``."""
        result: dict[str, Any] = self.post("/api/tables", spec, 201)
        return result

    def connect(self, table_id: str, since: int | None = None, invite: str | None = None) -> Socket:
        """Open the table's WebSocket with this client's cookies."""
        query = []
        if since is not None:
            query.append(f"since={since}")
        if invite is not None:
            query.append(f"invite={invite}")
        url = f"{self.server.ws_url}/ws/tables/{table_id}" + (
            "?" + "&".join(query) if query else ""
        )
        sock = Socket(self, url)
        self.sockets.append(sock)
        return sock

    def cookie_header(self) -> str:
        """The Cookie header a browser would send."""
        return "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())

    def close(self) -> None:
        """Close this client's sockets and its HTTP session."""
        for sock in self.sockets:
            sock.close()
        self.http.close()


class Socket:
    """A table WebSocket; every message received is kept and recorded on the server."""

    def __init__(self, client: Client, url: str) -> None:
        self.client = client
        headers = {"Cookie": client.cookie_header()} if client.http.cookies else {}
        # max_queue=None: buffer every incoming message, as a browser does. With
        # the default (16), a socket left with more than 16 unread messages stops
        # reading the network, so close() never sees the server's close frame and
        # waits out close_timeout (10 s), ending with code 1006.
        self.ws: ClientConnection = connect(
            url, additional_headers=headers, open_timeout=10, legacy=True, max_queue=None
        )
        self.messages: list[dict[str, Any]] = []
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.to_act: list[int] = []
        self.seat: int | None = None
        self.finished = False

    def send(self, message: Any) -> None:
        """Send a JSON message (or raw text if given a string)."""
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message; ``TimeoutError`` if none comes in time."""
        message: dict[str, Any] = strict_json(self.ws.recv(timeout=timeout))
        TABLE_MESSAGE.validate_python(message)  # every message keeps to the protocol's models
        self.messages.append(message)
        self.client.server.received.append((self.client.label, message))
        self._track(message)
        return message

    def _track(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "hello":
            self.version, self.seat = message["version"], message["seat"]
            self.view, self.to_act = message["view"], message["table"]["to_act"]
            self.finished = message["table"]["status"] == "finished"
        elif kind == "event":
            assert message["version"] == self.version + 1, ("out of step", self.version, message)
            self.version = message["version"]
            self.view, self.to_act = message["view"], message["to_act"]
            if message["kind"] == "finish":
                self.finished = True
        elif kind == "resume":
            self.version = message["from"]

    def recv_until(
        self, check: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        """Receive until a message passes ``check``; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.client.label}: no message passed the check")
            message = self.recv(timeout=left)
            if check(message):
                return message

    def adopt(self, old: Socket) -> None:
        """Carry over what a client knew from its previous connection (before a resume)."""
        self.view, self.to_act, self.seat = old.view, old.to_act, old.seat
        self.finished = old.finished

    def wait_version(self, version: int, timeout: float = 20.0) -> None:
        """Receive until this socket has seen event ``version``."""
        if self.version < version:
            self.recv_until(lambda _m: self.version >= version, timeout)

    def wait_finished(self, timeout: float = 60.0) -> None:
        """Receive until this socket has seen the game's ``finish`` event."""
        if not self.finished:
            self.recv_until(lambda _m: self.finished, timeout)

    def drain(self, wait: float = 0.0) -> list[dict[str, Any]]:
        """Every message already waiting (waiting up to ``wait`` for the first)."""
        got = []
        try:
            while True:
                got.append(self.recv(timeout=wait))
                wait = 0.0
        except TimeoutError:
            return got

    def close(self) -> None:
        """Close the socket."""
        with suppress(ConnectionClosed):
            self.ws.close()


def brain(game_name: str, seed: int) -> Callable[[dict[str, Any], int], Any]:
    """A test player's mind: the random bot of that game, seeing only the view sent."""
    bot = get_bot(game_name, "random", seed)
    return lambda view, seat: bot.choose(view, seat, 0.05)


def play_out(
    sockets: dict[int, Socket],
    game_name: str,
    watchers: tuple[Socket, ...] = (),
    stop: Callable[[], bool] = lambda: False,
    timeout: float = 120.0,
) -> int:
    """Let the seated sockets play (random bot minds) until the game ends or ``stop()``.

    Returns the number of actions the sockets sent. Each action carries a
    fresh client id; the next one is sent only after its ack.
    """
    minds = {seat: brain(game_name, 1000 + seat) for seat in sockets}
    sent = 0
    deadline = time.monotonic() + timeout
    while not all(s.finished for s in sockets.values()) and not stop():
        assert time.monotonic() < deadline, "the game did not finish in time"
        acted = False
        for seat, sock in sockets.items():
            sock.drain()
            if sock.finished or seat not in sock.to_act or sock.view is None:
                continue
            action = minds[seat](sock.view, seat)
            client_id = f"{sock.client.label}-{sent}"
            sock.send({"type": "action", "id": client_id, "action": action})
            ack = sock.recv_until(lambda m, cid=client_id: m.get("id") == cid)
            assert ack["type"] == "ack", ack
            sock.wait_version(ack["version"])
            sent += 1
            acted = True
        for watcher in watchers:
            watcher.drain()
        if not acted:
            for sock in sockets.values():
                sock.drain(wait=0.02)
    for sock in (*sockets.values(), *watchers):
        sock.drain(wait=0.05)
    return sent


@contextmanager
def running(settings: Settings) -> Iterator[LiveServer]:
    """A live server for the duration of a ``with`` block."""
    server = start_server(settings)
    try:
        yield server
    finally:
        server.stop()


def url_path(invite_url: str) -> tuple[str, str]:
    """The table id and invite token in an invite link."""
    parsed = urlparse(invite_url)
    table_id = parsed.path.rsplit("/", 1)[-1]
    token = parsed.query.removeprefix("invite=")
    return table_id, token


GAMES = {name: get_game(name) for name in ("summy", "slide")}


def slide_pair(server: LiveServer) -> tuple[Client, Client, str]:
    """Two guests seated at a started two-seat Slide table."""
    alice, bob = server.client("alice"), server.client("bob")
    alice.guest()
    bob.guest()
    table = alice.create_table(game="slide", seats=2)["table"]
    bob.post(f"/api/tables/{table['id']}/join", {})
    alice.post(f"/api/tables/{table['id']}/start")
    return alice, bob, table["id"]
