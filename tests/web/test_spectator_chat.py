"""Spectators' chat kept apart from the players' (docs/protocol.md, "chat"): a line written
during play by someone with no seat is a spectators' line; the other spectators see it at
once, the players only its ``room`` until the game is over (on the socket, the game
stream and the REST events alike), then whole. The players' own lines reach everyone."""

from __future__ import annotations

from typing import Any

from server_harness import LiveServer, play_out, slide_pair


def chats(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m["data"] for m in messages if m.get("type") == "event" and m["kind"] == "chat"]


def test_a_spectators_line_reaches_the_players_only_after_the_game(server: LiveServer) -> None:
    alice, bob, table_id = slide_pair(server)
    carol, dave = server.client("carol"), server.client("dave")
    carol.guest()
    dave.guest()
    seats = {0: alice.connect(table_id), 1: bob.connect(table_id)}
    watchers = (carol.connect(table_id), dave.connect(table_id))
    for sock in (*seats.values(), *watchers):
        sock.recv_until(lambda m: m["type"] == "hello")

    watchers[0].send({"type": "chat", "id": "s1", "text": "bob, take the 7!"})
    version = watchers[0].recv_until(lambda m: m.get("id") == "s1")["version"]
    seats[0].send({"type": "chat", "id": "p1", "text": "good luck"})
    seats[0].recv_until(lambda m: m.get("id") == "p1")
    for sock in (*seats.values(), *watchers):
        sock.wait_version(version + 1)
    name = carol.user["name"]  # type: ignore[index]
    whole = {"name": name, "text": "bob, take the 7!", "room": "spectators"}
    player_line = {"name": alice.user["name"], "text": "good luck"}  # type: ignore[index]
    for watcher in watchers:
        assert chats(watcher.messages) == [whole, player_line]
    for sock in seats.values():
        assert chats(sock.messages) == [{"room": "spectators"}, player_line]

    # The REST events too: a player is kept from it, a spectator is not.
    def rest(client: Any) -> list[dict[str, Any]]:
        events = client.get(f"/api/tables/{table_id}/events")
        return [e["data"] for e in events if e["kind"] == "chat"]

    assert rest(bob) == [{"room": "spectators"}, player_line]
    assert rest(dave) == [whole, player_line]

    play_out(seats, "slide", watchers=watchers)
    assert all(sock.finished for sock in seats.values())
    assert rest(bob) == [whole, player_line]  # the game is over: the players may read it
    seats[1].close()
    again = bob.connect(table_id, since=version - 1)  # a resume after the end sends it whole
    again.recv_until(lambda m: m.get("type") == "event" and m["version"] == version)
    assert chats(again.messages)[0] == whole

    # After the end, a spectator's line is for everyone: no room.
    watchers[1].send({"type": "chat", "id": "s2", "text": "well played"})
    later = watchers[1].recv_until(lambda m: m.get("id") == "s2")["version"]
    seats[0].wait_version(later)
    assert chats(seats[0].messages)[-1] == {"name": dave.user["name"], "text": "well played"}  # type: ignore[index]
