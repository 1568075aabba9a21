"""Two servers sharing PostgreSQL and Redis, and the one pairing a Swiss killed (SIGKILL)
mid-round, just after one board ended on it: the other takes the tournament's lease and the
unfinished table, the round is played to the end on it, and it pairs the next round; no
result is lost and no round paired twice."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from serve_process import RemoteServer, ServeProcess, client_of
from server_harness import Client, free_port, play_out, require_redis

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


def wait_for(check: Any, seconds: float = 60.0) -> Any:
    """Poll ``check()`` (every 100 ms) until it gives something true; that."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("the condition never held")


@pytest.fixture
def shared(tmp_path: Path, pg_url: str) -> Iterator[dict[str, str]]:
    """The settings two servers share: one PostgreSQL schema, one Redis."""
    yield {"MEEPLE_DB": pg_url, "MEEPLE_REDIS": require_redis(), "MEEPLE_SECRET_KEY": "k" * 40,
           "MEEPLE_LIMIT_AUTH": "1000/minute", "MEEPLE_LIMIT_API": "100000/minute"}  # fmt: skip


def round_open(client: Client, tournament_id: str, number: int) -> dict[str, Any] | None:
    rounds = client.get(f"/api/tournaments/{tournament_id}/pairings")
    found = next((r for r in rounds if r["round"] == number), None)
    if found and found["games"] and all(g["status"] != "pending" for g in found["games"]):
        return found  # type: ignore[no-any-return]
    return None


def play_round(by_id: dict[int, Client], paired: dict[str, Any]) -> None:
    for game in paired["games"]:
        sockets = {}
        for seat, player in enumerate(game["players"]):
            sockets[seat] = by_id[player["id"]].connect(game["table_id"])
            sockets[seat].recv_until(lambda m: m["type"] == "hello")
        play_out(sockets, "summy")
        for sock in sockets.values():
            sock.close()


def test_the_pairing_server_killed_mid_round_loses_and_repeats_nothing(
    tmp_path: Path, shared: dict[str, str]
) -> None:
    keys = redis.Redis.from_url(shared["MEEPLE_REDIS"], decode_responses=True)
    for name in ("east", "west"):
        (tmp_path / name).mkdir()
    east = ServeProcess(tmp_path / "east", free_port(), shared)
    west: ServeProcess | None = None
    try:
        on_east = RemoteServer(east.url)
        creator = client_of(on_east, "creator")
        creator.register(f"boss{time.monotonic_ns() % 10**6}")
        body = {"name": "Failover Swiss", "game": "summy", "format": "swiss", "rounds": 2,
                "move_seconds": 600, "starts_at": time.time() + 6}  # fmt: skip
        tournament_id = creator.post("/api/tournaments", body, 201)["id"]
        hold = f"meeple:hold:tournament:{tournament_id}"
        pairer = wait_for(lambda: keys.get(hold))  # east, the only server, holds it
        on_east_field = []
        for index in range(4):
            player = client_of(on_east, f"p{index}")
            player.register(f"fo{index}x{time.monotonic_ns() % 10**6}")
            player.post(f"/api/tournaments/{tournament_id}/join")
            on_east_field.append(player)
        west = ServeProcess(tmp_path / "west", free_port(), shared)
        on_west = RemoteServer(west.url)
        field = [  # the same players, now on west (their sessions are good on every server)
            client_of(on_west, f"w{index}", player.http.cookies)
            for index, player in enumerate(on_east_field)
        ]
        for player, before in zip(field, on_east_field, strict=True):
            player.user = before.user
        by_id = {client.user["id"]: client for client in field}  # type: ignore[index]
        first = wait_for(lambda: round_open(field[0], tournament_id, 1))
        tables = [game["table_id"] for game in first["games"]]
        assert [keys.get(f"meeple:owner:{t}") for t in tables] == [pairer, pairer]
        east_by_id = {client.user["id"]: client for client in on_east_field}  # type: ignore[index]
        play_round(east_by_id, {"games": first["games"][:1]})  # board 1 ends on east
        east.kill()  # mid-round: board 2 not begun, board 1's result maybe not yet recorded
        taken = wait_for(lambda: (h := keys.get(hold)) and h != pairer and h)
        wait_for(lambda: keys.get(f"meeple:owner:{tables[1]}") == taken)
        play_round(by_id, {"games": first["games"][1:]})
        second = wait_for(lambda: round_open(field[0], tournament_id, 2))
        assert keys.get(f"meeple:owner:{second['games'][0]['table_id']}") == taken
        play_round(by_id, second)
        final = wait_for(
            lambda: (
                (t := field[0].get(f"/api/tournaments/{tournament_id}"))["status"] == "finished"
                and t
            )
        )
        rounds = field[0].get(f"/api/tournaments/{tournament_id}/pairings")
        assert [r["round"] for r in rounds] == [2, 1] and final["round"] == 2
        assert all(len(r["games"]) == 2 and r["byes"] == [] for r in rounds)
        assert all(g["status"] == "finished" and g["how"] == "played"
                   for r in rounds for g in r["games"])  # fmt: skip
        assert sum(row["points"] for row in final["standings"]) == 2 * 2 * 2
        assert all(row["games"] == 2 for row in final["standings"])
    finally:
        for server in (east, west):
            if server is not None and server.process.poll() is None:
                server.stop()
        keys.close()
