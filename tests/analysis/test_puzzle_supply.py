"""A short puzzle pool is filled from games between the server's bots, in the background.

With the supply on, a new server stores puzzles cut from its bots' games, marked so, and
serves a daily one; with it off there are none; people's public games still add theirs."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from server_harness import Client, LiveServer, make_settings, run_async, running
from sqlalchemy import select

from meeple.analysis.bot_games import play_piece, puzzle_lineup, start_record
from meeple.analysis.features import cutter_of
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import StoredPuzzle
from meeple.tables.clock import SystemClock
from meeple.tables.core.bots import BotPool
from meeple.tables.study.puzzle_supply import PuzzleSupply


def stored(server: LiveServer) -> list[StoredPuzzle]:
    """Every puzzle in the server's store."""
    return server.services.db.call(lambda session: list(session.scalars(select(StoredPuzzle))))


def wait_for_puzzles(server: LiveServer, count: int, seconds: float = 60) -> list[StoredPuzzle]:
    """The store's puzzles once it holds ``count`` (bot games take a while)."""
    deadline = time.monotonic() + seconds
    while len(found := stored(server)) < count:
        assert time.monotonic() < deadline, f"only {len(found)} puzzles after {seconds} s"
        time.sleep(0.2)
    return found


def finish_public_game(client: Client) -> str:
    """A public Summy table (seated by bots, so it plays fast) played to its end; its id."""
    table_id = client.create_table(
        game="summy", seats=2, bots={"0": "strong", "1": "greedy"}, sit=False, private=False
    )["table"]["id"]
    client.post(f"/api/tables/{table_id}/start")
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table_id}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots never finished"
        time.sleep(0.05)
    return table_id


def test_a_short_pool_fills_from_bot_games_marked_so(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, puzzle_pool_target=3)) as server:
        anyone = server.client()
        first = wait_for_puzzles(server, 1)
        # The server's clock is the test's and stands still: moved on, the puzzles stored
        # after these come later, as on a running server (ties would fall to the ids).
        server.advance(1)
        daily = anyone.get("/api/puzzles/summy/daily")
        found = wait_for_puzzles(server, 3)
        assert all(p.from_bots and p.table_id is None and p.game == "summy" for p in found)
        # One bot game may store several puzzles at the same instant: the day's is the first
        # of them in the store's order (time, then id), and stays the first once more come.
        earliest = min(first, key=lambda p: (p.created_at, p.id))
        assert earliest.id == min(found, key=lambda p: (p.created_at, p.id)).id
        assert daily["from_bots"] is True and daily["id"] == earliest.id
        # The day's puzzle stays the day's while the pool fills.
        assert anyone.get("/api/puzzles/summy/daily") == daily
        # Each puzzle is one the cutter accepts: its answer scores what it says.
        cutter = cutter_of("summy")
        assert cutter is not None
        for puzzle in found:
            assert cutter.is_answer(puzzle.data["answer"], puzzle.data)
        supply = server.services.puzzle_supply
        assert supply.games >= 1 and supply.puzzles == len(stored(server))
        # Once the pool holds the target the supply stops playing (one game may overshoot).
        games = supply.games
        time.sleep(3)
        assert supply.games <= games + 1
        assert len(stored(server)) < 3 + 20


def test_with_the_supply_off_no_bot_games_are_played(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, puzzle_pool_target=0)) as server:
        time.sleep(3)
        assert server.services.puzzle_supply.games == 0
        assert stored(server) == []
        assert server.client().get("/api/puzzles/summy/daily", expect=404)["code"] == "no_puzzle"


def test_public_games_still_add_their_puzzles_beside_the_bots(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, puzzle_pool_target=2)) as server:
        wait_for_puzzles(server, 2)
        host = server.client("host")
        host.guest()
        reviewer = server.services.reviewer
        # A game cuts a puzzle about one time in four: a public table's review stores its own,
        # marked as not from the server's bot games, whatever the supply did.
        for _ in range(30):
            table_id = finish_public_game(host)
            deadline = time.monotonic() + 60
            while server.services.db.call(queries.review_of, table_id) is None:
                assert time.monotonic() < deadline, "the review never came"
                time.sleep(0.1)
            time.sleep(0.3)  # the puzzles are stored just after the review
            if reviewer.puzzles:
                break
        assert reviewer.puzzles > 0
        people = [p for p in stored(server) if p.table_id is not None]
        assert len(people) == reviewer.puzzles and not any(p.from_bots for p in people)


def test_a_bot_game_is_played_in_pieces_to_its_end() -> None:
    """Each piece plays on from the record so far; together they make a whole game."""
    record = start_record("summy", 7)
    assert len(puzzle_lineup("summy")) == int(record.options["players"])
    pieces, actions, over = 0, [], False
    while not over:
        text = record.to_json() | {"actions": actions}
        played, over = play_piece(json.dumps(text), 0.05, 0.0)
        assert len(played) == 1 or over  # at least one action a piece, however short
        actions += played
        pieces += 1
    assert pieces == len(actions) >= 10


