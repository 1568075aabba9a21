"""Summy's tutorial: five positions of a solo game, each asking for one kind of move.

The positions follow one another as one game would: the first is a solo
game's start with a scripted hand, and each next one is what the engine makes
of the step before after its example move (the stock is stacked so that the
tiles drawn give the next step's hand). The last skips to the end of the game:
the stock is empty (the rest of the bag went out in discards), so a pass is
allowed. Every tile of the bag is somewhere in each state: on the table, in
the hand, in the stock or among the discards.

1. ``place``: an equation of digits and signs through the start ``=``.
2. ``equals``: the ``=`` rule, with an ``=`` of one's own, across the first equation.
3. ``build``: build on the table for points (every digit counts, old ones too;
   an equation is never lengthened, its ends are sealed).
4. ``discard``: no equation can be made, so tiles go out and new ones come.
5. ``pass``: the stock is empty and no equation can be made: pass, and the game ends.

>>> [step.key for step in TUTORIAL.steps]
['place', 'equals', 'build', 'discard', 'pass']
>>> after, _ = TUTORIAL.attempt(0, TUTORIAL.steps[0].example)
>>> after.scores
(10,)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from meeple.games.base import JSON, IllegalAction
from meeple.games.kit.tutorial import Step, Tutorial
from meeple.games.summy.game import GAME
from meeple.games.summy.state import SummyState, Table
from meeple.games.summy.tiles import BAG, EQUALS, START_CELL, Discard, Pass, Placement

SEAT = 0
"""The learner's seat: a solo game has only this one."""

FIRST_HAND = "12345+-8"
DRAWS = "=x26" + "+9=5" + "xx:+:" + "0x-:"
"""What the stock deals first, in order: after each example move, the next step's hand."""

SHUFFLE_SEED = 44
"""Orders the rest of the stock (drawn only by a learner who discards more than the example)."""

LEAST = 20
"""The points the ``build`` step asks for (its example scores 21)."""


def _place(direction: str, *tiles: tuple[int, int, str]) -> JSON:
    """A placement's JSON from ``(row, col, tile)`` triples."""
    placed = [{"row": row, "col": col, "tile": tile} for row, col, tile in tiles]
    return {"type": "place", "dir": direction, "tiles": placed}


EXAMPLES: dict[str, JSON] = {
    # 2+3=5 through the start =.
    "place": _place("H", (0, -3, "2"), (0, -2, "+"), (0, -1, "3"), (0, 1, "5")),
    # 3x2=6 down from the 3 of 2+3=5, with an = of one's own.
    "equals": _place("V", (1, -1, "x"), (2, -1, "2"), (3, -1, "="), (4, -1, "6")),
    # 6+9=15 across the 6 of 3x2=6: 6+9+1+5 = 21 points.
    "build": _place("H", (4, 0, "+"), (4, 1, "9"), (4, 2, "="), (4, 3, "1"), (4, 4, "5")),
    "discard": {"type": "discard", "tiles": ["x", "x", ":", ":"]},
    "pass": {"type": "pass"},
}


def opening() -> SummyState:
    """A solo game's start: the ``=`` on the start cell, :data:`FIRST_HAND`, and a stock that
    deals :data:`DRAWS` first, then the rest of the bag."""
    rest = Counter(BAG) - Counter({EQUALS: 1}) - Counter(FIRST_HAND) - Counter(DRAWS)
    tiles = sorted(rest.elements())
    random.Random(SHUFFLE_SEED).shuffle(tiles)
    return SummyState(
        players=1,
        table=Table({START_CELL: EQUALS}),
        equations=(),
        hands=(tuple(sorted(FIRST_HAND)),),
        stock=(*DRAWS, *tiles),
        scores=(0,),
        turn=SEAT,
        first_player=SEAT,
        discards=((),),
    )


def _after(state: SummyState, key: str) -> SummyState:
    """The state after the example move of step ``key``."""
    after, _effects = GAME.apply(state, SEAT, GAME.parse_action(EXAMPLES[key]))
    return after


def stock_out(state: SummyState) -> SummyState:
    """Later in the same game: the stock is empty, every tile of it discarded."""
    pile = tuple(sorted((*state.discards[SEAT], *state.stock)))
    return replace(state, stock=(), discards=(pile,))


def makes_equation(before: SummyState, action: object, after: SummyState) -> None:
    """The ``place`` step asks for a placement (a discard is legal, but not the lesson)."""
    if not isinstance(action, Placement):
        raise IllegalAction("this step asks you to make an equation", "learn_place")


def places_equals(before: SummyState, action: object, after: SummyState) -> None:
    """The ``equals`` step asks for a placement with an ``=`` from the hand."""
    makes_equation(before, action, after)
    assert isinstance(action, Placement)
    if EQUALS not in (tile for _cell, tile in action.tiles):
        raise IllegalAction("this step asks you to place an = of your own", "learn_own_equals")


def scores_enough(before: SummyState, action: object, after: SummyState) -> None:
    """The ``build`` step asks for an equation worth at least :data:`LEAST` points."""
    makes_equation(before, action, after)
    score = after.scores[SEAT] - before.scores[SEAT]
    if score < LEAST:
        raise IllegalAction(
            f"that equation scores {score}; this step asks for at least {LEAST}",
            "learn_score",
            score=score,
            least=LEAST,
        )


def discards(before: SummyState, action: object, after: SummyState) -> None:
    """The ``discard`` step asks for a discard (nothing else is legal there; said anyway)."""
    if not isinstance(action, Discard):
        raise IllegalAction("this step asks you to discard", "learn_discard")


def passes(before: SummyState, action: object, after: SummyState) -> None:
    """The ``pass`` step asks for a pass (a discard is legal, but pointless with no stock)."""
    if not isinstance(action, Pass):
        raise IllegalAction("this step asks you to pass", "learn_pass")


def build() -> Tutorial:
    """The five steps, each position made by the engine from the one before."""
    place = opening()
    equals = _after(place, "place")
    build_on = _after(equals, "equals")
    discard = _after(build_on, "build")
    last = stock_out(_after(discard, "discard"))
    steps = (
        Step("place", place, SEAT, EXAMPLES["place"], makes_equation),
        Step("equals", equals, SEAT, EXAMPLES["equals"], places_equals),
        Step("build", build_on, SEAT, EXAMPLES["build"], scores_enough, {"least": LEAST}),
        Step("discard", discard, SEAT, EXAMPLES["discard"], discards),
        Step("pass", last, SEAT, EXAMPLES["pass"], passes),
    )
    return Tutorial(GAME, steps)


TUTORIAL = build()
"""Summy's tutorial (``FEATURES.tutorial``)."""
