"""Hostile input over REST, limits under concurrency, passwords off the loop, shared keys.

Each test replays an attack that once worked (issue 10) against a real server.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from server_harness import (
    LiveServer,
    make_settings,
    play_out,
    require_redis,
    run_async,
    running,
)
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from meeple.ratelimit import RateLimited, RateLimits
from meeple.store import queries
from meeple.web import security


@pytest.fixture
def stored_server(tmp_path: Path, db_url: str) -> Iterator[LiveServer]:
    """A live server on SQLite, then on PostgreSQL (each stored what the other refused)."""
    with running(make_settings(tmp_path, db_url)) as server:
        yield server


def started_slide(server: LiveServer) -> tuple[Any, str]:
    """A guest seated at a started two-seat Slide table against a bot."""
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    alice.post(f"/api/tables/{table_id}/start")
    return alice, table_id


def raw_post(client: Any, path: str, text: str) -> httpx.Response:
    """POST a body exactly as written (``json=`` would refuse or rewrite what is tested)."""
    response: httpx.Response = client.http.post(
        path,
        content=text.encode("utf-8", "surrogatepass"),
        headers={"content-type": "application/json"},
    )
    return response


def stored_actions(server: LiveServer, table_id: str, seat: int) -> list[Any]:
    """The action of every stored action event of ``seat``, as the store keeps it."""
    rows = server.services.db.call(queries.events_after, table_id, 0)
    return [row.data["action"] for row in rows if row.kind == "action" and row.seat == seat]


def test_an_action_with_an_unknown_key_is_refused_and_nothing_is_stored(
    stored_server: LiveServer,
) -> None:
    server = stored_server
    alice, table_id = started_slide(server)
    junk = {"type": "reveal", "cell": [0, 0], "junk": "J" * 5000}
    refused = alice.post(f"/api/tables/{table_id}/actions", {"action": junk}, expect=400)
    assert refused["code"] == "illegal" and "'junk'" in refused["detail"]
    nan = '{"action": {"type": "reveal", "cell": [0, 0], "x": NaN}}'
    response = raw_post(alice, f"/api/tables/{table_id}/actions", nan)
    assert response.status_code == 400 and response.json()["code"] == "bad_json"
    assert stored_actions(server, table_id, 0) == []
    alice.post(f"/api/tables/{table_id}/actions", {"action": {"type": "reveal", "cell": [0, 0]}})
    assert stored_actions(server, table_id, 0)[0] == {"type": "reveal", "cell": [0, 0]}


def test_a_body_over_the_size_limit_is_refused_before_it_is_read(server: LiveServer) -> None:
    alice, table_id = started_slide(server)
    big = {"action": {"type": "reveal", "cell": [0, 0]}, "id": "x" * 20000}
    response = alice.http.post(f"/api/tables/{table_id}/actions", json=big)
    assert response.status_code == 413 and response.json()["code"] == "too_big"


def test_a_lone_surrogate_in_chat_is_refused_and_the_history_stays_readable(
    stored_server: LiveServer,
) -> None:
    alice, table_id = started_slide(stored_server)
    response = raw_post(alice, f"/api/tables/{table_id}/chat", '{"text": "x\\ud800y"}')
    assert response.status_code == 400 and response.json()["code"] == "bad_json"
    sock = alice.connect(table_id)
    sock.recv()
    sock.send('{"type": "chat", "id": "s", "text": "x\\ud800y"}')
    assert sock.recv_until(lambda m: m["type"] == "error")["code"] == "bad_json"
    alice.post(f"/api/tables/{table_id}/chat", {"text": "a real emoji 😀 is fine"})
    events = alice.get(f"/api/tables/{table_id}/events")
    assert [e["data"]["text"] for e in events if e["kind"] == "chat"] == ["a real emoji 😀 is fine"]


HOSTILE_BODIES = [
    ("infinite clock", '{"game": "slide", "seats": 2, "move_seconds": 1e400}', 400),
    ("NaN clock", '{"game": "slide", "seats": 2, "move_seconds": NaN}', 400),
    (
        "deep nesting",
        '{"game": "slide", "seats": 2, "options": ' + "[" * 3000 + "]" * 3000 + "}",
        400,
    ),
    ("huge integer", '{"game": "slide", "seats": ' + "9" * 5000 + "}", 400),
    ("not JSON", '{"game": ', 400),
    ("not UTF-8", '{"game": "\udcff"}', 400),
    ("NUL character", '{"game": "slide", "seats": 2, "options": {"a\\u0000": 1}}', 400),
    ("wrong type", '{"game": "slide", "seats": "two"}', 422),
    ("unknown field", '{"game": "slide", "seats": 2, "colour": "red"}', 422),
]


@pytest.mark.parametrize(
    ("case", "body", "status"), HOSTILE_BODIES, ids=[c[0] for c in HOSTILE_BODIES]
)
def test_a_hostile_body_gets_a_json_refusal_and_the_connection_keeps_working(
    server: LiveServer, case: str, body: str, status: int
) -> None:
    client = server.client()
    client.guest()
    response = raw_post(client, "/api/tables", body)
    assert response.status_code == status, (case, response.text)
    refusal = response.json()
    assert isinstance(refusal["detail"], str) and refusal["detail"]
    assert client.get("/api/health")["status"] == "ok"  # the same keep-alive connection


def test_a_nul_in_a_url_or_a_string_is_refused_even_on_postgresql(
    stored_server: LiveServer,
) -> None:
    alice, table_id = started_slide(stored_server)
    for path in ("/api/tables/a%00b", "/api/users/a%00b", "/api/tables?game=a%00b"):
        response = alice.http.get(path)
        assert response.status_code == 400 and response.json()["code"] == "bad_url", path
    for path, body in (
        ("/api/auth/login", '{"name": "a\\u0000b", "password": "xxxxxxxxxx"}'),
        (f"/api/tables/{table_id}/chat", '{"text": "a\\u0000b"}'),
    ):
        response = raw_post(alice, path, body)
        assert response.status_code == 400 and response.json()["code"] == "bad_json", path
    with pytest.raises(InvalidStatus):
        connect(f"{stored_server.ws_url}/ws/tables/a%00b", open_timeout=5)
    assert alice.get(f"/api/tables/{table_id}/events")


def test_a_route_that_fails_answers_json_and_keeps_the_connection(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(queries, "user_by_name", broken)
    client = server.client()
    response = client.http.post("/api/auth/login", json={"name": "x", "password": "y" * 10})
    assert response.status_code == 500 and response.json()["code"] == "server_error"
    assert client.get("/api/health")["status"] == "ok"


def test_chat_sent_all_at_once_stays_within_its_limit(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, limit_chat="20/minute")) as server:
        alice, table_id = started_slide(server)

        def say(n: int) -> int:
            response = alice.http.post(f"/api/tables/{table_id}/chat", json={"text": f"line {n}"})
            return response.status_code

        with ThreadPoolExecutor(max_workers=12) as pool:
            codes = list(pool.map(say, range(60)))
        assert codes.count(200) == 20 and codes.count(429) == 40
        chats = [e for e in alice.get(f"/api/tables/{table_id}/events") if e["kind"] == "chat"]
        assert len(chats) == 20


def test_table_creation_is_limited_per_user(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, limit_tables="3/hour")) as server:
        alice = server.client()
        alice.guest()
        for _ in range(3):
            alice.create_table(game="slide", seats=2)
        refused = alice.post("/api/tables", {"game": "slide", "seats": 2}, expect=429)
        assert refused["code"] == "rate_limited" and "new tables" in refused["detail"]


def test_limits_count_atomically_in_memory() -> None:
    async def scenario() -> int:
        limits = RateLimits({"chat": "5/minute"})
        outcomes = await asyncio.gather(
            *(limits.hit("chat", "7") for _ in range(40)), return_exceptions=True
        )
        assert all(o is None or isinstance(o, RateLimited) for o in outcomes)
        return sum(o is None for o in outcomes)

    assert run_async(scenario()) == 5


@pytest.mark.redis
def test_limits_count_atomically_across_servers_in_redis() -> None:
    url = require_redis()

    async def scenario() -> int:
        servers = [RateLimits({"guest": "7/minute"}, url) for _ in range(2)]
        await servers[0].reset()
        hits = [servers[n % 2].hit("guest", "198.51.100.7") for n in range(40)]
        outcomes = await asyncio.gather(*hits, return_exceptions=True)
        await servers[0].reset()
        return sum(o is None for o in outcomes)

    assert run_async(scenario()) == 7


def test_an_unknown_name_costs_the_same_password_work_off_the_event_loop(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real = security._hasher

    class Spy:
        def verify(self, stored: str, password: str) -> bool:
            seen.append(threading.current_thread().name)
            return real.verify(stored, password)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    monkeypatch.setattr(security, "_hasher", Spy())
    client = server.client()
    client.register("Turing", "Enigma-Bombe-1940")
    client.post("/api/auth/login", {"name": "Turing", "password": "Enigma-Bombe-1941"}, expect=401)
    client.post("/api/auth/login", {"name": "Nobody", "password": "Enigma-Bombe-1941"}, expect=401)
    assert len(seen) == 2
    assert all(name.startswith("meeple-passwords") for name in seen)


def test_an_outdated_password_hash_is_replaced_at_log_in(server: LiveServer) -> None:
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    old_hash = weak.hash("Old-Parameters-1999")
    server.services.db.call(queries.create_user, "Hopper", old_hash, False, 0.0)
    client = server.client()
    client.post("/api/auth/login", {"name": "Hopper", "password": "Old-Parameters-1999"})
    user = server.services.db.call(queries.user_by_name, "Hopper")
    assert user is not None and user.password_hash != old_hash
    assert not PasswordHasher().check_needs_rehash(user.password_hash)
    client.post("/api/auth/logout", expect=204)
    client.post("/api/auth/login", {"name": "Hopper", "password": "Old-Parameters-1999"})


def test_two_servers_with_their_own_data_folders_accept_each_others_cookies(
    tmp_path: Path,
) -> None:
    shared_db = f"sqlite:///{tmp_path / 'shared.db'}"
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    first = make_settings(tmp_path / "one", shared_db, secret_key=None)
    second = make_settings(tmp_path / "two", shared_db, secret_key=None)
    with running(first) as one, running(second) as two:
        alice = one.client("alice")
        me = alice.register("Shannon", "Information-Theory-48")
        on_two = two.client("alice on two")
        on_two.http.cookies.update(alice.http.cookies)
        assert on_two.get("/api/auth/me") == me


def test_a_table_still_plays_to_the_end_after_hostile_input(server: LiveServer) -> None:
    alice, table_id = started_slide(server)
    sock = alice.connect(table_id)
    sock.recv()
    for raw in ('{"type": "action", "action": ' + "[" * 5000 + "]" * 5000 + "}", "[NaN]", "{}"):
        sock.send(raw)
        assert sock.recv_until(lambda m: m["type"] == "error")["code"]
    play_out({0: sock}, "slide")
    events = alice.get(f"/api/tables/{table_id}/events")
    assert events[-1]["kind"] == "finish"
    assert json.dumps(events)


def test_a_table_socket_with_a_since_that_is_not_a_version_is_refused(
    stored_server: LiveServer,
) -> None:
    """``since`` is a whole number or absent: anything else is refused at the handshake
    (403), and a good one still resumes."""
    alice, table_id = started_slide(stored_server)
    base = f"{stored_server.ws_url}/ws/tables/{table_id}"
    for since in ("abc", "1.5", "", "9" * 5000, "1e3"):
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{base}?since={since}", open_timeout=5)
        assert refused.value.response.status_code == 403, since
    for since in ("1", "+1", "%2B1", "-3", "007"):
        with connect(
            f"{base}?since={since}",
            open_timeout=5,
            additional_headers={"Cookie": alice.cookie_header()},
        ) as sock:
            first = json.loads(sock.recv(timeout=5))
            assert first["type"] in ("resume", "hello"), since
