"""What the opponent's last placement tells about the tiles it kept.

A player who placed tiles ``P`` for ``s`` points held ``P`` and the tiles it
kept ``K``; had ``K`` offered a placement worth much more than ``s``, it would
likely have played that instead. So a guess at ``K`` (drawn from the tiles
the bot has not seen) is weighted by ``exp(-gap / TEMPERATURE)``, ``gap``
being how many points the best placement with ``P + K`` on the table before
that move beats ``s`` by. On strong-against-strong games never used to fit
(``bench/summy_eval_study.py --seed 90000``, docs/bots.md) the opponent's
next turn is predicted better by replies against hands drawn this way than
against uniformly drawn ones (held-out R squared 0.038 against 0.021),
while inferring from a discard predicted it worse, so discards are not used.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from meeple.games.base import JSON
from meeple.games.kit.clock import Deadline
from meeple.games.summy.bots.seen import SummySeen, remove_tiles
from meeple.games.summy.formats import equation_from_json, placed_tiles_from_json
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.tiles import Position

PROPOSALS = 24
"""Guesses at the kept tiles weighed per move at most (one best-move search each)."""

TEMPERATURE = 1.0
"""Points of gap that divide a guess's weight by e (the sharpest of 1, 3 and 8
predicted the opponent's next turn best in the held-out study)."""


@dataclass(frozen=True)
class LastPlacement:
    """The opponent's last placement: the table before it, the tiles placed, the
    points made and how many tiles it kept."""

    before: Position
    placed: tuple[str, ...]
    score: int
    kept: int


def last_placement(view: Mapping[str, JSON], seen: SummySeen) -> LastPlacement | None:
    """The opponent's placement just before this turn, read from the view's ``last_move``;
    ``None`` when the last turn was not the opponent's placement."""
    other = seen.opponent()
    last = view.get("last_move")
    if other is None or not isinstance(last, dict) or last.get("type") != "place":
        return None
    if last.get("seat") != other:
        return None
    placed_cells = placed_tiles_from_json(last["tiles"], "last_move.tiles")
    run = equation_from_json(last["run"], "last_move.run")
    equations = list(seen.position.equations)
    if run not in equations:
        return None
    equations.remove(run)  # a run is made once: its cells hold a tile each, placed once
    tiles = dict(seen.position.tiles)
    for cell, _tile in placed_cells:
        tiles.pop(cell, None)
    kept = seen.hand_sizes[other] - int(last.get("drew", 0))
    if kept < 0:
        return None
    return LastPlacement(
        before=Position(tiles, tuple(equations), ()),
        placed=tuple(tile for _, tile in placed_cells),
        score=int(last["score"]),
        kept=kept,
    )


def kept_guesses(
    seen: SummySeen,
    last: LastPlacement,
    rng: random.Random,
    proposals: int = PROPOSALS,
    deadline: Deadline | None = None,
) -> list[tuple[tuple[str, ...], float]]:
    """``proposals`` guesses at the tiles the opponent kept, each with its weight (fewer
    if ``deadline``, a safety stop, expires first)."""
    guesses: list[tuple[tuple[str, ...], float]] = []
    for _ in range(proposals):
        if deadline is not None and guesses and deadline.expired():
            break
        unseen = seen.unseen()
        rng.shuffle(unseen)
        kept = tuple(sorted(unseen[: last.kept]))
        guesses.append((kept, kept_weight(last, kept)))
    return guesses


def kept_weight(last: LastPlacement, kept: tuple[str, ...]) -> float:
    """How well keeping ``kept`` explains the placement: 1 when no placement with the
    placed tiles and ``kept`` scored more, ``exp(-gap / TEMPERATURE)`` when one did."""
    hand = tuple(sorted((*last.placed, *kept)))
    found = best_moves(Position(last.before.tiles, last.before.equations, hand), 1)
    gap = max(0, (found[0].score if found else 0) - last.score)
    return math.exp(-gap / TEMPERATURE)


def draw_with_kept(
    seen: SummySeen, guesses: list[tuple[tuple[str, ...], float]], rng: random.Random
) -> tuple[tuple[str, ...], list[str]]:
    """One guess at the hidden tiles: the opponent's hand (kept tiles drawn by weight,
    the rest at random), then the stock's order."""
    other = seen.opponent()
    assert other is not None
    kept = rng.choices([k for k, _ in guesses], weights=[w for _, w in guesses])[0]
    rest = list(remove_tiles(seen.unseen(), kept))
    rng.shuffle(rest)
    drawn = min(seen.hand_sizes[other] - len(kept), len(rest))
    return tuple(sorted((*kept, *rest[:drawn]))), rest[drawn:]
