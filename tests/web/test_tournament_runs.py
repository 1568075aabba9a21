"""How a tournament runs, as players meet it: a player away at a pairing sits that round out
(no game, no bye) and is paired again once back; a withdrawn player is not paired again; a
turn-based round's unfinished game is decided at its deadline (the clock faked), and that
Swiss runs on to its end and final standings; an arena pairs players again as they finish,
until its end."""

from __future__ import annotations

import json
import time
from typing import Any

from server_harness import Client, LiveServer, play_out
from test_my_games import me_socket
from test_tournament_play import paired_round, players, wait_until
from websockets.sync.client import ClientConnection


def present(field: list[Client]) -> list[ClientConnection]:
    """Each player's page open (its account socket): present at every pairing."""
    return [me_socket(client) for client in field]


def play(by_id: dict[int, Client], game: dict[str, Any], name: str = "summy") -> None:
    sockets = {}
    for seat, player in enumerate(game["players"]):
        sockets[seat] = by_id[player["id"]].connect(game["table_id"])
        sockets[seat].recv_until(lambda m: m["type"] == "hello")
    play_out(sockets, name)
    for sock in sockets.values():
        sock.close()


def told_of(page: ClientConnection, kind: str) -> dict[str, Any]:
    """The next line of ``kind`` the account socket relays (others skipped)."""
    while True:
        line: dict[str, Any] = json.loads(page.recv(timeout=10))
        if line["type"] == kind:
            return line


def close_read(page: ClientConnection) -> None:
    """Read what the account socket still holds, then close it (a socket left with many
    unread lines stops reading, and its close then waits out its timeout)."""
    try:
        while True:
            page.recv(timeout=0.2)
    except TimeoutError:
        page.close()


def ids(clients: list[Client]) -> list[int]:
    return [client.user["id"] for client in clients]  # type: ignore[index]


def test_an_absent_player_sits_a_round_out_and_a_withdrawn_one_is_not_paired(
    server: LiveServer,
) -> None:
    field = players(server, 5, "ab")
    ada, away, gone = field[0], field[3], field[4]
    body = {"name": "Away", "game": "summy", "format": "swiss", "rounds": 2,
            "starts_at": server.clock.now() + 60}  # fmt: skip
    tournament_id = ada.post("/api/tournaments", body, 201)["id"]
    for client in field:
        client.post(f"/api/tournaments/{tournament_id}/join")
    gone.post(f"/api/tournaments/{tournament_id}/withdraw")
    pages = present([*field[:3], gone])  # away has no page open, and was last seen long ago
    server.advance(200)
    first = paired_round(ada, tournament_id, 1)
    seated = [p["id"] for game in first["games"] for p in game["players"]]
    assert len(first["games"]) == 1 and len(first["byes"]) == 1
    assert sorted([*seated, first["byes"][0]["id"]]) == sorted(ids(field[:3]))
    pages.append(me_socket(away))  # back for round 2
    by_id = dict(zip(ids(field), field, strict=True))
    play(by_id, first["games"][0])
    second = paired_round(ada, tournament_id, 2)
    seated = [p["id"] for game in second["games"] for p in game["players"]]
    assert sorted(seated) == sorted(ids(field[:4])) and second["byes"] == []
    for game in second["games"]:
        play(by_id, game)
    final = wait_until(
        lambda: (t := ada.get(f"/api/tournaments/{tournament_id}"))["status"] == "finished" and t
    )
    rows = {row["player"]["id"]: row for row in final["standings"]}
    assert (rows[away.user["id"]]["games"], rows[away.user["id"]]["byes"]) == (1, 0)  # type: ignore[index]
    assert rows[gone.user["id"]]["games"] == 0 and rows[gone.user["id"]]["withdrawn"]  # type: ignore[index]
    assert final["players"] == 4
    for page in pages:
        close_read(page)


