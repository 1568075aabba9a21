"""Every finished Summy game is reviewed in the background, stored once, served with the record."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from server_harness import Client, LiveServer, run_async

import meeple.games.slide.review as slide_review
from meeple.games.base import GameRecord
from meeple.games.summy.analysis.review import review_game
from meeple.store.models import GameReview
from meeple.tables.core.bots import BACKGROUND_NICE, BotPool


def finish_bot_game(client: Client, game: str) -> str:
    """A table of two bots of ``game``, played to its end; its id."""
    table_id = client.create_table(
        game=game, seats=2, bots={"0": "greedy", "1": "random"}, sit=False
    )["table"]["id"]
    client.post(f"/api/tables/{table_id}/start")
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{table_id}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots never finished"
        time.sleep(0.1)
    return table_id


def wait_for_review(client: Client, table_id: str) -> dict[str, Any]:
    """The review, once the background reviewer has stored it."""
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(f"/api/tables/{table_id}/review", expect=None)
        if "lines" in answer:
            return answer
        assert answer["code"] == "not_reviewed", answer
        assert time.monotonic() < deadline, "the review never came"
        time.sleep(0.2)


def test_a_finished_summy_game_is_reviewed_once_and_served(server: LiveServer) -> None:
    host = server.client("host")
    host.guest()
    table_id = finish_bot_game(host, "summy")
    review = wait_for_review(host, table_id)
    record = GameRecord.from_json(host.get(f"/api/tables/{table_id}/record"))
    expected = [line.to_json() for line in review_game(record)]
    assert review["game"] == "summy" and review["table_id"] == table_id
    assert review["lines"] == expected
    assert [s["seat"] for s in review["summary"]] == [0, 1]
    assert sum(s["turns"] for s in review["summary"]) == len(record.actions)
    assert sum(s["missed"] for s in review["summary"]) == sum(x["missed"] for x in expected)
    # Stored once: asking again gives the same, and the game was reviewed once.
    assert host.get(f"/api/tables/{table_id}/review") == review
    assert server.services.reviewer.done == 1
    rows = server.services.db.call(lambda session: session.query(GameReview).count())
    assert rows == 1
    # Anyone who may see the record may see the review.
    stranger = server.client("stranger")
    assert stranger.get(f"/api/tables/{table_id}/review")["lines"] == expected


def test_no_review_before_the_end(server: LiveServer) -> None:
    host = server.client("host")
    host.guest()
    playing = host.create_table(game="summy", seats=2, bots={"1": "greedy"})["table"]["id"]
    refused = host.get(f"/api/tables/{playing}/review", expect=409)
    assert refused["code"] == "not_over"  # the review, like the record, reveals hands


def test_a_finished_slide_game_is_reviewed_by_playouts(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(slide_review.REVIEWER, "playouts", 4)  # the figures matter less here
    host = server.client("host")
    host.guest()
    table_id = finish_bot_game(host, "slide")
    review = wait_for_review(host, table_id)
    record = GameRecord.from_json(host.get(f"/api/tables/{table_id}/record"))
    assert review["game"] == "slide"
    assert [line["index"] for line in review["lines"]] == list(range(len(record.actions)))
    for line, (seat, action) in zip(review["lines"], record.actions, strict=True):
        assert line["seat"] == seat and line["chosen"]["type"] == action["type"]
        assert line["best"] == line["options"][0]["action"] and line["given_away"] >= 0
    summary = review["summary"]
    assert [s["seat"] for s in summary] == [0, 1]
    assert sum(s["turns"] for s in summary) == len(record.actions)


def test_background_work_never_holds_a_bot_worker() -> None:
    """Reviews run one piece at a time beside the bots: a bot asking meanwhile starts at once."""
    order: list[str] = []

    def piece(name: str) -> str:
        order.append(f"{name} starts")
        time.sleep(0.05)
        order.append(f"{name} ends")
        return name

    async def scenario() -> None:
        import asyncio

        pool = BotPool(1, "thread")
        reviews = [asyncio.ensure_future(pool.background(piece, f"review-{i}")) for i in (1, 2)]
        await asyncio.sleep(0.01)  # review-1 is running, review-2 waits for it
        await pool._slot("table", True)  # the only bot worker is free all the same
        order.append("bot")
        pool._release()
        await asyncio.gather(*reviews)
        pool.close()

    run_async(scenario())
    assert order == ["review-1 starts", "bot", "review-1 ends", "review-2 starts", "review-2 ends"]


def test_the_background_worker_runs_at_a_lower_os_priority() -> None:
    pool = BotPool(1, "process")
    try:
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        theirs = run_async(pool.background(os.getpriority, os.PRIO_PROCESS, 0))
        assert theirs == min(19, mine + BACKGROUND_NICE)
    finally:
        pool.close()


def test_a_game_another_server_claimed_is_not_reviewed_here(server: LiveServer) -> None:
    """Servers sharing a store split the backlog of reviews: one review of a game, not one each."""
    host = server.client("host")
    host.guest()
    asked: list[str] = []

    async def taken(job: str, _ttl_s: float) -> bool:
        asked.append(job)
        return False

    server.services.reviewer.claim = taken
    table_id = finish_bot_game(host, "summy")
    deadline = time.monotonic() + 30
    while not asked:
        assert time.monotonic() < deadline, "the reviewer never asked"
        time.sleep(0.05)
    time.sleep(0.3)
    assert asked == [f"review:{table_id}"]
    assert server.services.bots.stats.background == 0
    assert host.get(f"/api/tables/{table_id}/review", expect=None)["code"] == "not_reviewed"
