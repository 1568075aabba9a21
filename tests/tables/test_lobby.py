"""The lobby and a table's life before the game: create, join, kick, start, invite, quick play."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from server_harness import LiveServer, url_path
from websockets.sync.client import connect

from meeple.games import GAME_NAMES, get_game
from meeple.web import server_messages

BAD_TABLES = [
    ("summy for three", {"game": "summy", "seats": 3}, "bad_seats"),
    ("slide alone", {"game": "slide", "seats": 1}, "bad_seats"),
    ("bot in no seat", {"game": "slide", "seats": 2, "bots": {"5": "greedy"}}, "bad_seat"),
    ("unknown bot level", {"game": "slide", "seats": 2, "bots": {"1": "genius"}}, "bad_level"),
    ("clock too short", {"game": "slide", "seats": 2, "move_seconds": 1}, "bad_clock"),
    (
        "turn clock too short",
        {"game": "slide", "seats": 2, "pace": "turn", "move_seconds": 60},
        "bad_clock",
    ),
    ("unknown option", {"game": "slide", "seats": 2, "options": {"gravity": True}}, "bad_options"),
    (
        "creator on a bot seat",
        {"game": "slide", "seats": 2, "bots": {"0": "greedy"}, "seat": 0},
        "bad_seat",
    ),
]


@pytest.mark.parametrize(("case", "spec", "code"), BAD_TABLES, ids=[b[0] for b in BAD_TABLES])
def test_bad_tables_are_refused_naming_the_problem(
    server: LiveServer, case: str, spec: dict[str, Any], code: str
) -> None:
    client = server.client()
    client.guest()
    refused = client.post("/api/tables", spec, expect=400)
    assert refused["code"] == code and refused["detail"], case


def test_slide_variants_and_bots_in_any_seats(server: LiveServer) -> None:
    client = server.client()
    client.guest()
    table = client.create_table(
        game="slide",
        seats=4,
        bots={"0": "expert", "2": "random"},
        options={"lowest_reveal_starts": True, "match_to_100": True},
        rated=True,
    )["table"]
    assert table["options"]["lowest_reveal_starts"] and table["options"]["match_to_100"]
    assert [s["bot"] for s in table["seats"]] == ["expert", None, "random", None]
    assert table["seats"][1]["name"] == client.user["name"]  # type: ignore[index]
    assert table["rated"] and table["pace"] == "realtime" and table["move_seconds"] == 60


def test_join_leave_kick_and_start_before_the_game(server: LiveServer) -> None:
    host, ann, bea = server.client("host"), server.client("ann"), server.client("bea")
    for client in (host, ann, bea):
        client.guest()
    table_id = host.create_table(game="slide", seats=3)["table"]["id"]
    path = f"/api/tables/{table_id}"
    assert host.post(f"{path}/start", expect=400)["code"] == "seats_free"
    ann.post(f"{path}/join", {"seat": 1})
    assert bea.post(f"{path}/join", {"seat": 1}, expect=400)["code"] == "seat_taken"
    assert ann.post(f"{path}/join", {}, expect=400)["code"] == "already_seated"
    bea.post(f"{path}/join", {})
    assert ann.post(f"{path}/kick", {"seat": 2}, expect=403)["code"] == "not_creator"
    host.post(f"{path}/kick", {"seat": 2})
    assert host.get(path)["table"]["seats"][2]["user_id"] is None
    ann.post(f"{path}/leave")
    assert host.get(path)["table"]["seats"][1]["user_id"] is None
    ann.post(f"{path}/join", {})
    bea.post(f"{path}/join", {})
    assert ann.post(f"{path}/start", expect=403)["code"] == "not_creator"
    started = host.post(f"{path}/start")["table"]
    assert started["status"] == "playing"
    assert host.post(f"{path}/kick", {"seat": 1}, expect=400)["code"] == "started"
    assert server.client().post(f"{path}/join", {}, expect=401)


def test_the_lobby_lists_public_open_tables_live(server: LiveServer) -> None:
    host, guest = server.client("host"), server.client("guest")
    host.guest()
    guest.guest()
    lobby = connect(f"{server.ws_url}/ws/lobby?game=slide", open_timeout=10, legacy=True)
    first = json.loads(lobby.recv(timeout=10))
    assert first == {"type": "lobby", "tables": []}
    public = host.create_table(game="slide", seats=2)["table"]
    host.create_table(game="slide", seats=2, private=True)
    host.create_table(game="summy", seats=2)
    opened = json.loads(lobby.recv(timeout=10))
    assert opened["type"] == "table" and opened["table"]["id"] == public["id"]
    assert [t["id"] for t in host.get("/api/tables", game="slide")] == [public["id"]]
    assert len(host.get("/api/tables")) == 2
    guest.post(f"/api/tables/{public['id']}/join", {})
    joined = json.loads(lobby.recv(timeout=10))
    assert joined["table"]["seats"][1]["user_id"] == guest.user["id"]  # type: ignore[index]
    host.post(f"/api/tables/{public['id']}/start")
    gone = json.loads(lobby.recv(timeout=10))
    assert gone == {"type": "gone", "id": public["id"], "status": "playing"}
    assert host.get("/api/tables", game="slide") == []
    watchable = host.get("/api/tables", game="slide", status="playing")
    assert [t["id"] for t in watchable] == [public["id"]]
    lobby.close()


def test_a_private_table_is_reached_only_through_its_invite_link(server: LiveServer) -> None:
    host, friend, stranger = server.client("host"), server.client("friend"), server.client("x")
    for client in (host, friend, stranger):
        client.guest()
    created = host.create_table(game="summy", seats=2, private=True)
    table_id, token = url_path(created["invite_url"])
    assert table_id == created["table"]["id"]
    assert stranger.get(f"/api/tables/{table_id}", expect=404)
    assert stranger.post(f"/api/tables/{table_id}/join", {}, expect=404)
    with pytest.raises(Exception, match=r"1008|policy|no such table"):
        stranger.connect(table_id).recv()
    watcher = stranger.connect(table_id, invite=token)
    assert watcher.recv()["seat"] is None
    friend.post(f"/api/tables/{table_id}/join", {"invite": token})
    assert friend.get(f"/api/tables/{table_id}")["invite_url"] == created["invite_url"]


def test_quick_play_seats_players_together_and_starts_when_full(server: LiveServer) -> None:
    players = [server.client(f"p{n}") for n in range(2)]
    for client in players:
        client.guest()
    first = players[0].post("/api/quickplay", {"game": "summy"})["table"]
    assert first["status"] == "open" and first["quick"]
    again = players[0].post("/api/quickplay", {"game": "summy"})["table"]
    assert again["id"] == first["id"]
    second = players[1].post("/api/quickplay", {"game": "summy"})["table"]
    assert second["id"] == first["id"]
    assert second["status"] == "playing"


def test_turn_based_play_over_rest_with_idempotent_ids(server: LiveServer) -> None:
    host = server.client("host")
    host.guest()
    table_id = host.create_table(game="slide", seats=2, bots={"1": "random"}, pace="turn")["table"][
        "id"
    ]
    host.post(f"/api/tables/{table_id}/start")
    action = {"type": "reveal", "cell": [0, 0]}
    first = host.post(f"/api/tables/{table_id}/actions", {"id": "r1", "action": action})
    again = host.post(f"/api/tables/{table_id}/actions", {"id": "r1", "action": action})
    assert first["duplicate"] is False and first["version"] >= 3
    assert again == {"version": first["version"], "duplicate": True}
    refused = host.post(f"/api/tables/{table_id}/actions", {"id": "r2", "action": action}, 400)
    assert refused["code"] in ("not_your_turn", "illegal")


def test_the_creator_closes_a_table_that_has_not_started(server: LiveServer) -> None:
    host, other = server.client("host"), server.client("other")
    host.guest()
    other.guest()
    table_id = host.create_table(game="summy", seats=2)["table"]["id"]
    assert other.post(f"/api/tables/{table_id}/close", expect=403)["code"] == "not_creator"
    closed = host.post(f"/api/tables/{table_id}/close")["table"]
    assert closed["status"] == "closed"
    assert host.get("/api/tables") == []
    assert other.post(f"/api/tables/{table_id}/join", {}, expect=400)["code"] == "closed"


def test_a_finished_table_leaves_memory_and_comes_back_from_the_store(server: LiveServer) -> None:
    manager = server.services.tables
    manager.registry.forget_after_s = 0.05
    host = server.client("host")
    host.guest()
    table_id = host.create_table(
        game="slide", seats=2, bots={"0": "random", "1": "random"}, sit=False
    )["table"]["id"]
    host.post(f"/api/tables/{table_id}/start")
    deadline = time.monotonic() + 60
    while host.get(f"/api/tables/{table_id}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    while table_id in manager.tables:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    again = host.get(f"/api/tables/{table_id}")["table"]
    assert again["status"] == "finished" and again["result"]
    assert host.get(f"/api/tables/{table_id}/record")["game"] == "slide"
    while table_id in manager.tables:  # loaded again, and let go again
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_the_games_come_from_the_registry_with_seats_options_and_bots(server: LiveServer) -> None:
    games = {game["name"]: game for game in server.client().get("/api/games")}
    assert set(games) == set(GAME_NAMES)
    slide = games["slide"]
    assert (slide["min_players"], slide["max_players"], slide["quick_play_seats"]) == (2, 6, 4)
    assert set(slide["options"]["properties"]) == {"lowest_reveal_starts", "match_to_100"}
    assert slide["option_defaults"] == {"lowest_reveal_starts": False, "match_to_100": False}
    assert games["summy"]["bot_levels"] == ["random", "greedy", "strong", "expert"]
    spec = server.client().get("/openapi.json")
    enum = spec["components"]["schemas"]["TableCreate"]["properties"]["game"]["enum"]
    assert enum == list(GAME_NAMES)


def test_quick_play_opens_the_games_own_number_of_seats(server: LiveServer) -> None:
    for name in GAME_NAMES:
        player = server.client()
        player.guest()
        table = player.post("/api/quickplay", {"game": name})["table"]
        assert table["seat_count"] == get_game(name).quick_play_seats
    player.post("/api/quickplay", {"game": "chess"}, expect=422)


def test_quick_play_alone_gets_bots_after_the_wait_and_the_game_starts(
    server: LiveServer,
) -> None:
    alone = server.client("alone")
    alone.guest()
    table = alone.post("/api/quickplay", {"game": "slide"})["table"]
    assert table["status"] == "open" and table["bots_at"] == table["created_at"] + 15
    sock = alone.connect(table["id"])
    sock.recv()
    server.advance(14)
    assert alone.get(f"/api/tables/{table['id']}")["table"]["status"] == "open"
    server.advance(2)
    sock.recv_until(lambda m: m.get("kind") == "start")
    seats = alone.get(f"/api/tables/{table['id']}")["table"]["seats"]
    assert [s["bot"] for s in seats] == [None, "greedy", "greedy", "greedy"]


def test_the_waiting_creator_can_have_bots_now_and_nobody_else_can(server: LiveServer) -> None:
    waiting, stranger = server.client("waiting"), server.client("stranger")
    waiting.guest()
    stranger.guest()
    table = waiting.post("/api/quickplay", {"game": "summy"})["table"]
    refused = stranger.post(f"/api/tables/{table['id']}/bots", expect=403)
    assert refused["code"] == "not_creator"
    started = waiting.post(f"/api/tables/{table['id']}/bots")["table"]
    assert started["status"] == "playing" and started["bots_at"] is None
    assert [s["bot"] for s in started["seats"]] == [None, "greedy"]


def test_a_player_who_joined_cannot_fill_the_creators_free_seats_with_bots(
    server: LiveServer,
) -> None:
    creator, joiner = server.client("creator"), server.client("joiner")
    creator.guest()
    joiner.guest()
    table_id = creator.create_table(game="slide", seats=4)["table"]["id"]
    joiner.post(f"/api/tables/{table_id}/join", {})
    refused = joiner.post(f"/api/tables/{table_id}/bots", expect=403)
    assert refused["code"] == "not_creator"
    seats = creator.get(f"/api/tables/{table_id}")["table"]["seats"]
    assert [s["bot"] for s in seats] == [None] * 4 and seats[2]["user_id"] is None
    filled = creator.post(f"/api/tables/{table_id}/bots")["table"]
    assert [s["bot"] is not None for s in filled["seats"]] == [False, False, True, True]


def test_lobby_news_is_the_protocols_model_written_once_for_every_lobby_socket(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[str] = []
    write = server_messages.message_text

    def counted(message: server_messages.ServerMessage) -> str:
        written.append(message.type)  # type: ignore[attr-defined]
        return write(message)

    monkeypatch.setattr(server_messages, "message_text", counted)
    host = server.client("host")
    host.guest()
    lobbies = [connect(f"{server.ws_url}/ws/lobby", open_timeout=10, legacy=True) for _ in range(3)]
    firsts = [lobby.recv(timeout=10) for lobby in lobbies]
    public = host.create_table(game="slide", seats=2)["table"]
    news = [lobby.recv(timeout=10) for lobby in lobbies]
    assert len(set(news)) == 1 and json.loads(news[0])["table"]["id"] == public["id"]
    for text in (*firsts, *news):
        server_messages.LOBBY_MESSAGE.validate_json(text)
    assert written.count("table") == 1  # one news, three sockets
    for lobby in lobbies:
        lobby.close()


def test_a_table_says_rated_only_while_two_seats_are_left_for_people(server: LiveServer) -> None:
    host = server.client("host")
    host.guest()
    # Against bots only, nobody can be rated: the table says rated false at once.
    one_bot = host.create_table(game="slide", seats=2, bots={"1": "random"}, rated=True)["table"]
    assert one_bot["rated"] is False and one_bot["unrated_by_bots"] is True
    # Two people and a bot: the people are rated among themselves.
    mixed = host.create_table(game="slide", seats=3, bots={"2": "random"}, rated=True)["table"]
    assert mixed["rated"] is True and mixed["unrated_by_bots"] is False
    # Bots taking the free seats later make a rated table unrated, and the lobby is told.
    table = host.create_table(game="slide", seats=3, rated=True)["table"]
    assert table["rated"] is True
    filled = host.post(f"/api/tables/{table['id']}/bots")["table"]
    assert [s["bot"] is not None for s in filled["seats"]] == [False, True, True]
    assert filled["rated"] is False and filled["unrated_by_bots"] is True
    casual = host.create_table(game="slide", seats=2, bots={"1": "random"})["table"]
    assert casual["rated"] is False and casual["unrated_by_bots"] is False