def test_a_turn_based_round_ends_at_its_deadline(server: LiveServer) -> None:
    field = players(server, 4, "tb")
    ada = field[0]
    body = {"name": "Daily", "game": "summy", "format": "swiss", "rounds": 2, "pace": "turn",
            "round_days": 1, "move_seconds": 2 * 86400,
            "starts_at": server.clock.now() + 60}  # fmt: skip
    tournament_id = ada.post("/api/tournaments", body, 201)["id"]
    for client in field:
        client.post(f"/api/tournaments/{tournament_id}/join")
    pages = present(field)
    server.advance(60)
    first = paired_round(ada, tournament_id, 1)
    assert first["deadline"] == server.clock.now() + 86400
    by_id = dict(zip(ids(field), field, strict=True))
    played, late = first["games"]
    told = told_of(pages[ids(field).index(late["players"][0]["id"])], "tournament_game")
    assert (told["table_id"], told["tournament"], told["round"]) == (
        late["table_id"], tournament_id, 1)  # fmt: skip
    notes = by_id[late["players"][0]["id"]].get("/api/notifications")["notifications"]
    mine = [n["table_id"] for n in notes if n["kind"] == "tournament_game"]
    assert mine == [late["table_id"]]
    play(by_id, played)
    waiting = by_id[late["players"][0]["id"]].connect(late["table_id"])
    waiting.recv_until(lambda m: m["type"] == "hello")
    on_turn = waiting.to_act  # nobody moves at the second board
    waiting.close()
    server.advance(86400)
    second = paired_round(ada, tournament_id, 2)
    decided = next(
        game
        for paired in ada.get(f"/api/tournaments/{tournament_id}/pairings")
        for game in paired["games"]
        if game["table_id"] == late["table_id"]
    )
    assert (decided["status"], decided["how"]) == ("finished", "deadline")
    assert decided["ranks"] == [2 if seat in on_turn else 1 for seat in range(2)]
    assert len(second["games"]) == 2
    # The late table plays on after its deadline (its later result does not change the
    # tournament's); round 2 is played, and the tournament runs to its end.
    play(by_id, late)
    for game in second["games"]:
        play(by_id, game)
    final = wait_until(
        lambda: (t := ada.get(f"/api/tournaments/{tournament_id}"))["status"] == "finished" and t
    )
    history = ada.get(f"/api/tournaments/{tournament_id}/pairings")[::-1]
    assert [paired["round"] for paired in history] == [1, 2] and final["round"] == 2
    games = {game["table_id"]: game for paired in history for game in paired["games"]}
    assert games[late["table_id"]] == decided  # not changed by the table's own later end
    assert ada.get(f"/api/tables/{late['table_id']}")["table"]["status"] == "finished"
    assert [(games[g["table_id"]]["status"], games[g["table_id"]]["how"])
            for g in second["games"]] == [("finished", "played")] * 2  # fmt: skip
    assert_swiss_standings(final["standings"], list(games.values()))
    for page in pages:
        close_read(page)


def assert_swiss_standings(standings: list[dict[str, Any]], games: list[dict[str, Any]]) -> None:
    """The standings of a Swiss of two-player boards without byes, worked out from its
    games' ranks as docs/tournaments.md says ("Points", "Standings"): points, Buchholz,
    Sonneborn-Berger, then rating, then the lower id."""
    points: dict[int, int] = {row["player"]["id"]: 0 for row in standings}
    results: list[tuple[int, int, float]] = []  # (player, opponent, result against them)
    for game in games:
        (a, b), (rank_a, rank_b) = [p["id"] for p in game["players"]], game["ranks"]
        share = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
        points[a] += round(2 * share)
        points[b] += round(2 * (1 - share))
        results += [(a, b, share), (b, a, 1 - share)]
    buchholz = {player: 0.0 for player in points}
    berger = {player: 0.0 for player in points}
    for player, opponent, share in results:
        buchholz[player] += points[opponent]
        berger[player] += points[opponent] * share
    rating = {row["player"]["id"]: row["rating"] for row in standings}
    order = sorted(points, key=lambda p: (-points[p], -buchholz[p], -berger[p], -rating[p], p))
    assert [(row["rank"], row["player"]["id"], row["points"], row["buchholz"],
             row["sonneborn_berger"], row["games"], row["byes"]) for row in standings] == [
        (rank, p, points[p], buchholz[p], berger[p], sum(p == r[0] for r in results), 0)
        for rank, p in enumerate(order, start=1)
    ]  # fmt: skip
    assert sum(points.values()) == 2 * len(games)


