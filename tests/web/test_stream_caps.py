"""Caps on open Bot API streams (per token, account, address; across servers), IPv6 addresses
counted by /64, and streams ended by the revocation broadcast rather than by polling.

Every stream is opened over a real connection (the stream tests' :class:`LineReader`);
the addresses of IPv6 clients come through ``X-Forwarded-For`` from a trusted proxy.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import (
    LiveServer,
    make_settings,
    require_redis,
    run_async,
    running,
    start_server,
    strict_json,
)
from test_bot_streams import LineReader, bot_with_token, wait_for


def refused_stream(reader: LineReader, per: str, limit: int) -> None:
    """``reader``'s stream was refused by the ``per`` cap: 429, Retry-After, the error shape."""
    assert reader.response.status_code == 429
    reader.response.read()
    retry_after = int(reader.response.headers["retry-after"])
    assert retry_after > 0
    body = reader.response.json()
    assert body["code"] == "too_many_streams"
    assert body["params"]["per"] == per and body["params"]["limit"] == limit
    assert body["retry_after"] == retry_after and body["detail"]
    reader.close()


@contextmanager
def streams(readers: list[LineReader]) -> Iterator[list[LineReader]]:
    """Close every reader at the end."""
    try:
        yield readers
    finally:
        for reader in readers:
            reader.close()


def test_a_token_holds_at_most_its_cap_of_streams(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, max_streams_per_token=2)) as server:
        _client, token = bot_with_token(server, "greedy-bot")
        with streams([LineReader(server, "/api/stream/events", token) for _ in range(2)]):
            refused_stream(LineReader(server, "/api/stream/events", token), "token", 2)


def test_an_account_holds_at_most_its_cap_over_all_its_tokens(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, max_streams_per_token=8, max_streams_per_account=3)
    with running(settings) as server:
        client, first = bot_with_token(server, "many-tokens")
        second = client.post("/api/account/tokens", {"label": "2", "scopes": ["bot:play"]}, 201)
        opened = [LineReader(server, "/api/stream/events", first) for _ in range(2)]
        opened.append(LineReader(server, "/api/stream/events", second["token"]))
        with streams(opened):
            assert all(reader.response.status_code == 200 for reader in opened)
            refused_stream(LineReader(server, "/api/stream/events", second["token"]), "account", 3)
            cookie = LineReader(server, "/api/stream/events", None, cookie=client.cookie_header())
            refused_stream(cookie, "account", 3)


def test_an_address_holds_at_most_its_cap_over_all_its_accounts(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, max_streams_per_address=3)) as server:
        tokens = [bot_with_token(server, f"sybil-{n}")[1] for n in range(4)]
        with streams([LineReader(server, "/api/stream/events", t) for t in tokens[:3]]) as held:
            assert all(reader.response.status_code == 200 for reader in held)
            refused_stream(LineReader(server, "/api/stream/events", tokens[3]), "address", 3)
            held[0].close()
            wait_for(lambda: server.services.streams.total() == 2)
            again = LineReader(server, "/api/stream/events", tokens[3])
            assert again.response.status_code == 200
            again.close()


def open_from(server: LiveServer, token: str, address: str) -> httpx.Response:
    """Open an event stream as a client at ``address`` (through the trusted proxy), read its
    first line or refusal, and close it."""
    headers = {"Authorization": f"Bearer {token}", "X-Forwarded-For": address}
    with (
        httpx.Client(base_url=server.url, timeout=30) as http,
        http.stream("GET", "/api/stream/events", headers=headers) as response,
    ):
        if response.status_code != 200:
            response.read()
        return response


def test_addresses_in_one_ipv6_slash_64_share_their_stream_cap(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, max_streams_per_address=1, trusted_proxies="127.0.0.1")
    with running(settings) as server:
        tokens = [bot_with_token(server, f"rotor-{n}")[1] for n in range(3)]
        held_headers = {"Authorization": f"Bearer {tokens[0]}", "X-Forwarded-For": "2001:db8::1"}
        with (
            httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=120)) as http,
            http.stream("GET", "/api/stream/events", headers=held_headers) as held,
        ):
            assert held.status_code == 200
            # Another address of the same /64: the same client, refused.
            refused = open_from(server, tokens[1], "2001:db8::ffff:2")
            assert refused.status_code == 429 and refused.json()["params"]["per"] == "address"
            assert int(refused.headers["retry-after"]) > 0
            # The next /64 is someone else.
            assert open_from(server, tokens[2], "2001:db8:0:1::1").status_code == 200


