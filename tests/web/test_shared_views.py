"""Many streams and sockets on one table: a seat's legal list is made once per version,
and no seat's line reaches another seat or a spectator.

The game object of a live table is wrapped to count its calls; the streams are real
NDJSON responses read over HTTP, the socket a real WebSocket.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections import Counter
from typing import Any

from server_harness import LiveServer
from test_bot_streams import LineReader, api, bot_with_token, on_server_loop

from meeple.games import get_game
from meeple.games.base import AnyGame
from meeple.jsontext import dumps, loads
from meeple.tables.core.legal_lists import LegalLists, legal_text
from meeple.web.feed import feed_of


class CountingGame:
    """A game whose legal lists and views are counted, by seat; everything else passes through."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.legal_calls: Counter[int] = Counter()
        self.view_calls: Counter[int | None] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def legal_actions(self, state: Any, seat: int) -> Any:
        """The game's legal actions, counted."""
        self.legal_calls[seat] += 1
        return self.game.legal_actions(state, seat)

    def view(self, state: Any, seat: int | None) -> Any:
        """The game's view, counted."""
        self.view_calls[seat] += 1
        return self.game.view(state, seat)


def table_lines(reader: LineReader) -> list[dict[str, Any]]:
    """The stream's hello and events so far (not its presence news, which depends on when
    it opened)."""
    return [line for line in reader.received if line["type"] in {"hello", "event"}]


def read_to(readers: list[LineReader], version: int) -> None:
    """Read every stream up to the line of ``version``."""
    for reader in readers:
        while table_lines(reader)[-1]["version"] < version:
            reader.line()


def test_a_seats_legal_list_is_made_once_for_all_its_streams(server: LiveServer) -> None:
    host, host_token = bot_with_token(server, "many-eyes")
    guest, guest_token = bot_with_token(server, "other-eyes")
    _watcher, watcher_token = bot_with_token(server, "just-eyes")
    table_id = host.create_table(game="summy", seats=2, rated=False)["table"]["id"]
    guest.post(f"/api/tables/{table_id}/join", {})
    host.post(f"/api/tables/{table_id}/start")
    table = on_server_loop(server, server.services.tables.get(table_id))
    counting = CountingGame(table.game)
    table.game = counting
    path = f"/api/stream/game/{table_id}"
    seats = {
        0: [LineReader(server, path, host_token) for _ in range(5)],
        1: [LineReader(server, path, guest_token) for _ in range(3)],
    }
    spectator = LineReader(server, path, watcher_token)
    socket = server.client("socket-eyes").connect(table_id)
    tokens = {0: host_token, 1: guest_token}
    every = [*seats[0], *seats[1], spectator]
    try:
        for reader in every:
            assert reader.line()["type"] == "hello"
        hello = socket.recv()
        version = hello["version"]
        for move in range(6):
            newest = {s: table_lines(readers[0])[-1] for s, readers in seats.items()}
            offered = [(s, line) for s, line in newest.items() if "legal" in line]
            assert len(offered) == 1, "one seat acts at a time in Summy"
            seat, line = offered[0]
            answer = api(
                server,
                tokens[seat],
                "POST",
                f"/api/tables/{table_id}/actions",
                {"id": f"m{move}", "action": line["legal"][0]},
            )
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
            read_to(every, version)
            socket.wait_version(version)
    finally:
        socket.close()
        for reader in every:
            reader.close()
    offered_at = {
        seat: {line["version"] for line in table_lines(readers[0]) if "legal" in line}
        for seat, readers in seats.items()
    }
    assert offered_at[0] and offered_at[1]
    for seat, readers in seats.items():
        # Every stream of a seat got the very same lines, legal lists and all (a hello's
        # table says who was there when it opened)...
        lines = [[{**x, "table": None} for x in table_lines(r)] for r in readers]
        assert all(got == lines[0] for got in lines)
        # ...and the seat's list was made once per version it was offered at.
        assert counting.legal_calls[seat] == len(offered_at[seat])
    assert not any("legal" in line for line in spectator.received)
    events = [m for m in socket.messages if m["type"] == "event"]
    assert events == [line for line in spectator.received if line["type"] == "event"]
    # One view per seat and version, whatever the number of streams and sockets.
    versions = len({line["version"] for line in table_lines(spectator)})
    assert all(count <= versions for count in counting.view_calls.values())


