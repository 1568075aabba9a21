"""A new feature follows the tables by subscribing to their facts, and nothing else: a fake
tournament, defined here alone, registered through the public hook (``services.facts``),
sees every game its players finish once, with its result, on one server and on two."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import pytest
from server_harness import LiveServer, play_out

from meeple.tables.facts import GameFinished


@dataclass
class Tournament:
    """The smallest tournament: the finished games it heard of, by table."""

    finishes: list[tuple[str, tuple[int, ...], bool, bool]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def game_finished(self, fact: GameFinished) -> None:
        """A subscriber notes at once, no I/O: the table, its ranks, whether it counted."""
        with self.lock:
            self.finishes.append(
                (fact.table_id, tuple(fact.result.ranks), fact.rated, fact.aborted)
            )

    def seen(self) -> list[tuple[str, tuple[int, ...], bool, bool]]:
        with self.lock:
            return list(self.finishes)


def play_two_games(host: LiveServer, guest_server: LiveServer) -> list[str]:
    """A rated Summy game between two accounts (the second on ``guest_server``), then a
    Slide game of one account against bots; both played to the end over real sockets."""
    alice, bob = host.client("alice"), guest_server.client("bob")
    alice.register(f"alice{time.monotonic_ns() % 10**6}")
    bob.register(f"bob{time.monotonic_ns() % 10**6}")
    summy = alice.create_table(game="summy", seats=2, rated=True)["table"]["id"]
    bob.post(f"/api/tables/{summy}/join", {})
    alice.post(f"/api/tables/{summy}/start")
    seats = {0: alice.connect(summy), 1: bob.connect(summy)}
    for sock in seats.values():
        sock.recv()
    play_out(seats, "summy")
    slide = bob.create_table(game="slide", seats=3, bots={"1": "greedy", "2": "random"})
    slide_id = slide["table"]["id"]
    bob.post(f"/api/tables/{slide_id}/start")
    sock = bob.connect(slide_id)
    sock.recv()
    play_out({0: sock}, "slide")
    return [summy, slide_id]


def wait_for(tournaments: list[Tournament], count: int) -> None:
    deadline = time.monotonic() + 10
    while sum(len(t.seen()) for t in tournaments) < count and time.monotonic() < deadline:
        time.sleep(0.05)


def expected(server: LiveServer, table_ids: list[str]) -> list[tuple[str, tuple[int, ...], bool]]:
    """Each table's result as the API gives it: id, ranks, rated."""
    reader = server.client("reader")
    found = []
    for table_id in table_ids:
        table = reader.get(f"/api/tables/{table_id}")["table"]
        assert table["status"] == "finished"
        found.append((table_id, tuple(table["result"]["ranks"]), bool(table["rated"])))
    return found


def test_a_tournament_subscribed_to_the_hook_sees_each_finished_game_once(
    server: LiveServer,
) -> None:
    tournament = Tournament()
    server.services.facts.subscribe(GameFinished, tournament.game_finished)
    table_ids = play_two_games(server, server)
    wait_for([tournament], 2)
    seen = tournament.seen()
    assert [(t, ranks, rated) for t, ranks, rated, _aborted in seen] == expected(server, table_ids)
    assert [aborted for *_rest, aborted in seen] == [False, False]
    assert seen[0][2] is True  # two accounts at a rated table: it counted for their ratings
    time.sleep(0.3)
    assert len(tournament.seen()) == 2  # once each, no repeat in a later pass


@pytest.mark.postgres
@pytest.mark.redis
def test_with_two_servers_each_finished_game_is_seen_once_on_its_owner(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    east, west = two_servers
    on_east, on_west = Tournament(), Tournament()
    owned_when_told: list[bool] = []

    def told_on_east(fact: GameFinished) -> None:
        # Read as the fact arrives: a lease may lapse later, once the game is over.
        table = east.services.tables.tables.get(fact.table_id)
        owned_when_told.append(table is not None and table.owned)
        on_east.game_finished(fact)

    east.services.facts.subscribe(GameFinished, told_on_east)
    west.services.facts.subscribe(GameFinished, on_west.game_finished)
    table_ids = play_two_games(east, west)  # players on both servers, moves forwarded
    wait_for([on_east, on_west], 2)
    time.sleep(0.3)
    seen = sorted(on_east.seen() + on_west.seen())
    want = sorted(expected(east, table_ids))
    assert [(t, ranks, rated) for t, ranks, rated, _aborted in seen] == want
    assert on_east.seen() and owned_when_told == [True] * len(on_east.seen())  # where it ran
