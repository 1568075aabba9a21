"""Tournaments as the accounts in them meet them, on one server: a bot account joins one open
to bots with its token, hears of its game on its Bot API event stream and plays it through
the Bot API to the end (and is turned away where bots are not allowed); a rated tournament's
game changes ratings exactly as any rated game does, and one a player left before their
first moves is recorded as ``aborted``, rates nobody and scores by its ranks
(docs/tournaments.md, "Results"; docs/server.md, "A game nobody really began is aborted")."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from server_harness import Client, LiveServer, play_out
from test_bot_streams import LineReader, api, bot_with_token, choose
from test_tournament_play import paired_round, players, wait_until
from websockets.sync.client import ClientConnection, connect

from meeple.tables.core.ratings import RatedSeat, new_ratings, shown_rating


def page(client: Client) -> ClientConnection:
    """The account socket a page of the site keeps open (the player is present); every
    line it is sent is buffered, so closing it never waits."""
    return connect(
        f"{client.server.ws_url}/ws/me",
        additional_headers={"Cookie": client.cookie_header()},
        open_timeout=10,
        legacy=True,
        max_queue=None,
    )


def swiss(server: LiveServer, **extra: Any) -> dict[str, Any]:
    """A Summy Swiss of one round starting in a minute, with ``extra`` settings."""
    return {"name": "Bots welcome", "game": "summy", "format": "swiss", "rounds": 1,
            "starts_at": server.clock.now() + 60, **extra}  # fmt: skip


def points_of(players: list[int], ranks: list[int]) -> dict[int, int]:
    """Each player's points from a game's ranks, as docs/tournaments.md ("Points") says: 2
    for each player who finished below, 1 for each other player level."""
    points = dict.fromkeys(players, 0)
    for seat, player in enumerate(players):
        for index, other in enumerate(ranks):
            if index != seat:
                points[player] += 2 if ranks[seat] < other else 1 if ranks[seat] == other else 0
    return points


class BotProgram:
    """A bot account's program for one table, as docs/bot-api.md has it: read the game
    stream to its end, and act (``POST /api/tables/{id}/actions``) on each line carrying
    ``legal`` at or after the version of its own last action. Runs in a thread."""

    def __init__(self, server: LiveServer, token: str, table_id: str) -> None:
        self.server, self.token, self.table_id = server, token, table_id
        self.lines: list[dict[str, Any]] = []
        self.actions = 0
        self.ended = False
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _play(self) -> None:
        reader = LineReader(self.server, f"/api/stream/game/{self.table_id}", self.token)
        try:
            assert reader.response.status_code == 200, reader.response.read()
            acted = 0
            while True:
                line = reader.next(timeout=60)
                if line is None:  # the server ends the stream after the game's finish
                    self.ended = True
                    return
                assert isinstance(line, dict)
                self.lines.append(line)
                if line.get("legal") and line["version"] >= acted:
                    body = {"id": f"bot-{self.actions}", "action": choose(line["legal"])}
                    path = f"/api/tables/{self.table_id}/actions"
                    answer = api(self.server, self.token, "POST", path, body)
                    assert answer.status_code == 200, answer.text
                    acted = answer.json()["version"]
                    self.actions += 1
        except BaseException as exc:  # reported by join()
            self.error = exc
        finally:
            reader.close()

    def join(self, timeout: float = 120.0) -> None:
        """Wait for the game's end; fail with what went wrong in the thread."""
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the bot's game did not end in time"
        if self.error is not None:
            raise self.error


