"""Reviews of finished games, in pieces a worker can compute between two bot moves.

The server reviews every finished game whose game has a reviewer (its
``FEATURES``, :mod:`meeple.analysis.features`) in the background, a few actions
at a time (:func:`review_chunk`, in the bot pool at the lowest priority), so a
live table's bot never waits behind a whole game's review. A worker keeps the
replayed states of the last few records, so the pieces of one game replay it
once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from meeple.analysis.features import Reviewer, cutter_of, reviewer_of
from meeple.games import get_game
from meeple.games.base import JSON, GameRecord, replay


def reviewer_for(game: str) -> Reviewer:
    """The game's reviewer; ``KeyError`` if it has none."""
    reviewer = reviewer_of(game)
    if reviewer is None:
        raise KeyError(f"{game!r} games are not reviewed")
    return reviewer


@lru_cache(maxsize=4)
def _replayed(record_text: str) -> tuple[GameRecord, list[Any]]:
    record = GameRecord.from_json(json.loads(record_text))
    return record, replay(get_game(record.game), record)


def review_chunk(record_text: str, start: int, stop: int) -> list[dict[str, JSON]]:
    """The review lines of actions ``start`` to ``stop - 1`` of a record (JSON text)."""
    record, states = _replayed(record_text)
    reviewer = reviewer_for(record.game)
    return [
        reviewer.review_action(index, states[index], *record.actions[index])
        for index in range(start, min(stop, len(record.actions)))
    ]


def summary_of(game: str, lines: Sequence[dict[str, Any]], players: int) -> list[dict[str, JSON]]:
    """Each seat's summary, from review lines in their JSON form."""
    return reviewer_for(game).summary(lines, players)


def puzzles_in_record(record_text: str) -> list[dict[str, JSON]]:
    """The puzzles of a record (JSON text), as stored; none if its game cuts none."""
    record, states = _replayed(record_text)
    cutter = cutter_of(record.game)
    return [] if cutter is None else cutter.cut(record, states)
