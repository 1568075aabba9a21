"""Every finished Summy game is reviewed in the background, stored once, served with the record."""

from __future__ import annotations

import time
from typing import Any

import pytest
from server_harness import Client, LiveServer, run_async

import meeple.analysis.review as review_module
from meeple.analysis.summy_review import review_game
from meeple.games.base import GameRecord
from meeple.store.models import GameReview
from meeple.tables.bots import BotPool


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
    assert server.services.tables.reviewer.done == 1
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
    monkeypatch.setattr(review_module, "SLIDE_PLAYOUTS", 4)  # the figures matter less here
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


def test_background_work_waits_for_every_bot() -> None:
    """A bot asking while reviews are queued gets the next worker before them."""
    order: list[str] = []

    def piece(name: str) -> str:
        time.sleep(0.05)
        order.append(name)
        return name

    async def scenario() -> None:
        import asyncio

        pool = BotPool(1, "thread")
        first = asyncio.ensure_future(pool.background(piece, "review-1"))
        await asyncio.sleep(0.01)  # review-1 holds the only worker
        queued = [asyncio.ensure_future(pool.background(piece, f"review-{i}")) for i in (2, 3)]
        await asyncio.sleep(0.01)

        async def bot() -> None:
            await pool._slot("table", True)
            order.append("bot")
            pool._release()

        await asyncio.gather(first, bot(), *queued)
        pool.close()

    run_async(scenario())
    assert order == ["review-1", "bot", "review-2", "review-3"]
