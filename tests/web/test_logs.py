"""The server's log: JSON or text lines, a request id carried into the table work it caused,
and no secret in any line (docs/operations.md)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from serve_process import ServeProcess
from server_harness import LiveServer, free_port, make_settings, running
from smtp_server import SmtpServer, body_text, smtp_server
from websockets.sync.client import connect

from meeple.bus import make_bus
from meeple.observe.logs import FIELDS, log_handler
from meeple.observe.request_ids import REQUEST_ID, TABLE_ID, working_for
from meeple.tables.cluster.calls import CallRouter
from meeple.tables.commands import Chat

SECRET = "Zq9-very-secret-Xw4"
log = logging.getLogger("meeple.test_logs")


def lines_of(stream: io.StringIO) -> list[dict[str, Any]]:
    """Every JSON line written so far (each must be one JSON object)."""
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@contextmanager
def json_log(level: int = logging.DEBUG) -> Iterator[io.StringIO]:
    """The server's records (meeple's and uvicorn's, its access lines included) as JSON lines,
    as ``meeple serve`` writes them with MEEPLE_LOG_FORMAT=json."""
    stream = io.StringIO()
    handler = log_handler("json", stream)
    handler.addFilter(lambda record: record.name.startswith(("meeple", "uvicorn")))
    # The test server's uvicorn keeps its records to its own handlers (``meeple serve`` gives
    # them to the root's): its access lines are taken where they are.
    root, access = logging.getLogger(), logging.getLogger("uvicorn.access")
    kept = root.level, access.level
    for logger in (root, access):
        logger.addHandler(handler)
    root.setLevel(level)
    access.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        for logger in (root, access):
            logger.removeHandler(handler)
        root.setLevel(kept[0])
        access.setLevel(kept[1])


CASES = [
    ("Authorization: Bearer %s", SECRET),
    ("headers %r", {"authorization": f"Bearer {SECRET}", "host": "play.example"}),
    ("Cookie: meeple_session=%s; meeple_lang=fr", SECRET),
    ("the cookie meeple_session=%s came back", SECRET),
    ('"GET /api/stream/events?token=%s HTTP/1.1" 200', SECRET),
    ("GET /tables/abc?invite=%s", SECRET),
    ("sign-up with password=%s", SECRET),
    ("body %s", json.dumps({"name": "ada", "password": SECRET})),
    ("reset with new_password: %s", SECRET),
    ("MEEPLE_METRICS_TOKEN=%s", SECRET),
    ("cannot reach postgresql+psycopg://meeple:%s@db:5432/meeple", SECRET),
    ("cannot reach rediss://:%s@cache:6379/0", SECRET),
    (
        "sending %s",
        "From: meeple <noreply@play.example>\nTo: ada@example.org\nMIME-Version: 1.0\n"
        f"Content-Type: text/plain\n\nHello ada, your link: /password/reset?t={SECRET}\n",
    ),
]


@pytest.mark.parametrize(("message", "value"), CASES)
def test_the_filter_hides_every_kind_of_secret(message: str, value: object) -> None:
    stream = io.StringIO()
    handler = log_handler("json", stream)
    log.addHandler(handler)
    try:
        log.warning(message, value)
    finally:
        log.removeHandler(handler)
    [line] = lines_of(stream)
    assert SECRET not in stream.getvalue()
    assert "redacted]" in line["message"] or "***@" in line["message"]


def test_a_secret_in_an_exception_or_the_text_format_is_hidden_too() -> None:
    stream, text = io.StringIO(), io.StringIO()
    handlers = [log_handler("json", stream), log_handler("text", text)]
    for handler in handlers:
        log.addHandler(handler)
    try:
        try:
            raise ValueError(f"the server refused token={SECRET}")
        except ValueError:
            log.exception("login for %s failed: password=%s", "ada", SECRET)
    finally:
        for handler in handlers:
            log.removeHandler(handler)
    [line] = lines_of(stream)
    assert line["message"] == "login for ada failed: password=[redacted]"
    assert "ValueError: the server refused token=[redacted]" in line["exception"]
    assert SECRET not in stream.getvalue() and SECRET not in text.getvalue()
    assert "ERROR meeple.test_logs: login for ada failed: password=[redacted]" in text.getvalue()


def test_a_json_line_has_the_documented_fields_and_a_text_line_the_same() -> None:
    stream, text = io.StringIO(), io.StringIO()
    handlers = [log_handler("json", stream), log_handler("text", text)]
    for handler in handlers:
        log.addHandler(handler)
    try:
        log.warning("outside any request")
        with working_for("req-1"):
            log.warning("in a request")
            log.warning("on a table", extra={"table_id": "t-9"})
    finally:
        for handler in handlers:
            log.removeHandler(handler)
    first, second, third = lines_of(stream)
    assert list(first) == ["time", "level", "logger", "message"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", first["time"])
    assert (first["level"], first["logger"]) == ("WARNING", "meeple.test_logs")
    assert second["request_id"] == "req-1" and "table_id" not in second
    assert list(third) == list(FIELDS[:6]) and third["table_id"] == "t-9"
    shown = text.getvalue().splitlines()
    assert shown[0].endswith(" WARNING meeple.test_logs: outside any request")
    assert shown[1].endswith(" WARNING meeple.test_logs [request req-1]: in a request")
    assert shown[2].endswith(" [request req-1 table t-9]: on a table")


def test_a_request_id_follows_the_table_work_it_caused(server: LiveServer) -> None:
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    with json_log() as stream:
        started = alice.http.post(
            f"/api/tables/{table_id}/start", headers={"X-Request-ID": "start-42"}
        )
        assert started.status_code == 200
        assert started.headers["X-Request-ID"] == "start-42"
        deadline = time.monotonic() + 20
        while not any("moved" in line["message"] for line in lines_of(stream)):
            assert time.monotonic() < deadline, "the bot did not move"
            time.sleep(0.02)
    lines = lines_of(stream)
    mine = [line for line in lines if line.get("request_id") == "start-42"]
    answered = [line for line in mine if line["logger"] == "meeple.tables.cluster.writes"]
    assert [line["message"].split(" in ")[0] for line in answered] == ["start done"]
    assert answered[0]["table_id"] == table_id and answered[0]["level"] == "DEBUG"
    bot_moves = [line for line in lines if line["logger"] == "meeple.tables.core.runtime"]
    assert bot_moves and all(line["message"] == "the bot in seat 1 moved" for line in bot_moves)
    # The bot's move ran in a task of its own, started by the request: it names the request.
    assert {(line["request_id"], line["table_id"]) for line in bot_moves} == {
        ("start-42", table_id)
    }
    access = [line for line in mine if line["logger"] == "uvicorn.access"]
    assert len(access) == 1 and f"/api/tables/{table_id}/start" in access[0]["message"]


def test_each_request_and_socket_gets_an_id_a_bad_one_is_replaced(server: LiveServer) -> None:
    # A generous read timeout: the first 404 renders a page (templates compiled on first use),
    # which on a loaded CI machine once took over httpx's default 5 s.
    client = httpx.Client(timeout=30)
    made = client.get(f"{server.url}/api/health").headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    again = client.get(f"{server.url}/api/health").headers["X-Request-ID"]
    assert again != made
    for bad in ("two words", "x" * 65, b"id\xe9", "-leading-dash", "a/b"):
        answer = client.get(f"{server.url}/api/health", headers={"X-Request-ID": bad})
        assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["X-Request-ID"]), bad
    kept = client.get(f"{server.url}/nowhere", headers={"X-Request-ID": "proxy-7f3a:1"})
    assert kept.status_code == 404 and kept.headers["X-Request-ID"] == "proxy-7f3a:1"
    with connect(f"{server.ws_url}/ws/lobby", additional_headers={"X-Request-ID": "sock-1"}) as ws:
        assert ws.response is not None and ws.response.headers["X-Request-ID"] == "sock-1"


def test_a_forwarded_command_runs_on_the_owner_for_the_callers_request() -> None:
    seen: list[tuple[str | None, str | None]] = []

    async def run_here(table: Any, command: Any) -> int:
        seen.append((REQUEST_ID.get(), TABLE_ID.get()))
        return 7

    async def main() -> int:
        bus = make_bus(None)
        table = SimpleNamespace(owned=True)

        async def find(table_id: str) -> Any:
            return table

        owner, caller = CallRouter(bus, "owner", find), CallRouter(bus, "caller", find)
        await owner.start(run_here)
        await caller.start()
        try:
            with working_for("req-on-caller"):
                answer: int = await caller.call("owner", "t-1", Chat(1, "ada", "hi"), timeout=5)
            return answer
        finally:
            await caller.stop()
            await owner.stop()
            await bus.close()

    assert asyncio.run(main()) == 7
    assert seen == [("req-on-caller", "t-1")]


def test_no_secret_reaches_the_log_of_a_site_in_use(tmp_path: Path) -> None:
    with smtp_server() as smtp:
        settings = make_settings(tmp_path, smtp_url=smtp.url, site_url="http://play.example")
        with running(settings) as server, json_log() as stream:
            secrets = use_the_site(server, smtp)
    written = stream.getvalue()
    messages = [line["message"] for line in lines_of(stream)]
    # The links' tokens crossed the server in query strings, which its access lines show.
    assert any("/email/verify?token=[redacted] " in message for message in messages)
    assert any("/api/auth/me?access_token=[redacted] " in message for message in messages)
    for name, value in secrets.items():
        assert value not in written, f"the {name} is in the log"


def use_the_site(server: LiveServer, smtp: SmtpServer) -> dict[str, str]:
    """Sign up, sign in, make a token and use it (in a header and in a query string), have a
    password reset emailed; every secret that crossed the server, by name."""
    password = "Tile-Slider-" + SECRET
    ada = server.client("ada")
    ada.register("ada", password)
    ada.post("/api/auth/logout", expect=204)
    ada.post("/api/auth/login", {"name": "ada", "password": password})
    cookie = ada.http.cookies["meeple_session"]
    token = ada.post("/api/account/tokens", {"label": "cli", "scopes": ["games:read"]}, 201)
    bearer = {"Authorization": f"Bearer {token['token']}"}
    assert httpx.get(f"{server.url}/api/auth/me", headers=bearer).status_code == 200
    httpx.get(f"{server.url}/api/auth/me", params={"access_token": token["token"]})
    assert ada.http.put("/api/account/email", json={"address": "ada@example.org"}).is_success
    verify = token_in(body_text(smtp.wait_for(lambda m: m["To"] == "ada@example.org")))
    assert ada.http.get("/email/verify", params={"token": verify}).is_success  # an access line
    assert ada.http.post("/api/password/forgot", json={"name_or_email": "ada"}).is_success
    email = smtp.wait_for(lambda m: "new password" in str(m["Subject"]))
    body = body_text(email)
    return {
        "password": password,
        "session cookie": cookie,
        "token": token["token"],
        "verification link's token": verify,
        "reset link's token": token_in(body),
        "email's body": max(body.splitlines(), key=len),
    }


def token_in(body: str) -> str:
    """The token of the one-time link in an email's text."""
    link = re.search(r"token=([^\s&\"'>]+)", body)
    assert link is not None, body
    return link[1]


