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

from meeple.analysis.slide_review import review_decision
from meeple.analysis.summy_review import review_action, summarize_turns
from meeple.games import get_game
from meeple.games.base import JSON, GameRecord, replay

CHUNKS = {"summy": 4, "slide": 1}
"""Actions reviewed per piece of work, per game: Summy's take a few milliseconds each with
the compiled move generator; a Slide decision's play-outs take a few hundred."""

REVIEWED_GAMES = tuple(CHUNKS)
"""The games the server reviews."""

SLIDE_PLAYOUTS = 32
"""Play-outs per option in the server's Slide reviews (a standard error of 1-3 points)."""


@lru_cache(maxsize=4)
def _replayed(record_text: str) -> tuple[GameRecord, list[Any]]:
    record = GameRecord.from_json(json.loads(record_text))
    return record, replay(get_game(record.game), record)


def review_chunk(record_text: str, start: int, stop: int) -> list[dict[str, JSON]]:
    """The review lines of actions ``start`` to ``stop - 1`` of a record (JSON text)."""
    record, states = _replayed(record_text)
    lines = []
    for index in range(start, min(stop, len(record.actions))):
        seat, data = record.actions[index]
        if record.game == "slide":
            lines.append(review_decision(index, states[index], seat, data, SLIDE_PLAYOUTS, 0))
        else:
            lines.append(review_action(index, states[index], seat, data))  # type: ignore[arg-type]
    return [line.to_json() for line in lines]


def summary_of(game: str, lines: Sequence[dict[str, Any]], players: int) -> list[dict[str, JSON]]:
    """Each seat's summary, from review lines in their JSON form."""
    if game == "slide":
        return [
            slide_summary(seat, [x for x in lines if x["seat"] == seat]) for seat in range(players)
        ]
    turns = ((line["seat"], line["index"], line["missed"]) for line in lines)
    return [summary.to_json() for summary in summarize_turns(turns, players)]


def slide_summary(seat: int, lines: Sequence[dict[str, Any]]) -> dict[str, JSON]:
    """A Slide seat's summary: decisions, how many took the best option, points given away."""
    best = sum(line["given_away"] == 0 for line in lines)
    given = sum(line["given_away"] for line in lines)
    return {
        "seat": seat,
        "turns": len(lines),
        "best_played": best,
        "best_share": round(best / len(lines), 4) if lines else 0.0,
        "given_away": round(given, 2),
        "given_away_per_turn": round(given / len(lines), 2) if lines else 0.0,
    }


def puzzles_in_record(record_text: str) -> list[dict[str, JSON]]:
    """The puzzles of a record (JSON text), as stored: position, answer, points, second."""
    from meeple.analysis.puzzles import puzzles_from_record, unique_puzzles

    record, _states = _replayed(record_text)
    return [puzzle.to_json() for puzzle in unique_puzzles(puzzles_from_record(record))]
