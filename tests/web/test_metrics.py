"""``GET /metrics``: read with Prometheus' own parser after real play, behind its token."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from bot_api_support import bot_account
from event_streams import EventStream
from prometheus_client.parser import text_string_to_metric_families
from server_harness import LiveServer, make_settings, play_out, require_redis, start_server
from websockets.sync.client import connect

TOKEN = "m" * 40
Figures = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(server: LiveServer, token: str = TOKEN) -> Figures:
    """Every sample of /metrics, by name and labels, read by the Prometheus parser."""
    answer = httpx.get(f"{server.url}/metrics", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=")
    figures: Figures = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            figures[sample.name, frozenset(sample.labels.items())] = sample.value
    return figures


def figure(figures: Figures, name: str, **labels: str) -> float:
    """One sample's value (a ``KeyError`` if the server did not give it)."""
    return figures[name, frozenset(labels.items())]


def wait_for(server: LiveServer, holds: Callable[[Figures], bool]) -> Figures:
    """Scrape until ``holds`` (the count moves after the client's side has seen its end)."""
    deadline = time.monotonic() + 20
    while True:
        figures = scrape(server)
        if holds(figures):
            return figures
        assert time.monotonic() < deadline, "the figures did not come"
        time.sleep(0.05)


@pytest.fixture
def watched(tmp_path: Path) -> LiveServer:
    """A server with a metrics token and a chat limit of one line a minute."""
    return start_server(make_settings(tmp_path, metrics_token=TOKEN, limit_chat="1/minute"))


def test_the_figures_move_with_a_game_played_through_the_api(
    watched: LiveServer, tmp_path: Path
) -> None:
    server = watched
    try:
        before = scrape(server)
        assert figure(before, "meeple_connections", kind="table_socket") == 0
        assert figure(before, "meeple_round_trip_seconds", to="database") > 0
        assert ("meeple_round_trip_seconds", frozenset({("to", "redis")})) not in before
        assert figure(before, "meeple_outbox_emails", status="pending") == 0

        alice = server.client("alice")
        alice.guest()
        table_id = alice.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
        alice.post(f"/api/tables/{table_id}/start")
        sock = alice.connect(table_id)
        sock.recv()
        during = scrape(server)
        assert figure(during, "meeple_connections", kind="table_socket") == 1
        assert figure(during, "meeple_tables", status="playing", owned="true") == 1

        sock.send({"type": "action", "id": "bad", "action": {"nonsense": True}})
        assert sock.recv_until(lambda m: m.get("id") == "bad")["type"] == "error"
        sock.send({"type": "chat", "id": "c1", "text": "hello"})
        sock.send({"type": "chat", "id": "c2", "text": "again"})
        refused = sock.recv_until(lambda m: m.get("id") == "c2")
        assert refused["code"] == "rate_limited"
        sent = play_out({0: sock}, "slide")
        sock.close()

        after = wait_for(
            server, lambda f: figure(f, "meeple_connections", kind="table_socket") == 0
        )
        assert figure(after, "meeple_tables", status="finished", owned="true") == 1
        acts = figure(after, "meeple_command_seconds_count", command="act", outcome="done")
        assert acts == sent
        assert figure(after, "meeple_command_seconds_count", command="act", outcome="refused") == 1
        assert figure(after, "meeple_command_seconds_count", command="chat", outcome="done") == 1
        slowest = figure(
            after, "meeple_command_seconds_bucket", command="act", outcome="done", le="+Inf"
        )
        assert slowest == acts
        assert figure(after, "meeple_actions_applied_total", by="player") == sent
        bot_moves = figure(after, "meeple_actions_applied_total", by="bot")
        assert bot_moves >= 1
        assert figure(after, "meeple_bot_requests_total") >= bot_moves
        assert figure(after, "meeple_bot_queue_depth") == 0
        assert figure(after, "meeple_bot_fallbacks_total", reason="overrun") >= 0
        assert figure(after, "meeple_rate_limit_refusals_total", kind="chat") == 1
        assert figure(after, "meeple_forwarded_calls_total", kind="sent") == 0
        assert figure(after, "meeple_email_send_failures_total") == 0
        assert figure(after, "meeple_leases_lost_total") == 0

        _bot, token = bot_account(server, "metrics-bot")
        stream = EventStream(server.url, {"Authorization": f"Bearer {token}"})
        try:
            wait_for(server, lambda f: figure(f, "meeple_connections", kind="event_stream") == 1)
        finally:
            stream.close()
        wait_for(server, lambda f: figure(f, "meeple_connections", kind="event_stream") == 0)

        # The pages' other sockets: the lobby's, the account's (/ws/me), a tournament's.
        lobby_url = f"{server.ws_url}/ws/lobby"
        me_url = f"{server.ws_url}/ws/me"
        cookie = {"Cookie": alice.cookie_header()}
        body = {"name": "Counted", "game": "summy", "format": "swiss", "rounds": 1,
                "starts_at": server.clock.now() + 600}  # fmt: skip
        tournament_url = (
            f"{server.ws_url}/ws/tournaments/" + (alice.post("/api/tournaments", body, 201)["id"])
        )
        opened = [
            connect(lobby_url, legacy=True, max_queue=None),
            connect(me_url, additional_headers=cookie, legacy=True, max_queue=None),
            connect(tournament_url, legacy=True, max_queue=None),
        ]
        for each in opened:
            each.recv(timeout=10)  # its first message: it is counted by now
        kinds = ("lobby_socket", "account_socket", "tournament_socket")
        open_now = scrape(server)
        assert [figure(open_now, "meeple_connections", kind=k) for k in kinds] == [1, 1, 1]
        for each in opened:
            each.close()
        wait_for(
            server,
            lambda f: [figure(f, "meeple_connections", kind=k) for k in kinds] == [0, 0, 0],
        )

        # A game left running is taken back by the next server on the same database: a
        # second app in this process, with its own registry.
        again = alice.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
        alice.post(f"/api/tables/{again}/start")
    finally:
        server.stop()
    restarted = start_server(server.services.settings)
    try:
        figures = scrape(restarted)
        assert figure(figures, "meeple_lease_takeovers_total") >= 1
        assert figure(figures, "meeple_tables", status="playing", owned="true") >= 1
        fresh = ("meeple_actions_applied_total", frozenset({("by", "player")}))
        assert fresh not in figures  # its own registry: nothing counted there yet
    finally:
        restarted.stop()