def test_meeple_serve_writes_json_lines_when_asked(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path, free_port(), {"MEEPLE_LOG_FORMAT": "json"}, "info")
    try:
        answer = httpx.get(f"{server.url}/api/ready", headers={"X-Request-ID": "ready-1"})
        assert answer.headers["X-Request-ID"] == "ready-1"
    finally:
        server.stop()
    lines = [json.loads(line) for line in (tmp_path / "serve.log").read_text().splitlines()]
    assert {"uvicorn.error", "uvicorn.access", "meeple.tables.notices.outbox"} <= {
        line["logger"] for line in lines
    }
    assert all(set(line) <= set(FIELDS) for line in lines)
    [ready] = [line for line in lines if "/api/ready" in line["message"]]
    assert ready["request_id"] == "ready-1" and ready["level"] == "INFO"


@pytest.mark.postgres
@pytest.mark.redis
def test_the_owner_logs_a_forwarded_command_under_the_callers_request_id(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    east, west = two_servers
    alice = east.client("alice")
    alice.register("alice")
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    with json_log() as stream:
        # Started through the other server: it forwards the start to the table's owner (east),
        # whose bot then moves there.
        started = httpx.post(
            f"{west.url}/api/tables/{table_id}/start",
            cookies=alice.http.cookies,
            headers={"X-Request-ID": "start-via-west"},
        )
        assert started.status_code == 200, started.text
        deadline = time.monotonic() + 20
        while not any("moved" in line["message"] for line in lines_of(stream)):
            assert time.monotonic() < deadline, "the bot did not move"
            time.sleep(0.02)
    assert west.services.tables.cluster.calls.stats.sent >= 1
    assert east.services.tables.cluster.calls.stats.answered >= 1
    moves = [line for line in lines_of(stream) if line["message"] == "the bot in seat 1 moved"]
    assert moves and {(m["request_id"], m["table_id"]) for m in moves} == {
        ("start-via-west", table_id)
    }
