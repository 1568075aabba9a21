"""Review a Slide game: for every decision, what each option was worth, by play-outs.

A decision is a card to reveal, or a card to take and where to slide it in.
Each option is valued from the decider's view only: its expected final
points (lower is better), estimated by ``playouts`` play-outs in which the
cards the decider has not seen are drawn afresh (:func:`meeple.games.slide.bots.sim.determinize`),
the option is applied, and the deal is played out (random reveals, greedy
takes). Every option is played on the same sampled deals, so the options are
compared pair by pair; the standard error of each mean is given. The option
chosen, the best option and the expected points given away follow.
The review depends only on the record and ``seed``.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.games.base import JSON, GameRecord, RecordError, Seat, replay
from meeple.games.kit.bots import view_rng
from meeple.games.slide import GAME
from meeple.games.slide.bots.seen import (
    SlideSeen,
    legal_reveals,
    legal_takes,
    read_view,
    reveal_json,
    take_json,
)
from meeple.games.slide.bots.sim import World, determinize, pick, play_out, take
from meeple.games.slide.grid import Side

PLAYOUTS = 64
"""Play-outs per option by default (a standard error of about 1-2 points)."""

SERVER_PLAYOUTS = 32
"""Play-outs per option in the server's reviews (a standard error of 1-3 points)."""


@dataclass(frozen=True)
class Option:
    """One option of a decision and the decider's expected final points after it."""

    action: dict[str, JSON]
    points: float
    error: float

    def to_json(self) -> dict[str, JSON]:
        """The option as JSON: the action, mean points and standard error (2 decimals)."""
        return {"action": self.action, "points": round(self.points, 2), "se": round(self.error, 2)}


@dataclass(frozen=True)
class SlideDecision:
    """One action of the record with every option it had, best (fewest points) first."""

    index: int
    seat: Seat
    kind: str
    chosen: dict[str, JSON]
    options: tuple[Option, ...]

    @property
    def chosen_option(self) -> Option:
        """The option that was played."""
        return next(option for option in self.options if option.action == self.chosen)

    @property
    def given_away(self) -> float:
        """Expected points given away: the chosen option's mean minus the best one's."""
        return self.chosen_option.points - self.options[0].points

    def to_json(self) -> dict[str, JSON]:
        """The review line (``meeple slide analyse --json``, one per action)."""
        return {
            "index": self.index,
            "seat": self.seat,
            "kind": self.kind,
            "chosen": self.chosen,
            "chosen_points": round(self.chosen_option.points, 2),
            "best": self.options[0].action,
            "best_points": round(self.options[0].points, 2),
            "given_away": round(self.given_away, 2),
            "options": [option.to_json() for option in self.options],
        }


def review_slide_game(
    record: GameRecord, playouts: int = PLAYOUTS, seed: int = 0
) -> list[SlideDecision]:
    """Every action of a Slide record, reviewed; ``RecordError`` if it does not replay."""
    if record.game != GAME.name:
        raise RecordError(None, f"this is a {record.game!r} record, not {GAME.name!r}")
    states = replay(GAME, record)
    return [
        review_decision(index, states[index], seat, data, playouts, seed)
        for index, (seat, data) in enumerate(record.actions)
    ]


def review_decision(
    index: int, state: Any, seat: Seat, data: JSON, playouts: int, seed: int
) -> SlideDecision:
    """One action judged from ``seat``'s view of ``state`` (the state before it)."""
    view = GAME.view(state, seat)
    seen = read_view(view, seat)
    chosen = dict(GAME.action_json(GAME.parse_action(data)))
    rng = view_rng(seed, view, seat)
    deals = [rng.getrandbits(48) for _ in range(playouts)]
    kind = "reveal" if chosen["type"] == "reveal" else "take"
    if kind == "reveal":
        options = [reveal_option(seen, cell, deals) for cell in legal_reveals(seen)]
    else:
        options = [take_option(seen, value, side, deals) for value, side in legal_takes(seen)]
    options.sort(key=lambda option: option.points)
    return SlideDecision(index, seat, kind, chosen, tuple(options))


def reveal_option(seen: SlideSeen, cell: int, deals: list[int]) -> Option:
    """Revealing the card at grid index ``cell``, valued."""
    return value_of(seen, reveal_json(cell), lambda world: pick(world, seen.seat, cell), deals)


def take_option(seen: SlideSeen, value: int, side: Side, deals: list[int]) -> Option:
    """Taking ``value`` and sliding it in from ``side``, valued."""
    return value_of(seen, take_json(value, side), lambda world: take(world, value, side), deals)


def value_of(
    seen: SlideSeen, action: dict[str, JSON], apply: Callable[[World], None], deals: list[int]
) -> Option:
    """The decider's mean final points after ``action`` over the sampled deals, and its error."""
    points = []
    for deal in deals:
        deal_rng = random.Random(deal)
        world = determinize(seen, deal_rng)
        apply(world)
        points.append(play_out(world, deal_rng.getrandbits(64))[seen.seat])
    error = statistics.stdev(points) / math.sqrt(len(points)) if len(points) > 1 else 0.0
    return Option(action, statistics.fmean(points), error)


def seat_summary(seat: Seat, lines: Sequence[Mapping[str, Any]]) -> dict[str, JSON]:
    """A seat's summary: decisions, how many took the best option, points given away."""
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


class SlideReviewer:
    """The server's Slide reviewer (``FEATURES.reviewer``): one decision per piece of work,
    since a decision's play-outs take a few hundred milliseconds."""

    chunk = 1
    playouts = SERVER_PLAYOUTS

    def review_action(self, index: int, state: Any, seat: Seat, data: JSON) -> dict[str, JSON]:
        """The decision's line (:meth:`SlideDecision.to_json`), valued with seed 0."""
        return review_decision(index, state, seat, data, self.playouts, 0).to_json()

    def summary(self, lines: Sequence[Mapping[str, Any]], players: int) -> list[dict[str, JSON]]:
        """Each seat's :func:`seat_summary`."""
        return [
            seat_summary(seat, [line for line in lines if line["seat"] == seat])
            for seat in range(players)
        ]


REVIEWER = SlideReviewer()
"""The reviewer Slide's ``FEATURES`` names."""