def test_rate_limits_count_an_ipv6_slash_64_as_one_address(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, limit_guests="2/minute", trusted_proxies="127.0.0.1")
    with running(settings) as server:
        answers = [new_guest(server, address) for address in ("2001:db8::a", "2001:db8::b")]
        assert answers == [201, 201]
        assert new_guest(server, "2001:db8::c") == 429
        assert new_guest(server, "2001:db8:0:1::a") == 201


def new_guest(server: LiveServer, address: str) -> int:
    """Ask for a guest account as a new visitor at ``address``: the answer's status."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        return http.post("/api/auth/guest", headers={"X-Forwarded-For": address}).status_code


@pytest.fixture
def capped_pair(tmp_path: Path, pg_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers sharing PostgreSQL and Redis, two streams per token, a token or session
    checked every minute only."""
    redis_url = require_redis()
    caps: dict[str, Any] = {"redis": redis_url, "max_streams_per_token": 2}
    caps["stream_recheck_s"] = 60
    first = start_server(make_settings(tmp_path / "a", pg_url, **caps))
    second = start_server(make_settings(tmp_path / "b", pg_url, **caps))
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def test_a_cap_holds_across_servers_sharing_redis(
    capped_pair: tuple[LiveServer, LiveServer],
) -> None:
    first, second = capped_pair
    _client, token = bot_with_token(first, "spread-bot")
    one = LineReader(first, "/api/stream/events", token)
    two = LineReader(second, "/api/stream/events", token)
    with streams([one, two]):
        assert one.response.status_code == two.response.status_code == 200
        refused_stream(LineReader(first, "/api/stream/events", token), "token", 2)
        refused_stream(LineReader(second, "/api/stream/events", token), "token", 2)
        one.close()
        wait_for(lambda: first.services.streams.total() == 0)
        again = LineReader(second, "/api/stream/events", token)
        assert again.response.status_code == 200
        again.close()


def test_a_dead_servers_streams_stop_counting_in_redis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from meeple.web import stream_caps
    from meeple.web.stream_caps import Cap, RedisStreamCounts, TooManyStreams

    redis_url = require_redis()
    monkeypatch.setattr(stream_caps, "TTL_S", 1.0)
    monkeypatch.setattr(stream_caps, "REFRESH_S", 0.2)
    cap = [Cap("token", f"token:test-{uuid.uuid4().hex}", 1)]

    async def scenario() -> tuple[bool, bool]:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(redis_url)
        alive, dying, other = (RedisStreamCounts(client, name) for name in "abc")
        try:
            # A live server's stream keeps counting well past its entry's first time out.
            ticket = await alive.open(cap)
            await asyncio.sleep(2.5)
            with pytest.raises(TooManyStreams):
                await other.open(cap)
            refreshed = True
            await alive.close(ticket)
            # A server that dies (stops refreshing, never closes) frees its count by itself.
            await dying.open(cap)
            await dying.stop()
            deadline = time.monotonic() + 10
            freed = False
            while not freed and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                try:
                    await other.close(await other.open(cap))
                    freed = True
                except TooManyStreams:
                    pass
            return refreshed, freed
        finally:
            for counts in (alive, dying, other):
                await counts.stop()
            await client.aclose()

    refreshed, freed = run_async(scenario())
    assert refreshed and freed


def test_a_revoked_tokens_stream_ends_by_broadcast_without_polling(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, stream_keepalive_s=0.2, stream_recheck_s=60)
    with running(settings) as server:
        client, token = bot_with_token(server, "told-bot")
        readers = [LineReader(server, "/api/stream/events", token) for _ in range(4)]
        with streams(readers):
            for reader in readers:
                assert reader.next(timeout=5, blank=True) == ""
            asked = server.services.token_checks.queries
            for reader in readers:  # a second of open streams: keep-alives, no token read
                for _ in range(5):
                    assert reader.next(timeout=5, blank=True) == ""
            assert server.services.token_checks.queries == asked
            client.http.delete(f"/api/account/tokens/{client.get('/api/account/tokens')[0]['id']}")
            for reader in readers:
                assert reader.next(timeout=10) is None, "the stream ended"
            wait_for(lambda: server.services.streams.total() == 0)


