"""My games, as a player meets it: the live tables listed with their turn first, the
"your turn" count on the account socket on connect and when an opponent moves, a token
with games:read reading the list, a stranger seeing only their own."""

from __future__ import annotations

import json
from typing import Any

import httpx
from server_harness import Client, LiveServer, Socket, brain
from test_bot_tokens import bearer, make_token
from websockets.sync.client import ClientConnection, connect


def me_socket(client: Client) -> ClientConnection:
    """The account socket a page opens, with the client's cookie."""
    return connect(
        f"{client.server.ws_url}/ws/me",
        additional_headers={"Cookie": client.cookie_header()},
        open_timeout=10,
    )


def next_count(socket: ClientConnection, timeout: float = 10.0) -> int:
    """The next "your turn" count the socket sends (other lines are skipped)."""
    while True:
        line = json.loads(socket.recv(timeout=timeout))
        if line["type"] == "my_turns":
            return int(line["count"])


def turn_table(host: Client, guest: Client, seats: int = 2) -> str:
    """A started turn-based two-player table of ``host`` (the creator) and ``guest``."""
    table = host.create_table(game="summy", seats=seats, pace="turn", private=True)
    table_id = table["table"]["id"]
    invite = table["invite_url"].split("invite=")[1]
    guest.post(f"/api/tables/{table_id}/join", {"invite": invite})
    host.post(f"/api/tables/{table_id}/start")
    return str(table_id)


def move(client: Client, table_id: str) -> None:
    """The client's seat plays one legal move at the table (a random one)."""
    sock: Socket = client.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    assert sock.seat in sock.to_act and sock.view is not None
    action = brain("summy", 7)(sock.view, sock.seat)
    client_id = f"m{sock.version}"
    sock.send({"type": "action", "id": client_id, "action": action})
    ack = sock.recv_until(lambda m: m.get("id") == client_id)
    assert ack["type"] == "ack", ack
    sock.close()


def whose_turn(client: Client, table_id: str) -> list[int]:
    """The seats to act at the table now."""
    return list(client.get(f"/api/tables/{table_id}")["table"]["to_act"])


def players(server: LiveServer) -> tuple[Client, Client]:
    """Two registered players."""
    ada, bob = server.client("ada"), server.client("bob")
    ada.register("Ada")
    bob.register("Bob")
    return ada, bob


def entry(listing: dict[str, Any], table_id: str) -> dict[str, Any]:
    """The list's line for ``table_id``."""
    found = [t for t in listing["tables"] if t["id"] == table_id]
    assert len(found) == 1, listing
    return found[0]


def test_my_tables_lists_my_turn_first_with_opponents_clock_and_last_move(
    server: LiveServer,
) -> None:
    ada, bob = players(server)
    first = turn_table(ada, bob)
    second = turn_table(ada, bob)
    # Whoever must move first at the first table moves, so the two tables differ.
    mover = ada if 0 in whose_turn(ada, first) else bob
    move(mover, first)
    waiting = bob.create_table(game="summy", seats=2)["table"]["id"]  # open, bob alone
    server.advance(30)
    for me, other in ((ada, "Bob"), (bob, "Ada")):
        listing = me.get("/api/me/tables")
        ids = [t["id"] for t in listing["tables"]]
        mine = [t for t in listing["tables"] if t["my_turn"]]
        assert listing["my_turns"] == len(mine)
        # My turn first: no table waiting on me comes after one that does not.
        assert [t["my_turn"] for t in listing["tables"]] == sorted(
            (t["my_turn"] for t in listing["tables"]), reverse=True
        )
        for table_id in (first, second):
            line = entry(listing, table_id)
            assert line["game"] == "summy" and line["pace"] == "turn"
            assert line["status"] == "playing"
            assert [o["name"] for o in line["opponents"]] == [other]
            assert line["opponents"][0]["bot"] is False
            assert line["my_turn"] == (line["seat"] in line["to_act"])
            if line["my_turn"]:
                assert line["deadline"] is not None
                assert 0 < line["time_left_s"] <= line["move_seconds"] - 30 + 0.001
            else:
                assert line["deadline"] is None and line["their_deadline"] is not None
        moved = entry(listing, first)["last_move"]
        assert moved["kind"] == "action" and moved["by"] == "player"
        assert moved["name"] == ("Ada" if mover is ada else "Bob")
        assert entry(listing, second)["last_move"]["kind"] == "start"
        assert (waiting in ids) == (me is bob)
    assert entry(bob.get("/api/me/tables"), waiting)["status"] == "open"