def test_metrics_need_the_token_and_are_off_without_one(
    watched: LiveServer, server: LiveServer
) -> None:
    try:
        url = f"{watched.url}/metrics"
        assert httpx.get(url).status_code == 401
        wrong = httpx.get(url, headers={"Authorization": "Bearer " + "n" * 40})
        assert wrong.status_code == 401 and "meeple_" not in wrong.text
        assert httpx.get(url, headers={"Authorization": f"Basic {TOKEN}"}).status_code == 401
        short = httpx.get(url, headers={"Authorization": f"Bearer {TOKEN[:-1]}"})
        assert short.status_code == 401
        assert httpx.get(url, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    finally:
        watched.stop()
    off = httpx.get(f"{server.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert off.status_code == 404
    assert "/metrics" not in httpx.get(f"{server.url}/openapi.json").json()["paths"]


@pytest.mark.postgres
@pytest.mark.redis
def test_two_servers_count_the_calls_they_forward_and_time_redis(
    tmp_path: Path, pg_url: str
) -> None:
    redis_url = require_redis()
    # Long leases: on a loaded machine a 2 s lease can lapse between the table's opening and
    # the join, and the other server then takes the table over instead of forwarding to it.
    both = {"redis": redis_url, "metrics_token": TOKEN, "lease_s": 20}
    east = start_server(make_settings(tmp_path / "a", pg_url, **both))
    west = start_server(make_settings(tmp_path / "b", pg_url, **both))
    try:
        alice, bob = east.client("alice"), west.client("bob")
        alice.guest()
        bob.guest()
        table_id = alice.create_table(game="slide", seats=2)["table"]["id"]
        bob.post(f"/api/tables/{table_id}/join", {})  # east runs the table: forwarded there
        on_east, on_west = scrape(east), scrape(west)
        assert figure(on_west, "meeple_forwarded_calls_total", kind="sent") >= 1
        assert figure(on_east, "meeple_forwarded_calls_total", kind="answered") >= 1
        assert figure(on_west, "meeple_command_seconds_count", command="join", outcome="done") == 1
        assert figure(on_east, "meeple_tables", status="open", owned="true") == 1
        assert figure(on_west, "meeple_tables", status="open", owned="false") == 1
        for figures in (on_east, on_west):
            assert figure(figures, "meeple_round_trip_seconds", to="redis") > 0
    finally:
        east.stop()
        west.stop()