def test_stopping_the_supply_is_quick_and_final(tmp_path: Path) -> None:
    """Stop cancels the game under way between pieces; nothing is played or stored after."""

    async def scenario() -> tuple[int, int, int, float]:
        db = Database(f"sqlite:///{tmp_path / 'store.db'}")
        db.migrate()
        pool = BotPool(1, "thread")
        supply = PuzzleSupply(db, pool, SystemClock(), 1000, 0.05)
        supply.start()
        while supply.games < 2:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # into the next game
        started = time.monotonic()
        await supply.stop()
        took = time.monotonic() - started
        games = supply.games
        await asyncio.sleep(1.0)
        count = await db.run(queries.puzzle_count, "summy")
        pool.close()
        db.close()
        return games, supply.games, count - supply.puzzles, took

    games, later, unaccounted, took = run_async(scenario())
    assert later == games and unaccounted == 0 and took < 1.0


def test_a_restarted_server_resumes_filling(tmp_path: Path) -> None:
    target = 1
    settings = make_settings(tmp_path, puzzle_pool_target=target)
    with running(settings) as server:
        wait_for_puzzles(server, target)
    # Emptied by hand: the next start counts again and plays on.
    db = Database(settings.db or "")
    db.call(lambda session: session.query(StoredPuzzle).delete())
    db.close()
    with running(settings) as server:
        assert wait_for_puzzles(server, target)


def test_the_daily_puzzle_is_fixed_by_the_puzzles_stored_before_the_day(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'store.db'}")
    db.migrate()
    rated = (25.0, 8.0)
    old = [{"id": f"old{n}", "answer": {}, "points": 20} for n in range(3)]
    db.call(queries.save_puzzles, "summy", old, None, 100.0, rated)
    day = 10
    chosen = db.call(queries.daily_puzzle, "summy", day).id
    assert chosen == f"old{day % 3}"
    # Puzzles stored during the day (the supply filling the pool) leave it alone.
    new = [{"id": f"new{n}", "answer": {}, "points": 20} for n in range(5)]
    db.call(queries.save_puzzles, "summy", new, None, day * 86_400 + 60.0, rated, True)
    assert db.call(queries.daily_puzzle, "summy", day).id == chosen
    # The next day picks among all eight (old0-old2, then new0-new4): 11 % 8 = 3.
    assert db.call(queries.daily_puzzle, "summy", day + 1).id == "new0"
    # A game whose first puzzles came today: the first one stored, all day.
    db.call(queries.save_puzzles, "other", [{"id": "b", "answer": {}, "points": 20}],
            None, day * 86_400 + 9.0, rated)  # fmt: skip
    db.call(queries.save_puzzles, "other", [{"id": "a", "answer": {}, "points": 20}],
            None, day * 86_400 + 99.0, rated)  # fmt: skip
    assert db.call(queries.daily_puzzle, "other", day).id == "b"
    assert db.call(queries.daily_puzzle, "nothing", day) is None
    db.close()


def test_servers_sharing_a_store_take_turns_at_a_pool(tmp_path: Path) -> None:
    """Two servers' supplies with one claim (as Redis ``SET NX EX`` gives them): one plays."""

    async def scenario() -> tuple[int, int, int, list[str]]:
        db = Database(f"sqlite:///{tmp_path / 'store.db'}")
        db.migrate()
        held: dict[str, float] = {}
        asked: list[str] = []

        def claim_for(server: str) -> Callable[[str, float], Awaitable[bool]]:
            async def claim(job: str, ttl_s: float) -> bool:
                asked.append(f"{server}:{job}")
                now = asyncio.get_running_loop().time()
                if held.get(job, 0.0) > now:
                    return False
                held[job] = now + ttl_s
                return True

            return claim

        pools = [BotPool(1, "thread"), BotPool(1, "thread")]
        supplies = [
            PuzzleSupply(db, pool, SystemClock(), 1000, 0.05, claim_for(name))
            for pool, name in zip(pools, "ab", strict=True)
        ]
        for supply in supplies:
            supply.start()
        await asyncio.sleep(3)
        for supply in supplies:
            await supply.stop()
        for pool in pools:
            pool.close()
        count = await db.run(queries.puzzle_count, "summy")
        db.close()
        return supplies[0].games, supplies[1].games, count - sum(s.puzzles for s in supplies), asked

    first, second, unaccounted, asked = run_async(scenario())
    # Whoever asked first holds the 30 s turn; the other was refused and rests.
    assert sorted([first, second])[0] == 0 and max(first, second) >= 2
    assert sorted(asked) == ["a:puzzle-supply:summy", "b:puzzle-supply:summy"]
    assert unaccounted == 0
