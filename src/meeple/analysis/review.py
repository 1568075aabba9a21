"""Reviews of finished games, in pieces a worker can compute between two bot moves.

The server reviews every finished game in the background, a few actions at a
time (:func:`review_chunk`, in the bot pool at the lowest priority), so a live
table's bot never waits behind a whole game's review. A worker keeps the
replayed states of the last few records, so the pieces of one game replay it
once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from meeple.analysis.summy_review import review_action, summarize_turns
from meeple.games.base import JSON, GameRecord, replay
from meeple.games.summy import GAME as SUMMY

CHUNK = 4
"""Actions reviewed per piece of work (a few milliseconds each with the compiled core)."""

REVIEWED_GAMES = ("summy",)
"""The games the server reviews."""


@lru_cache(maxsize=4)
def _replayed(record_text: str) -> tuple[GameRecord, list[Any]]:
    record = GameRecord.from_json(json.loads(record_text))
    return record, replay(SUMMY, record)


def review_chunk(record_text: str, start: int, stop: int) -> list[dict[str, JSON]]:
    """The review lines of actions ``start`` to ``stop - 1`` of a record (JSON text)."""
    record, states = _replayed(record_text)
    return [
        review_action(index, states[index], *record.actions[index]).to_json()
        for index in range(start, min(stop, len(record.actions)))
    ]


def summary_of(lines: Sequence[dict[str, Any]], players: int) -> list[dict[str, JSON]]:
    """Each seat's summary, from review lines in their JSON form."""
    turns = ((line["seat"], line["index"], line["missed"]) for line in lines)
    return [summary.to_json() for summary in summarize_turns(turns, players)]


def puzzles_in_record(record_text: str) -> list[dict[str, JSON]]:
    """The puzzles of a record (JSON text), as stored: position, answer, points, second."""
    from meeple.analysis.puzzles import puzzles_from_record, unique_puzzles

    record, _states = _replayed(record_text)
    return [puzzle.to_json() for puzzle in unique_puzzles(puzzles_from_record(record))]
