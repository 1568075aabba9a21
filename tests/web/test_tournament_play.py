"""Tournaments played to the end on one server, by accounts driven through the API as a
player's program would: they join, the server pairs each round at its start and after the
last game of the one before, the players play their tables over the table socket, and the
standings, byes and pairings read as docs/tournaments.md says."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations
from typing import Any

from server_harness import Client, LiveServer, play_out


def players(server: LiveServer, count: int, prefix: str) -> list[Client]:
    """``count`` registered accounts (each seen just now: present at the pairing)."""
    clients = []
    for index in range(count):
        client = server.client(f"{prefix}{index}")
        client.register(f"{prefix}{index}x{time.monotonic_ns() % 10**6}")
        clients.append(client)
    return clients


def wait_until(check: Any, timeout: float = 120.0) -> Any:
    """Poll ``check()`` (every 50 ms) until it gives something true; that."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the condition never held")


def paired_round(reader: Client, tournament_id: str, number: int) -> dict[str, Any]:
    """Round ``number`` once its tables are open."""

    def opened() -> dict[str, Any] | None:
        rounds = reader.get(f"/api/tournaments/{tournament_id}/pairings")
        found = next((r for r in rounds if r["round"] == number), None)
        if found and all(game["status"] != "pending" for game in found["games"]):
            return found
        return None

    found: dict[str, Any] = wait_until(opened)
    return found


def play_round(by_id: dict[int, Client], paired: dict[str, Any], game: str) -> None:
    """Every table of the round played to its end by its seated players."""
    for table in paired["games"]:
        sockets = {}
        for seat, player in enumerate(table["players"]):
            sock = by_id[player["id"]].connect(table["table_id"])
            sock.recv_until(lambda m: m["type"] == "hello")
            assert sock.seat == seat
            sockets[seat] = sock
        play_out(sockets, game)
        for sock in sockets.values():
            sock.close()


def fewest_repeats(field: list[int], met: Counter[frozenset[int]]) -> int:
    """The least cost of meeting again, each pair by the square of its meetings before
    (docs/tournaments.md, "Seating"), of any seating of ``field`` at tables of four (by
    brute force over every seating)."""
    if not field:
        return 0
    first, rest = field[0], field[1:]
    return min(
        sum(met[frozenset(pair)] ** 2 for pair in combinations((first, *others), 2))
        + fewest_repeats([p for p in rest if p not in others], met)
        for others in combinations(rest, 3)
    )


def run_swiss(
    server: LiveServer, game: str, count: int, rounds: int, **settings: Any
) -> tuple[dict[str, Any], list[dict[str, Any]], list[Client]]:
    """A Swiss of ``count`` players created, joined, started and played to its end; the
    tournament as its end reads and its rounds, oldest first."""
    field = players(server, count, game[:2])
    creator = field[0]
    body = {"name": f"{game} swiss", "game": game, "format": "swiss", "rounds": rounds,
            "starts_at": server.clock.now() + 60, **settings}  # fmt: skip
    created = creator.post("/api/tournaments", body, 201)
    tournament_id = created["id"]
    assert (created["status"], created["players"]) == ("scheduled", 0)
    for client in field:
        joined = client.post(f"/api/tournaments/{tournament_id}/join")
    assert joined["players"] == count
    by_id = {client.user["id"]: client for client in field}  # type: ignore[index]
    server.advance(60)
    for number in range(1, rounds + 1):
        play_round(by_id, paired_round(creator, tournament_id, number), game)
    final = wait_until(
        lambda: (
            (t := creator.get(f"/api/tournaments/{tournament_id}"))["status"] == "finished" and t
        )
    )
    history = creator.get(f"/api/tournaments/{tournament_id}/pairings")[::-1]
    return final, history, field


def test_a_nine_player_summy_swiss_of_four_rounds(server: LiveServer) -> None:
    final, history, field = run_swiss(server, "summy", 9, 4)
    assert [r["round"] for r in history] == [1, 2, 3, 4]
    for paired in history:
        assert len(paired["games"]) == 4 and len(paired["byes"]) == 1
        assert all(game["status"] == "finished" and game["how"] == "played"
                   for game in paired["games"])  # fmt: skip
        seated = [p["id"] for game in paired["games"] for p in game["players"]]
        assert sorted([*seated, paired["byes"][0]["id"]]) == sorted(c.user["id"] for c in field)  # type: ignore[index]
    byes = [paired["byes"][0]["id"] for paired in history]
    assert len(set(byes)) == 4  # nobody has a second bye while others have none
    pairs = Counter(
        frozenset(p["id"] for p in game["players"])
        for paired in history
        for game in paired["games"]
    )
    assert max(pairs.values()) == 1  # no pair met twice
    standings = final["standings"]
    assert [row["rank"] for row in standings] == list(range(1, 10))
    points = {row["player"]["id"]: row["points"] for row in standings}
    expected: Counter[int] = Counter()
    for paired in history:
        for game in paired["games"]:
            ranks = game["ranks"]
            for seat, player in enumerate(game["players"]):
                others = [r for i, r in enumerate(ranks) if i != seat]
                expected[player["id"]] += sum(2 if ranks[seat] < r else 1 if ranks[seat] == r else 0
                                              for r in others)  # fmt: skip
        expected[paired["byes"][0]["id"]] += 2
    assert points == {player: expected[player] for player in points}
    assert sum(points.values()) == 4 * (4 * 2 + 2)  # 2 points a game, 2 a bye
    assert [row["points"] for row in standings] == sorted(points.values(), reverse=True)
    assert all(row["games"] + row["byes"] == 4 for row in standings)


def test_a_twelve_player_slide_swiss_of_three_rounds_at_tables_of_four(server: LiveServer) -> None:
    final, history, field = run_swiss(server, "slide", 12, 3, table_size=4)
    assert [r["round"] for r in history] == [1, 2, 3]
    for paired in history:
        assert [len(game["players"]) for game in paired["games"]] == [4, 4, 4]
        assert paired["byes"] == []
    met: Counter[frozenset[int]] = Counter()
    for paired in history:
        tables = [[p["id"] for p in game["players"]] for game in paired["games"]]
        repeats = sum(
            met[frozenset(pair)] ** 2 for table in tables for pair in combinations(table, 2)
        )
        assert repeats == fewest_repeats([p for table in tables for p in table], met)
        met.update(frozenset(pair) for table in tables for pair in combinations(table, 2))
    assert max(met.values()) == 2  # 12 at tables of 4 must meet again from round 2: once
    standings = final["standings"]
    assert sorted(row["player"]["id"] for row in standings) == sorted(c.user["id"] for c in field)  # type: ignore[index]
    assert sum(row["points"] for row in standings) == 3 * 3 * (6 + 4 + 2 + 0)
    assert all(row["games"] == 3 and row["byes"] == 0 for row in standings)