def test_a_bot_account_plays_its_tournament_game_through_the_bot_api(
    server: LiveServer,
) -> None:
    (ada,) = players(server, 1, "host")
    bot, token = bot_with_token(server, f"deep{time.monotonic_ns() % 10**6}")
    bot_id = bot.user["id"]  # type: ignore[index]

    # Where bots are not allowed, a bot account's token is turned away, and nothing stored.
    closed = ada.post("/api/tournaments", swiss(server, name="People only"), 201)["id"]
    refused = api(server, token, "POST", f"/api/tournaments/{closed}/join")
    assert refused.status_code == 403, refused.text
    assert (refused.json()["code"], refused.json()["family"]) == ("no_bots_here", "forbidden")
    assert ada.get(f"/api/tournaments/{closed}")["players"] == 0

    # It starts once neither was seen on the site in the last 90 s: both are present only
    # by what they keep open, the bot its event stream, the person a page.
    start = server.clock.now() + 200
    asked = swiss(server, bots_allowed=True, starts_at=start)
    tournament_id = ada.post("/api/tournaments", asked, 201)["id"]
    joined = api(server, token, "POST", f"/api/tournaments/{tournament_id}/join")
    assert joined.status_code == 200, joined.text
    assert [row["player"] for row in joined.json()["standings"]] == [
        {"id": bot_id, "name": bot.user["name"], "bot": True}  # type: ignore[index]
    ]
    ada.post(f"/api/tournaments/{tournament_id}/join")
    events = LineReader(server, "/api/stream/events", token)
    ada_page = page(ada)
    try:
        assert events.response.status_code == 200
        server.advance(200)
        # The stream tells of the game (tournament_game) and its table's start (game_start),
        # in either order; other lines (my_turns, …) are skipped as a client skips them.
        told: dict[str, dict[str, Any]] = {}
        while len(told) < 2:
            line = events.line(timeout=60)
            if line["type"] in ("tournament_game", "game_start"):
                told[line["type"]] = line
        game = paired_round(ada, tournament_id, 1)["games"][0]
        table_id = game["table_id"]
        seat = [p["id"] for p in game["players"]].index(bot_id)
        assert told["tournament_game"] == {"type": "tournament_game", "table_id": table_id,
                                           "tournament": tournament_id, "name": "Bots welcome",
                                           "game": "summy", "round": 1}  # fmt: skip
        assert told["game_start"] == {"type": "game_start", "table_id": table_id,
                                      "game": "summy", "seat": seat}  # fmt: skip

        program = BotProgram(server, token, table_id)
        person = ada.connect(table_id)
        person.recv_until(lambda m: m["type"] == "hello")
        assert person.seat == 1 - seat
        play_out({1 - seat: person}, "summy")
        program.join()
        person.close()
        finish = program.lines[-1]
        assert program.ended and (finish["type"], finish["kind"]) == ("event", "finish")
        assert program.actions > 0 and program.lines[0]["seat"] == seat
        ranks = finish["data"]["result"]["ranks"]

        final = wait_until(
            lambda: (
                (t := ada.get(f"/api/tournaments/{tournament_id}"))["status"] == "finished" and t
            )
        )
        (recorded,) = ada.get(f"/api/tournaments/{tournament_id}/pairings")[0]["games"]
        assert (recorded["status"], recorded["how"], recorded["ranks"]) == (
            "finished", "played", ranks)  # fmt: skip
        expected = points_of([p["id"] for p in game["players"]], ranks)
        rows = {row["player"]["id"]: row for row in final["standings"]}
        assert {player: row["points"] for player, row in rows.items()} == expected
        assert all((row["games"], row["byes"]) == (1, 0) for row in rows.values())
        assert {player: row["player"]["bot"] for player, row in rows.items()} == {
            player: player == bot_id for player in expected
        }
        ordered = [row["points"] for row in final["standings"]]
        assert ordered == sorted(expected.values(), reverse=True)
    finally:
        events.close()
        ada_page.close()


def rating_in(client: Client, name: str) -> dict[str, Any] | None:
    """``name``'s Summy rating as its profile shows it (None: not rated yet)."""
    ratings = client.get(f"/api/users/{name}")["ratings"]
    return next((r for r in ratings if r["game"] == "summy"), None)


def rated_games(client: Client, name: str) -> int:
    rating = rating_in(client, name)
    return 0 if rating is None else int(rating["games"])


