"""The site's recurring tournaments (MEEPLE_RECURRING_TOURNAMENTS): the next one is always
scheduled, at the next multiple of its period, stored once, with no creator; it runs as any
other; a wrong one keeps the server from starting."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError
from server_harness import LiveServer, make_settings, start_server
from test_tournament_play import players, wait_until

from meeple.config import Settings
from meeple.errors import TableError
from meeple.tables.tournaments.plan import recurring_ask

HOURLY = {"name": "Hourly Summy Arena", "game": "summy", "format": "arena", "minutes": 30,
          "every_minutes": 60}  # fmt: skip


@pytest.fixture
def site(tmp_path: Path) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path, recurring_tournaments=json.dumps([HOURLY]))
    server = start_server(settings)
    try:
        yield server
    finally:
        server.stop()


def scheduled(server: LiveServer) -> list[dict[str, object]]:
    listed: list[dict[str, object]] = server.client("reader").get("/api/tournaments")
    return listed


def test_the_next_one_is_always_scheduled_and_runs_as_any_other(site: LiveServer) -> None:
    first = wait_until(lambda: scheduled(site))
    assert len(first) == 1
    start = (int(site.clock.now()) // 3600 + 1) * 3600
    assert (first[0]["name"], first[0]["starts_at"], first[0]["creator_id"]) == (
        "Hourly Summy Arena", start, None)  # fmt: skip
    assert first[0]["id"] == f"r0-{start}" and first[0]["ends_at"] == start + 1800
    field = players(site, 2, "rc")
    for client in field:
        client.post(f"/api/tournaments/{first[0]['id']}/join")
    site.advance(start - site.clock.now())
    reader = site.client("reader")
    wait_until(lambda: reader.get(f"/api/tournaments/{first[0]['id']}")["status"] == "running")
    following = wait_until(lambda: scheduled(site))
    assert [t["id"] for t in following] == [f"r0-{start + 3600}"]
    refused = field[0].http.post(f"/api/tournaments/{first[0]['id']}/cancel")
    assert refused.json()["code"] == "not_organizer"  # the site's: nobody cancels it


def test_a_wrong_recurring_tournament_is_refused_before_the_server_starts() -> None:
    with pytest.raises(ValidationError):
        Settings(recurring_tournaments='[{"name": "x", "every_minutes": 2}]')
    with pytest.raises(ValidationError):
        Settings(recurring_tournaments='{"name": "x"}')
    with pytest.raises(TableError) as refused:
        recurring_ask({**HOURLY, "format": "swiss", "rounds": 0}, 1_800_000_000.0)
    assert refused.value.code == "bad_rounds"