def test_the_socket_sends_the_count_on_connect_and_when_an_opponent_moves(
    server: LiveServer,
) -> None:
    ada, bob = players(server)
    table_id = turn_table(ada, bob)
    to_act = whose_turn(ada, table_id)
    mover, waiter = (ada, bob) if to_act == [0] else (bob, ada)
    with me_socket(waiter) as socket:
        assert next_count(socket) == 0
        move(mover, table_id)
        assert next_count(socket) == 1  # the opponent moved: my turn
        move(waiter, table_id)
        assert next_count(socket) == 0  # I moved: theirs again
    with me_socket(mover) as socket:
        assert next_count(socket) == 1


def test_a_token_with_games_read_lists_the_tables_and_others_are_refused(
    server: LiveServer,
) -> None:
    ada, bob = players(server)
    table_id = turn_table(ada, bob)
    reader = make_token(ada, ["games:read"])
    player = make_token(ada, ["bot:play"])
    with bearer(server, reader["token"]) as program:
        answer = program.get("/api/me/tables")
        assert answer.status_code == 200, answer.text
        assert [t["id"] for t in answer.json()["tables"]] == [table_id]
    with bearer(server, player["token"]) as program:
        refused = program.get("/api/me/tables")
        assert refused.status_code == 403 and refused.json()["code"] == "token_scope"
    assert httpx.get(f"{server.url}/api/me/tables").status_code == 401


def test_a_stranger_sees_only_their_own_tables(server: LiveServer) -> None:
    ada, bob = players(server)
    turn_table(ada, bob)
    eve = server.client("eve")
    eve.register("Eve")
    assert eve.get("/api/me/tables") == {"tables": [], "my_turns": 0}
    with me_socket(eve) as socket:
        assert next_count(socket) == 0


def test_the_socket_refuses_a_visitor_and_another_sites_page(server: LiveServer) -> None:
    ada, _bob = players(server)
    with connect(f"{server.ws_url}/ws/me", open_timeout=10) as socket:
        try:
            socket.recv(timeout=10)
        except Exception as closed:  # closed with 1008: sign in first
            assert "1008" in str(closed)
        else:
            raise AssertionError("a visitor's socket stayed open")
    foreign = connect(
        f"{server.ws_url}/ws/me",
        additional_headers={"Cookie": ada.cookie_header(), "Origin": "https://evil.example"},
        open_timeout=10,
    )
    with foreign:
        try:
            foreign.recv(timeout=10)
        except Exception as closed:
            assert "1008" in str(closed)
        else:
            raise AssertionError("another site's socket stayed open")


def test_being_on_the_site_marks_the_account_seen_once_a_minute(server: LiveServer) -> None:
    ada, _bob = players(server)
    last_seen = server.services.last_seen
    before = last_seen.writes
    ada.get("/api/auth/me")
    ada.get("/api/auth/me")
    assert last_seen.writes == before + 1  # the second request came within the minute
    server.advance(61)
    ada.get("/api/auth/me")
    ada.get("/api/auth/me")
    assert last_seen.writes == before + 2
    user = ada.user
    assert user is not None
    from meeple.store.models import User

    row = server.services.db.call(lambda s: s.get(User, user["id"]))
    assert row is not None and row.last_seen_at == server.clock.now()