def test_a_rated_tournament_rates_as_any_game_and_an_aborted_game_rates_nobody(
    server: LiveServer,
) -> None:
    ada, bob = players(server, 2, "rt")
    field = {ada.user["id"]: ada, bob.user["id"]: bob}  # type: ignore[index]
    names = {uid: client.user["name"] for uid, client in field.items()}  # type: ignore[index]
    pages = [page(ada), page(bob)]

    # A rated game outside any tournament first, so each has a rating of their own.
    warm = ada.create_table(game="summy", seats=2, rated=True)["table"]["id"]
    bob.post(f"/api/tables/{warm}/join", {})
    ada.post(f"/api/tables/{warm}/start")
    sockets = {0: ada.connect(warm), 1: bob.connect(warm)}
    for sock in sockets.values():
        sock.recv_until(lambda m: m["type"] == "hello")
    play_out(sockets, "summy")
    for name in names.values():
        wait_until(lambda name=name: rated_games(ada, name) == 1)
    before = {uid: rating_in(ada, name) for uid, name in names.items()}

    body = {"name": "Rated", "game": "summy", "format": "swiss", "rounds": 2, "rated": True,
            "starts_at": server.clock.now() + 60}  # fmt: skip
    tournament_id = ada.post("/api/tournaments", body, 201)["id"]
    for client in field.values():
        client.post(f"/api/tournaments/{tournament_id}/join")
    server.advance(60)

    # Round 1, played to its end: the ratings move exactly as the rating model moves them
    # for any rated game, from the ratings before and the game's ranks.
    first = paired_round(ada, tournament_id, 1)["games"][0]
    seated = [p["id"] for p in first["players"]]
    sockets = {seat: field[player].connect(first["table_id"]) for seat, player in enumerate(seated)}
    for sock in sockets.values():
        sock.recv_until(lambda m: m["type"] == "hello")
    play_out(sockets, "summy")
    for sock in sockets.values():
        sock.close()
    table = ada.get(f"/api/tables/{first['table_id']}")["table"]
    assert (table["rated"], table["aborted"]) == (True, False)
    ranks = table["result"]["ranks"]
    for name in names.values():
        wait_until(lambda name=name: rated_games(ada, name) == 2)
    after = {uid: rating_in(ada, name) for uid, name in names.items()}
    rated = []
    for seat, player in enumerate(seated):
        was = before[player]
        assert was is not None
        rated.append(RatedSeat(player, ranks[seat], was["mu"], was["sigma"]))
    model = new_ratings(rated)
    for player, (mu, sigma) in model.items():
        rating = after[player]
        assert rating is not None
        assert (rating["mu"], rating["sigma"]) == (pytest.approx(mu), pytest.approx(sigma))
        assert rating["rating"] == shown_rating(mu, sigma)
        history = ada.get(f"/api/users/{names[player]}/history/summy")
        assert [point["table_id"] for point in history][-1] == first["table_id"]
    assert after[seated[0]] != before[seated[0]]
    standing = ada.get(f"/api/tournaments/{tournament_id}")["standings"]
    assert {row["player"]["id"]: row["rating"] for row in standing} == {
        uid: rating["rating"] for uid, rating in after.items() if rating is not None
    }

    # Round 2: the player on turn leaves at once, before any move of theirs (a
    # stand-in plays their seat); the other plays it out. It is aborted: no rating moves.
    second = paired_round(ada, tournament_id, 2)["games"][0]
    table_id, seated_2 = second["table_id"], [p["id"] for p in second["players"]]
    opened = ada.get(f"/api/tables/{table_id}")["table"]
    (leaving,) = opened["to_act"]
    stayer = field[seated_2[1 - leaving]].connect(table_id)
    stayer.recv_until(lambda m: m["type"] == "hello")
    assert stayer.seat == 1 - leaving and stayer.version == opened["version"]  # no move yet
    field[seated_2[leaving]].post(f"/api/tables/{table_id}/leave")
    play_out({1 - leaving: stayer}, "summy")
    stayer.close()
    final = wait_until(
        lambda: (t := ada.get(f"/api/tournaments/{tournament_id}"))["status"] == "finished" and t
    )
    table = ada.get(f"/api/tables/{table_id}")["table"]
    assert (table["status"], table["aborted"]) == ("finished", True)
    recorded = ada.get(f"/api/tournaments/{tournament_id}/pairings")[0]["games"][0]
    # The documented points of an aborted game: "the ranks still count for the tournament",
    # so it scores as any finish by the table's own ranks (2 a win, 1 a draw, 0 a loss).
    assert (recorded["how"], recorded["ranks"]) == ("aborted", table["result"]["ranks"])
    assert {uid: rating_in(ada, name) for uid, name in names.items()} == after
    for name in names.values():
        history = ada.get(f"/api/users/{name}/history/summy")
        assert table_id not in [point["table_id"] for point in history] and len(history) == 2
    expected = points_of(seated, ranks)
    for player, points in points_of(seated_2, recorded["ranks"]).items():
        expected[player] += points
    rows = {row["player"]["id"]: row for row in final["standings"]}
    assert {player: row["points"] for player, row in rows.items()} == expected
    assert all(row["games"] == 2 for row in rows.values())
    for open_page in pages:
        open_page.close()
