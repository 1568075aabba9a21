"""A live site backed up while it runs, restored elsewhere, and played on (SQLite and PostgreSQL).

The site has two accounts, a rated game they finished and a rated game they are
playing. ``meeple backup`` runs while the server serves them; restoring over the
running site's database is refused; the server stops; ``meeple restore`` fills a
fresh database, and a server started on it has the same accounts (their session
cookies included), ratings, finished game and replay, and lets the players
finish the game in progress, which then moves their ratings.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scratch_databases import scratch_database
from server_harness import (
    GAMES,
    Client,
    Socket,
    make_settings,
    play_out,
    start_server,
)

from meeple.cli import main
from meeple.games.base import GameRecord, replay


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def site_and_fresh(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The live site's database URL and an empty one to restore into."""
    if request.param == "sqlite":
        yield (
            f"sqlite:///{tmp_path / 'site' / 'meeple.db'}",
            f"sqlite:///{tmp_path / 'fresh' / 'meeple.db'}",
        )
        return
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    with scratch_database() as site, scratch_database() as fresh:
        yield site, fresh


def rated_slide_table(alice: Client, bob: Client) -> tuple[str, dict[int, Socket]]:
    """A rated two-seat Slide table between alice and bob, started, both seats connected."""
    table_id = alice.create_table(game="slide", seats=2, rated=True)["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", {})
    alice.post(f"/api/tables/{table_id}/start")
    seats = {0: alice.connect(table_id), 1: bob.connect(table_id)}
    for sock in seats.values():
        sock.recv()
    return table_id, seats


def what_a_visitor_sees(client: Client, finished_id: str, playing_id: str) -> dict[str, Any]:
    """The site's lasting state, as read through the API."""
    return {
        "leaderboard": client.get("/api/leaderboard/slide"),
        "alice": client.get("/api/users/alice"),
        "bob": client.get("/api/users/bob"),
        "history": client.get("/api/users/alice/history/slide"),
        # Who is at the table now (``present``) is not kept: it is the sockets open.
        "finished": {
            key: value
            for key, value in client.get(f"/api/tables/{finished_id}")["table"].items()
            if key != "present"
        },
        "record": client.get(f"/api/tables/{finished_id}/record"),
        "replay": [client.get(f"/api/tables/{finished_id}/replay", step=s) for s in (0, 3)],
        "playing_events": client.get(f"/api/tables/{playing_id}/events"),
    }


def cli(*argv: str) -> int:
    """``meeple ARGV``, its exit status (a refusal's included)."""
    try:
        return main(list(argv))
    except SystemExit as stopped:
        return int(stopped.code or 0)


@pytest.mark.slow
def test_a_live_site_backed_up_and_restored_plays_on(
    site_and_fresh: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site_url, fresh_url = site_and_fresh
    backup_file = tmp_path / "site.backup"
    (tmp_path / "site").mkdir()
    site = start_server(make_settings(tmp_path / "site", site_url))
    try:
        alice, bob = site.client("alice"), site.client("bob")
        alice.register("alice")
        bob.register("bob")
        finished_id, seats = rated_slide_table(alice, bob)
        play_out(seats, "slide")
        playing_id, seats = rated_slide_table(alice, bob)
        play_out(seats, "slide", stop=lambda: seats[0].version >= 12)
        before = what_a_visitor_sees(alice, finished_id, playing_id)
        assert before["finished"]["status"] == "finished"
        assert [line["games"] for line in before["leaderboard"]] == [1, 1]

        assert cli("backup", str(backup_file), "--db", site_url) == 0  # while it serves
        assert "backed up" in capsys.readouterr().out
        assert cli("restore", str(backup_file), "--db", site_url, "--replace") == 1
        assert "stop every server using it" in capsys.readouterr().err
        cookies = {"alice": alice.http.cookies, "bob": bob.http.cookies}
    finally:
        site.stop()

    assert cli("restore", str(backup_file), "--db", fresh_url) == 0
    assert "the servers may start" in capsys.readouterr().out
    (tmp_path / "fresh").mkdir(exist_ok=True)
    restored = start_server(make_settings(tmp_path / "fresh", fresh_url))
    try:
        alice, bob = restored.client("alice"), restored.client("bob")
        alice.http.cookies, bob.http.cookies = cookies["alice"], cookies["bob"]
        assert alice.get("/api/auth/me")["name"] == "alice"  # the session came along
        carol = restored.client("carol")
        carol.post("/api/auth/login", {"name": "bob", "password": "Tile-Slider-42"})
        assert what_a_visitor_sees(alice, finished_id, playing_id) == before
        record = GameRecord.from_json(before["record"])
        result = GAMES["slide"].result(replay(GAMES["slide"], record)[-1])
        assert result is not None and before["finished"]["result"] == result.to_json()

        seats = {0: alice.connect(playing_id), 1: bob.connect(playing_id)}
        for sock in seats.values():
            hello = sock.recv()
            assert hello["type"] == "hello" and hello["version"] == len(before["playing_events"])
        play_out(seats, "slide")
        table = alice.get(f"/api/tables/{playing_id}")["table"]
        assert table["status"] == "finished"
        record = GameRecord.from_json(alice.get(f"/api/tables/{playing_id}/record"))
        result = GAMES["slide"].result(replay(GAMES["slide"], record)[-1])
        assert result is not None and table["result"] == result.to_json()
        assert [line["games"] for line in alice.get("/api/leaderboard/slide")] == [2, 2]
        history = alice.get("/api/users/alice/history/slide")
        assert [h["table_id"] for h in history] == [finished_id, playing_id]
        assert history[1]["previous"] == before["history"][0]["rating"]
    finally:
        restored.stop()
