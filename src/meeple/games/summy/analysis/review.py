"""Review a Summy game: for every action, the best placement the mover had, and what was missed.

Each action is judged from its mover's seat: the table and the mover's own
hand at that moment, nothing the mover could not see. ``best`` is the
highest-scoring legal placement (the move generator lists them all, so the
figure is exact), ``missed`` the points between it and what was played (a
discard or a pass scores 0). Beside it, the ``strong`` bot's choice (the
score now plus what the tiles kept are worth next turn) shows where the
highest score was not the wisest move.

>>> from meeple.games.base import GameRecord
>>> review = review_game(GameRecord("summy", {"players": 1}, 3, ((0, {"type": "pass"}),)))
Traceback (most recent call last):
...
meeple.games.base.RecordError: action 0: you may pass only when the stock is empty; ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.games.base import JSON, GameRecord, RecordError, Seat, replay
from meeple.games.kit.bots import view_rng
from meeple.games.kit.clock import Deadline
from meeple.games.summy import GAME
from meeple.games.summy.bots.seen import read_view
from meeple.games.summy.bots.strong import rank_candidates
from meeple.games.summy.formats import move_to_json, position_to_json
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.rules import check_move
from meeple.games.summy.state import SummyState
from meeple.games.summy.tiles import Discard, Move, Placement, Position

STRONG_SEED = 0
"""The seed of the ``strong`` bot the review consults (its choice depends on it only
through ties in its hand model's samples)."""


@dataclass(frozen=True)
class ReviewedAction:
    """One action of the record, judged from its mover's seat."""

    index: int
    seat: Seat
    position: Position
    played_type: str
    played_score: int
    played_move: Move | None
    best: Move | None
    strong_action: JSON
    strong_score: int
    strong_move: Move | None = None
    """The strong bot's placement (``None``: it would discard or pass), for its equation."""

    @property
    def best_score(self) -> int:
        """The highest score among all legal placements (0 when there is none)."""
        return self.best.score if self.best is not None else 0

    @property
    def missed(self) -> int:
        """The points left on the table: the best score minus what was played."""
        return self.best_score - self.played_score

    @property
    def strong_differs(self) -> bool:
        """Whether the ``strong`` bot would not have played a highest-scoring move."""
        return self.strong_score != self.best_score

    def to_json(self) -> dict[str, JSON]:
        """The review line (``meeple summy analyse --json``, one per action)."""
        return {
            "index": self.index,
            "seat": self.seat,
            "position": position_to_json(self.position),
            "played": {"type": self.played_type, "score": self.played_score},
            "best": move_to_json(self.best) if self.best is not None else None,
            "best_score": self.best_score,
            "missed": self.missed,
            "strong": {
                "action": self.strong_action,
                "score": self.strong_score,
                "equation": self.strong_move.equation_text if self.strong_move else None,
            },
            "strong_differs": self.strong_differs,
        }


@dataclass(frozen=True)
class PlayerSummary:
    """How one seat played over the game."""

    seat: Seat
    turns: int
    missed: int
    best_played: int
    biggest_miss: tuple[int, int] | None
    """``(action index, points missed)`` of the worst turn, if any turn missed points."""

    @property
    def missed_per_turn(self) -> float:
        """Points missed per turn on average."""
        return self.missed / self.turns if self.turns else 0.0

    @property
    def best_share(self) -> float:
        """The share of turns where a highest-scoring move (or nothing, when none) was played."""
        return self.best_played / self.turns if self.turns else 0.0

    def to_json(self) -> dict[str, JSON]:
        """The summary as JSON (the server stores it with the review)."""
        worst = self.biggest_miss
        return {
            "seat": self.seat,
            "turns": self.turns,
            "missed": self.missed,
            "missed_per_turn": round(self.missed_per_turn, 2),
            "best_played": self.best_played,
            "best_share": round(self.best_share, 4),
            "biggest_miss": None if worst is None else {"index": worst[0], "missed": worst[1]},
        }


def review_game(record: GameRecord) -> list[ReviewedAction]:
    """Every action of a Summy record, reviewed; ``RecordError`` if the record does not replay."""
    if record.game != GAME.name:
        raise RecordError(None, f"this is a {record.game!r} record, not {GAME.name!r}")
    states: list[SummyState] = replay(GAME, record)
    return [
        review_action(index, state, seat, data)
        for index, (state, (seat, data)) in enumerate(zip(states, record.actions, strict=False))
    ]


def review_action(index: int, state: SummyState, seat: Seat, data: JSON) -> ReviewedAction:
    """One action (``data``, by ``seat``) judged in ``state``, the state before it."""
    position = Position(dict(state.table), state.equations, state.hands[seat])
    action = GAME.parse_action(data)
    played_move = check_move(position, action) if isinstance(action, Placement) else None
    if played_move is not None:
        played_type, played_score = "place", played_move.score
    else:
        played_type, played_score = ("discard" if isinstance(action, Discard) else "pass"), 0
    found = best_moves(position, 1)
    strong_action, strong_score, strong_move = strong_choice(state, seat)
    return ReviewedAction(
        index=index,
        seat=seat,
        position=position,
        played_type=played_type,
        played_score=played_score,
        played_move=played_move,
        best=found[0] if found else None,
        strong_action=strong_action,
        strong_score=strong_score,
        strong_move=strong_move,
    )


def strong_choice(state: SummyState, seat: Seat) -> tuple[JSON, int, Move | None]:
    """What the ``strong`` bot would play from ``seat``'s view, what it scores now, and its
    placement (``None`` for a discard or a pass)."""
    view = GAME.view(state, seat)
    seen = read_view(view, seat)
    ranked = rank_candidates(seen, view_rng(STRONG_SEED, view, seat), Deadline(3600.0))
    if not ranked:
        return {"type": "pass"}, 0, None
    _value, candidate = ranked[0]
    return candidate.action(seen.hand), candidate.score, candidate.move


def summarize(review: Sequence[ReviewedAction], players: int) -> list[PlayerSummary]:
    """Per seat: points missed, turns with a best move played, the biggest miss."""
    return summarize_turns(((line.seat, line.index, line.missed) for line in review), players)


def summarize_turns(turns: Iterable[tuple[Seat, int, int]], players: int) -> list[PlayerSummary]:
    """The summaries from ``(seat, action index, points missed)`` of every reviewed action."""
    by_seat: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    for seat, index, missed in turns:
        by_seat[seat].append((index, missed))
    summaries = []
    for seat, mine in enumerate(by_seat):
        worst = max(mine, key=lambda turn: (turn[1], -turn[0]), default=None)
        summaries.append(
            PlayerSummary(
                seat=seat,
                turns=len(mine),
                missed=sum(missed for _, missed in mine),
                best_played=sum(missed == 0 for _, missed in mine),
                biggest_miss=worst if worst is not None and worst[1] > 0 else None,
            )
        )
    return summaries


class SummyReviewer:
    """The server's Summy reviewer (``FEATURES.reviewer``): a few actions per piece of work,
    since each takes a few milliseconds with the compiled move generator."""

    chunk = 4

    def review_action(self, index: int, state: Any, seat: Seat, data: JSON) -> dict[str, JSON]:
        """The action's line (:meth:`ReviewedAction.to_json`)."""
        return review_action(index, state, seat, data).to_json()

    def summary(self, lines: Sequence[Mapping[str, Any]], players: int) -> list[dict[str, JSON]]:
        """Each seat's :class:`PlayerSummary`, from the lines' points missed."""
        turns = ((line["seat"], line["index"], line["missed"]) for line in lines)
        return [summary.to_json() for summary in summarize_turns(turns, players)]


REVIEWER = SummyReviewer()
"""The reviewer Summy's ``FEATURES`` names."""