def test_an_arena_pairs_players_again_as_they_finish_until_its_end(server: LiveServer) -> None:
    field = players(server, 4, "ar")
    ada = field[0]
    body = {"name": "Hourly", "game": "summy", "format": "arena", "minutes": 10,
            "starts_at": server.clock.now() + 60}  # fmt: skip
    created = ada.post("/api/tournaments", body, 201)
    tournament_id = created["id"]
    assert created["ends_at"] == created["starts_at"] + 600
    for client in field:
        client.post(f"/api/tournaments/{tournament_id}/join")
    pages = present(field)
    server.advance(60)
    by_id = dict(zip(ids(field), field, strict=True))
    played: set[str] = set()

    def play_oldest_waiting() -> bool:
        """Play the oldest game open and not played yet; whether there was one."""
        rounds = ada.get(f"/api/tournaments/{tournament_id}/pairings")  # newest first
        ready = [g for r in reversed(rounds) for g in r["games"]
                 if g["status"] == "playing" and g["table_id"] not in played]  # fmt: skip
        if ready:
            play(by_id, ready[0])
            played.add(ready[0]["table_id"])
        return bool(ready)

    # Oldest first, so both boards of a wave are played before the next: each player is
    # paired again at once, with whoever is waiting.
    while len(played) < 4:
        wait_until(play_oldest_waiting)
    server.advance(600)  # the end: nobody is paired again; the games still on finish

    def finished() -> dict[str, Any] | None:
        tournament = ada.get(f"/api/tournaments/{tournament_id}")
        if tournament["status"] == "finished":
            return tournament
        play_oldest_waiting()
        return None

    final = wait_until(finished)
    games = [g for r in ada.get(f"/api/tournaments/{tournament_id}/pairings") for g in r["games"]]
    assert all(g["status"] == "finished" for g in games) and len(games) >= 4, games
    standings = final["standings"]
    assert sum(row["games"] for row in standings) == 2 * len(games)
    assert all(row["games"] >= 2 for row in standings)
    assert [row["points"] for row in standings] == sorted(
        (row["points"] for row in standings), reverse=True
    )
    assert {"wins", "performance", "on_fire"} <= set(standings[0])
    for page in pages:
        close_read(page)


def test_a_ten_minute_summy_arena_of_twenty_built_in_bots_and_two_people(
    server: LiveServer,
) -> None:
    people = players(server, 2, "bb")
    ada = people[0]
    body = {"name": "Bots' Arena", "game": "summy", "format": "arena", "minutes": 10,
            "starts_at": server.clock.now() + 60}  # fmt: skip
    tournament_id = ada.post("/api/tournaments", body, 201)["id"]
    filled = ada.post(f"/api/tournaments/{tournament_id}/bots", {"level": "random", "count": 20})
    assert filled["players"] == 20
    for client in people:
        client.post(f"/api/tournaments/{tournament_id}/join")
    pages = present(people)
    server.advance(60)
    by_id = dict(zip(ids(people), people, strict=True))
    played: set[str] = set()

    def games() -> list[dict[str, Any]]:
        rounds = ada.get(f"/api/tournaments/{tournament_id}/pairings")
        return [game for paired in rounds for game in paired["games"]]

    def play_mine(game: dict[str, Any]) -> None:
        sockets = {}
        for seat, player in enumerate(game["players"]):
            if player["id"] in by_id:
                sockets[seat] = by_id[player["id"]].connect(game["table_id"])
                sockets[seat].recv_until(lambda m: m["type"] == "hello")
        play_out(sockets, "summy")
        for sock in sockets.values():
            sock.close()
        played.add(game["table_id"])

    def mine_waiting() -> list[dict[str, Any]]:
        return [g for g in games() if g["table_id"] not in played and g["status"] == "playing"
                and any(p["id"] in by_id for p in g["players"])]  # fmt: skip

    while len(played) < 4:  # each person plays two games, paired again as they finish
        for game in wait_until(mine_waiting):
            play_mine(game)
    # The end: nobody is paired again, and the games still on end by the clock (a person
    # just paired who does not move loses on time, as in any game).
    server.advance(600)
    final = None
    for _ in range(200):
        final = ada.get(f"/api/tournaments/{tournament_id}")
        if final["status"] == "finished":
            break
        server.advance(60)  # each move clock runs out in turn
        time.sleep(0.2)
    assert final is not None and final["status"] == "finished"
    every = games()
    assert all(game["status"] == "finished" for game in every)
    standings = final["standings"]
    assert len(standings) == 22 and final["players"] == 22
    bots = [row for row in standings if row["player"]["id"] < 0]
    assert len(bots) == 20 and all(row["player"]["bot"] for row in bots)
    assert {row["player"]["name"] for row in bots} == {f"bot (random) #{n}" for n in range(1, 21)}
    assert sum(row["games"] for row in standings) == 2 * len(every)
    assert all(row["games"] >= 1 for row in standings)
    mine = [row for row in standings if row["player"]["id"] in by_id]
    assert all(row["games"] >= 2 for row in mine)
    for page in pages:
        close_read(page)