def test_streams_waiting_together_share_one_listing_which_outlives_a_cancelled_one() -> None:
    game = CountingGame(get_game("slide"))
    state = game.setup({"players": 2}, 7)
    seat = min(game.to_act(state))
    lists = LegalLists()

    async def main() -> None:
        first = asyncio.create_task(lists.with_legal('{"v":1}', game, state, 1, seat))
        others = [lists.with_legal('{"v":1}', game, state, 1, seat) for _ in range(9)]
        await asyncio.sleep(0)
        first.cancel()  # the stream that started the listing goes away
        lines = await asyncio.gather(*others)
        assert len({id(line) for line in lines}) == 1, "one line object for every stream"
        assert lines[0] == '{"v":1,"legal":' + legal_text(game.game, state, seat) + "}"
        # Another message of the same version reuses the list; a newer version lists anew.
        await lists.with_legal('{"v":2}', game, state, 1, seat)
        assert game.legal_calls[seat] == 1
        await lists.listed(game, state, 2, seat)
        assert game.legal_calls[seat] == 2
        assert not lists.newest(1), "version 1 is gone"

    asyncio.run(main())


def test_streams_of_different_seats_never_get_each_others_lines(server: LiveServer) -> None:
    """Two seats' streams and a spectator's share the table's feed, never a line: every line
    a stream gets carries its own seat's view (the spectator's: the spectator view) at its
    version, and only the acting seat's streams get a legal list, that seat's own."""
    host, host_token = bot_with_token(server, "seat-zero")
    guest, guest_token = bot_with_token(server, "seat-one")
    _watcher, watcher_token = bot_with_token(server, "no-seat")
    table_id = host.create_table(game="summy", seats=2, rated=False)["table"]["id"]
    guest.post(f"/api/tables/{table_id}/join", {})
    host.post(f"/api/tables/{table_id}/start")
    table = on_server_loop(server, server.services.tables.get(table_id))
    path = f"/api/stream/game/{table_id}"
    tokens = {0: host_token, 1: guest_token}
    readers: dict[int | None, list[LineReader]] = {
        0: [LineReader(server, path, host_token) for _ in range(2)],
        1: [LineReader(server, path, guest_token, gzip=False) for _ in range(2)],
        None: [LineReader(server, path, watcher_token)],
    }
    every = [reader for group in readers.values() for reader in group]
    try:
        for reader in every:
            assert reader.line()["type"] == "hello"
        for move in range(4):
            acting = [(s, table_lines(rs[0])[-1]) for s, rs in readers.items() if s is not None]
            seat, line = next((s, line) for s, line in acting if "legal" in line)
            body = {"id": f"m{move}", "action": line["legal"][0]}
            answer = api(server, tokens[seat], "POST", f"/api/tables/{table_id}/actions", body)
            assert answer.status_code == 200, answer.text
            read_to(every, answer.json()["version"])
    finally:
        for reader in every:
            reader.close()
    game = table.game
    differ = 0
    for seat, group in readers.items():
        for reader in group:
            for line in table_lines(reader):
                state = table.snap.state_at(line["version"])
                assert line["view"] == loads(dumps(game.view(state, seat))), (seat, line)
                other = loads(dumps(game.view(state, 1 - (seat or 0))))
                differ += line["view"] != other
                if "legal" in line:
                    assert seat is not None and seat in game.to_act(state)
                    assert line["legal"] == loads(legal_text(game, state, seat))
    assert differ, "the seats' views differ: the check above tells them apart"


def test_a_tables_feed_does_not_keep_the_table_alive() -> None:
    class Table:
        """Stands for a live table: only its identity matters to :func:`feed_of`."""

    table = Table()
    assert feed_of(table) is feed_of(table)  # type: ignore[arg-type]
    gone = weakref.ref(table)
    del table
    gc.collect()
    assert gone() is None, "the feed held its table: a forgotten table would stay in memory"
