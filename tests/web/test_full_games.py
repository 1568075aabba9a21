"""Full games over real connections, then what they leave: results, records, replays, ratings.

One server plays two games for the whole module (they take a few seconds each):
- Summy, rated: two accounts seated, a guest watching and chatting;
- Slide, four seats, rated: an account and a guest seated, two bots, an account watching.
Every message every client received is kept, for the secrets test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from secrets_check import check_messages
from server_harness import GAMES, Client, LiveServer, Socket, play_out

from meeple.games.base import GameRecord, replay


@dataclass
class PlayedGame:
    """A finished game and every socket that followed it."""

    table_id: str
    game: str
    seats: dict[int, Socket]
    watcher: Socket
    clients: dict[str, Client]


@pytest.fixture(scope="module")
def summy_game(live: LiveServer) -> PlayedGame:
    alice, bob, carol = live.client("alice"), live.client("bob"), live.client("carol")
    alice.register("alice")
    bob.register("bob")
    carol.guest()
    table_id = alice.create_table(game="summy", seats=2, rated=True)["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", {})
    watcher = carol.connect(table_id)
    watcher.recv()
    alice.post(f"/api/tables/{table_id}/start")
    seats = {0: alice.connect(table_id), 1: bob.connect(table_id)}
    for sock in seats.values():
        sock.recv()
    watcher.send({"type": "chat", "id": "hi", "text": "good luck, both!"})
    play_out(seats, "summy", watchers=(watcher,))
    watcher.wait_finished()
    return PlayedGame(
        table_id, "summy", seats, watcher, {"alice": alice, "bob": bob, "carol": carol}
    )


@pytest.fixture(scope="module")
def slide_game(live: LiveServer, summy_game: PlayedGame) -> PlayedGame:
    alice, bob = summy_game.clients["alice"], summy_game.clients["bob"]
    dan = live.client("dan")
    dan.guest()
    table_id = alice.create_table(
        game="slide", seats=4, bots={"1": "greedy", "3": "random"}, rated=True
    )["table"]["id"]
    dan.post(f"/api/tables/{table_id}/join", {"seat": 2})
    watcher = bob.connect(table_id)
    watcher.recv()
    alice.post(f"/api/tables/{table_id}/start")
    seats = {0: alice.connect(table_id), 2: dan.connect(table_id)}
    for sock in seats.values():
        sock.recv()
    play_out(seats, "slide", watchers=(watcher,))
    watcher.wait_finished()
    return PlayedGame(table_id, "slide", seats, watcher, {"alice": alice, "bob": bob, "dan": dan})


def record_of(played: PlayedGame) -> GameRecord:
    client = next(iter(played.clients.values()))
    return GameRecord.from_json(client.get(f"/api/tables/{played.table_id}/record"))


@pytest.mark.parametrize("name", ["summy_game", "slide_game"])
def test_a_full_game_ends_with_the_result_its_record_replays_to(
    request: pytest.FixtureRequest, name: str
) -> None:
    played: PlayedGame = request.getfixturevalue(name)
    client = next(iter(played.clients.values()))
    table = client.get(f"/api/tables/{played.table_id}")["table"]
    assert table["status"] == "finished"
    game = GAMES[played.game]
    final_state = replay(game, record_of(played))[-1]
    expected = game.result(final_state)
    assert expected is not None
    assert table["result"] == expected.to_json()
    for sock in (*played.seats.values(), played.watcher):
        finish = [m for m in sock.messages if m.get("kind") == "finish"]
        assert finish and finish[-1]["data"]["result"] == expected.to_json()
        versions = [m["version"] for m in sock.messages if m["type"] == "event"]
        assert versions == list(range(versions[0], versions[-1] + 1))


def test_the_slide_bots_played_their_seats(slide_game: PlayedGame) -> None:
    movers = {
        m["seat"]: m["data"]["by"] for m in slide_game.watcher.messages if m.get("kind") == "action"
    }
    assert movers == {0: "player", 1: "bot", 2: "player", 3: "bot"}


def test_the_spectators_line_reached_the_spectator_and_only_its_room_the_players(
    summy_game: PlayedGame,
) -> None:
    # Written during play by someone with no seat: kept from the players until the end
    # (docs/protocol.md, "chat").
    chats = [m for m in summy_game.watcher.messages if m.get("kind") == "chat"]
    assert [c["data"]["text"] for c in chats] == ["good luck, both!"]
    for sock in summy_game.seats.values():
        chats = [m for m in sock.messages if m.get("kind") == "chat"]
        assert [c["data"] for c in chats] == [{"room": "spectators"}]


@pytest.mark.parametrize("name", ["summy_game", "slide_game"])
def test_no_message_to_anyone_holds_a_secret(request: pytest.FixtureRequest, name: str) -> None:
    played: PlayedGame = request.getfixturevalue(name)
    game = GAMES[played.game]
    states = replay(game, record_of(played))
    client = next(iter(played.clients.values()))
    events = client.get(f"/api/tables/{played.table_id}/events")
    record = record_of(played)
    versions: dict[int, int] = {}
    actions: dict[int, Any] = {}
    count, started = 0, False
    for event in events:
        if event["kind"] == "start":
            started = True
        if event["kind"] == "action":
            actions[event["version"]] = record.actions[count][1]
            count += 1
        if started:
            versions[event["version"]] = count
    checked = 0
    for seat, sock in played.seats.items():
        checked += check_messages(game, states, versions, actions, sock.messages, seat)
    checked += check_messages(game, states, versions, actions, played.watcher.messages, None)
    assert checked >= 3 * len(record.actions)


def test_ratings_history_profiles_and_leaderboard(
    summy_game: PlayedGame, slide_game: PlayedGame
) -> None:
    alice = summy_game.clients["alice"]
    summy_result = alice.get(f"/api/tables/{summy_game.table_id}")["table"]["result"]
    winner = "alice" if summy_result["ranks"][0] == 1 else "bob"
    board = alice.get("/api/leaderboard/summy")
    assert [line["place"] for line in board] == [1, 2]
    if summy_result["ranks"][0] != summy_result["ranks"][1]:
        assert board[0]["name"] == winner and board[0]["wins"] == 1
        assert board[0]["rating"] > board[1]["rating"]
    profile = alice.get("/api/users/alice")
    assert profile["finished"] == {"summy": 1, "slide": 1}
    slide_winners = alice.get(f"/api/tables/{slide_game.table_id}")["table"]["result"]["winners"]
    expected_wins = {"summy": 0 in summy_result["winners"], "slide": 0 in slide_winners}
    assert profile["won"] == {game: 1 for game, won in expected_wins.items() if won}
    assert {r["game"] for r in profile["ratings"]} == {"summy", "slide"}
    history = alice.get("/api/users/alice/history/slide")
    assert [h["table_id"] for h in history] == [slide_game.table_id]
    slide_ranks = alice.get(f"/api/tables/{slide_game.table_id}")["table"]["result"]["ranks"]
    # Rated among the two people only (alice at seat 0, the guest at seat 2).
    assert history[0]["rank"] == (1 if slide_ranks[0] <= slide_ranks[2] else 2)
    # Shown on a familiar scale: everybody starts at 1500; one game moves it by tens.
    assert history[0]["previous"] == 1500 and isinstance(history[0]["rating"], int)
    assert 1100 <= history[0]["rating"] <= 1900 and history[0]["rating"] != 1500
    assert all(line["provisional"] for line in board)  # one game each: provisional
    assert alice.get("/api/users/nobody-here", expect=404)
    assert alice.get("/api/leaderboard/chess", expect=404)


def test_the_replay_endpoint_steps_through_a_finished_game(summy_game: PlayedGame) -> None:
    client = summy_game.clients["carol"]
    game = GAMES["summy"]
    record = record_of(summy_game)
    states = replay(game, record)
    path = f"/api/tables/{summy_game.table_id}/replay"
    start = client.get(path, step=0)
    assert start["steps"] == len(record.actions)
    assert start["view"] == game.view(states[0], None) and start["action"] is None
    step = client.get(path, step=2, seat=1)
    assert step["action"] == list(record.actions[1]) and step["view"] == game.view(states[2], 1)
    last = client.get(path, step=len(record.actions))
    assert last["result"] == game.result(states[-1]).to_json()  # type: ignore[union-attr]
    assert client.get(path, step=len(record.actions) + 1, expect=422)


def test_the_record_is_kept_secret_until_the_game_is_over(live: LiveServer) -> None:
    client = live.client("eve")
    client.guest()
    table_id = client.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    client.post(f"/api/tables/{table_id}/start")
    refused = client.get(f"/api/tables/{table_id}/record", expect=409)
    assert refused["code"] == "not_over"


def test_rematch_same_seats_new_deal_once_everyone_asks(summy_game: PlayedGame) -> None:
    alice_sock, bob_sock = summy_game.seats[0], summy_game.seats[1]
    alice_sock.send({"type": "rematch", "id": "again"})
    first = alice_sock.recv_until(lambda m: m["type"] == "ack")
    assert first == {"type": "ack", "id": "again", "rematch_id": None}
    bob_sock.send({"type": "rematch", "id": "yes"})
    rematch_id = bob_sock.recv_until(lambda m: m["type"] == "ack")["rematch_id"]
    assert rematch_id
    announced = alice_sock.recv_until(lambda m: m.get("kind") == "rematch")
    assert announced["data"] == {"table_id": rematch_id}
    alice = summy_game.clients["alice"]
    new = alice.get(f"/api/tables/{rematch_id}")["table"]
    old = alice.get(f"/api/tables/{summy_game.table_id}")["table"]
    assert new["status"] == "playing" and new["rematch_of"] == summy_game.table_id
    assert [s["user_id"] for s in new["seats"]] == [s["user_id"] for s in old["seats"]]
    assert (new["options"], new["rated"], new["pace"]) == (
        old["options"],
        old["rated"],
        old["pace"],
    )
    first_deal = replay(GAMES["summy"], record_of(summy_game))[0]
    new_view = alice.connect(rematch_id).recv()["view"]
    assert new_view["hand"] != GAMES["summy"].view(first_deal, 0)["hand"]
