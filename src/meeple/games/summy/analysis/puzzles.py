"""Summy puzzles cut from real games: positions where one move scores clearly more than any other.

A position of a recorded game (the mover's table and hand) is a puzzle when
its best placement scores at least ``MIN_POINTS``, at least ``RATIO`` times
the best *other* score (the second-highest distinct score, 0 if none), and
no other placement reaches that score: the move generator lists them all,
so the answer is checked unique. The player's task: find that move.

>>> from meeple.games.summy.tiles import Position
>>> puzzle_from_position(Position({(0, 0): "="}, (), ("1", "1", "+", "2"))) is None  # 4 points
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.games.base import JSON, GameRecord, RecordError, replay
from meeple.games.summy import GAME
from meeple.games.summy.formats import (
    equation_to_json,
    move_to_json,
    placement_from_json,
    position_from_json,
    position_to_json,
)
from meeple.games.summy.movegen import legal_moves
from meeple.games.summy.rules import equation_text
from meeple.games.summy.state import SummyState
from meeple.games.summy.tiles import Move, Placement, Position

MIN_POINTS = 20
"""The fewest points a puzzle's answer scores."""

RATIO = 1.5
"""How many times the best other score the answer must score at least."""


@dataclass(frozen=True)
class Puzzle:
    """A position, its unique best move, and the best score of any other move."""

    position: Position
    answer: Move
    second: int

    @property
    def id(self) -> str:
        """A short name fixed by the position (the same position is the same puzzle)."""
        text = json.dumps(position_to_json(self.position), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def solved_by(self, placement: Placement) -> bool:
        """Whether ``placement`` is the answer (the same tiles on the same cells, same way)."""
        return placement == self.answer.placement

    def to_json(self) -> dict[str, JSON]:
        """The puzzle with its answer (``meeple summy puzzles --json``; never sent to a solver)."""
        return {
            "id": self.id,
            "position": position_to_json(self.position),
            "answer": move_to_json(self.answer),
            "points": self.answer.score,
            "second": self.second,
        }


def puzzle_from_position(position: Position) -> Puzzle | None:
    """The puzzle this position makes, or ``None`` if no move stands out."""
    moves = list(legal_moves(position))
    if not moves:
        return None
    best = max(moves, key=lambda move: move.score)
    if sum(move.score == best.score for move in moves) > 1:
        return None  # not unique
    second = max((move.score for move in moves if move.score < best.score), default=0)
    if best.score < MIN_POINTS or best.score < RATIO * second:
        return None
    return Puzzle(position, best, second)


def puzzles_from_record(record: GameRecord) -> list[Puzzle]:
    """Every puzzle in a Summy record: the positions its movers faced, in order."""
    if record.game != GAME.name:
        raise RecordError(None, f"this is a {record.game!r} record, not {GAME.name!r}")
    return puzzles_from_states(record, replay(GAME, record))


def puzzles_from_states(record: GameRecord, states: Sequence[SummyState]) -> list[Puzzle]:
    """Every puzzle among the positions of a record, given its states (the one before each
    action)."""
    found = []
    for state, (seat, _data) in zip(states, record.actions, strict=False):
        position = Position(dict(state.table), state.equations, state.hands[seat])
        puzzle = puzzle_from_position(position)
        if puzzle is not None:
            found.append(puzzle)
    return found


def unique_puzzles(puzzles: Iterable[Puzzle]) -> list[Puzzle]:
    """The puzzles without repeats (the same position twice), in order."""
    seen: set[str] = set()
    kept = []
    for puzzle in puzzles:
        if puzzle.id not in seen:
            seen.add(puzzle.id)
            kept.append(puzzle)
    return kept


def puzzle_view(position: Position) -> dict[str, JSON]:
    """A Summy view of the position for its solver (seat 0 to move), as the table page reads it."""
    sealed = sorted({cell for eq in position.equations for cell in eq.sealed_cells()})
    data = position_to_json(position)
    return {
        **data,
        "seat": 0,
        "players": 1,
        "equations": [
            {**equation_to_json(eq), "text": equation_text(position.tiles, eq)}
            for eq in position.equations
        ],
        "sealed": [{"row": row, "col": col} for row, col in sealed],
        "scores": [0],
        "turn": 0,
        "first_player": 0,
        "turns_taken": 0,
        "stock": 1,
        "hand_sizes": [len(position.hand)],
        "discarded": [0],
        "my_discards": [],
        "idle_turns": 0,
        "last_move": None,
        "game_over": False,
        "result": None,
    }


class SummyPuzzles:
    """Summy's puzzle cutter (``FEATURES.puzzles``): find the unique best placement."""

    bot_levels = ("strong", "strong")
    """Who plays the games that fill a short pool: two strong bots cut as many puzzles a game
    as a strong and an expert one, in a third of the time (docs/analysis.md)."""

    def cut(self, record: GameRecord, states: Sequence[Any]) -> list[dict[str, JSON]]:
        """The record's puzzles as stored (:meth:`Puzzle.to_json`), without repeats."""
        return [puzzle.to_json() for puzzle in unique_puzzles(puzzles_from_states(record, states))]

    def view(self, data: Mapping[str, Any]) -> dict[str, JSON]:
        """The stored position as a table view (:func:`puzzle_view`)."""
        return puzzle_view(position_from_json(data["position"]))

    def is_answer(self, move: JSON, data: Mapping[str, Any]) -> bool:
        """Whether the placement ``move`` (``{dir, tiles}``) is the stored answer's."""
        return placement_from_json(move) == placement_from_json(data["answer"])


CUTTER = SummyPuzzles()
"""The puzzle cutter Summy's ``FEATURES`` names."""