def test_a_password_change_ends_the_other_sessions_streams_at_once(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, stream_recheck_s=60)) as server:
        ada = server.client("ada")
        ada.register("ada")
        laptop = server.client("laptop")
        laptop.post("/api/auth/login", {"name": "ada", "password": "Tile-Slider-42"})
        events = LineReader(server, "/api/stream/events", None, cookie=laptop.cookie_header())
        with streams([events]):
            assert events.response.status_code == 200
            change = {"current_password": "Tile-Slider-42", "new_password": "Other-Tiles-43"}
            ada.post("/api/auth/password", change, expect=204)
            assert events.next(timeout=10) is None, "the stream ended with its session"


def test_a_token_revoked_on_one_server_ends_its_stream_on_the_other(
    capped_pair: tuple[LiveServer, LiveServer],
) -> None:
    first, second = capped_pair
    client, token = bot_with_token(first, "far-revoked-bot")
    events = LineReader(second, "/api/stream/events", token)
    with streams([events]):
        assert events.response.status_code == 200
        asked = second.services.token_checks.queries
        client.http.delete(f"/api/account/tokens/{client.get('/api/account/tokens')[0]['id']}")
        assert events.next(timeout=10) is None, "the stream ended"
        # One check of the account's streams on the broadcast, not a poll.
        assert second.services.token_checks.queries - asked <= 1


def test_a_gzip_stream_is_one_valid_gzip_member_to_its_end(tmp_path: Path) -> None:
    import gzip

    from test_bot_streams import on_server_loop

    from meeple.tables.notices.user_events import publish_user_event

    settings = make_settings(tmp_path, stream_keepalive_s=0.2)
    with running(settings) as server:
        client, token = bot_with_token(server, "zipped-bot")
        user_id = client.user["id"] if client.user else 0
        headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": "gzip"}
        raw = b""
        with (
            httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=60)) as http,
            http.stream("GET", "/api/stream/events", headers=headers) as response,
        ):
            assert response.headers["content-encoding"] == "gzip"
            wait_for(lambda: server.services.streams.total() == 1)
            for n in range(3):
                line = {"type": "x", "n": n, "filler": "ab" * 3000}
                on_server_loop(server, publish_user_event(server.services.bus, user_id, line))
            time.sleep(0.5)  # keep-alives between the lines too
            client.http.delete(f"/api/account/tokens/{client.get('/api/account/tokens')[0]['id']}")
            for chunk in response.iter_raw():
                raw += chunk
        # The whole body, checked against its trailer's CRC-32 and length.
        lines = [line for line in gzip.decompress(raw).split(b"\n") if line]
        assert [strict_json(line)["n"] for line in lines] == [0, 1, 2]


def test_a_server_holds_at_most_its_cap_whoever_opens_the_streams(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, max_streams_per_server=2, trusted_proxies="127.0.0.1")
    with running(settings) as server:
        tokens = [bot_with_token(server, f"crowd-{n}")[1] for n in range(3)]
        with httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=120)) as http:
            first, second = from_address(tokens[0], "10.0.0.1"), from_address(tokens[1], "10.0.0.2")
            with (
                http.stream("GET", "/api/stream/events", headers=first) as one,
                http.stream("GET", "/api/stream/events", headers=second) as two,
            ):
                assert (one.status_code, two.status_code) == (200, 200)
                refused = open_from(server, tokens[2], "10.0.0.3")  # another account and address
                assert refused.status_code == 429
                assert refused.json()["params"] == {"limit": 2, "per": "server", "seconds": 10}
                assert int(refused.headers["retry-after"]) > 0
            wait_for(lambda: server.services.streams.total() == 0)
            assert open_from(server, tokens[2], "10.0.0.3").status_code == 200


def from_address(token: str, address: str) -> dict[str, str]:
    """Headers of a Bot API client at ``address`` (through the trusted proxy)."""
    return {"Authorization": f"Bearer {token}", "X-Forwarded-For": address}
