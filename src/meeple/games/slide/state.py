"""Slide's immutable game state, its options and the seeded deal.

The state is a ``NamedTuple`` (cheap to build, immutable, hashable apart from
the result): bots simulate thousands of games, so every action builds a new
state that shares the untouched grids with the old one.

>>> state = new_state(Options(players=3), seed=7)
>>> state.phase, state.round, len(state.grids), sorted(set(map(len, state.grids)))
('reveal', 1, 3, [16])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import NamedTuple

from meeple.games.base import JSON, BadOptions, Result
from meeple.games.slide.grid import CELLS, COPIES, VALUES, Grid

MIN_PLAYERS = 2
MAX_PLAYERS = 6
ROUNDS = 16
MATCH_TARGET = 100
"""With ``match_to_100``, the match ends once a running total reaches this."""

REVEAL = "reveal"
DRAFT = "draft"
OVER = "over"
NO_SEAT = -1
NO_PICK = -1


class Options(NamedTuple):
    """Table options: seats, and the two variants (both off by default)."""

    players: int
    lowest_reveal_starts: bool = False
    match_to_100: bool = False

    def to_json(self) -> dict[str, JSON]:
        """The options as the JSON object a table stores."""
        return {
            "players": self.players,
            "lowest_reveal_starts": self.lowest_reveal_starts,
            "match_to_100": self.match_to_100,
        }


def parse_options(options: Mapping[str, JSON]) -> Options:
    """Read table options; :class:`BadOptions` for anything Slide does not accept.

    ``players`` is required (2 to 6); the two variant flags default to false.

    >>> parse_options({"players": 4, "match_to_100": True}).match_to_100
    True
    """
    if not isinstance(options, Mapping):
        raise BadOptions("options must be a JSON object")
    unknown = sorted(set(options) - set(Options._fields))
    if unknown:
        raise BadOptions(f"unknown option {unknown[0]!r}; Slide has: {', '.join(Options._fields)}")
    players = options.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadOptions("'players' must be an integer from 2 to 6")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadOptions(f"Slide is for 2 to 6 players, not {players}")
    flags = []
    for name in ("lowest_reveal_starts", "match_to_100"):
        value = options.get(name, False)
        if not isinstance(value, bool):
            raise BadOptions(f"{name!r} must be true or false, not {value!r}")
        flags.append(value)
    return Options(players, flags[0], flags[1])


class State(NamedTuple):
    """Everything about a Slide game at one moment (treat as opaque outside the engine).

    ``grids[s]`` uses the encoding of :mod:`meeple.games.slide.grid`;
    ``picks[s]`` is seat ``s``'s hidden pick during the reveal (a cell index,
    ``NO_PICK`` if none yet) and ``waiting`` the seats yet to pick (empty
    outside the reveal); ``first`` is the first-player token
    (``NO_SEAT`` while ``lowest_reveal_starts`` has not chosen it yet);
    ``turn`` is the seat taking a card during the draft; ``takes`` counts the
    takes of this round; ``totals`` are the running totals of finished deals.
    """

    options: Options
    seed: int
    deal: int
    round: int
    phase: str
    first: int
    grids: tuple[Grid, ...]
    picks: tuple[int, ...]
    waiting: frozenset[int]
    pool: tuple[int, ...]
    turn: int
    takes: int
    totals: tuple[int, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    cards_left: tuple[int, ...]
    final_grids: tuple[tuple[int | None, ...], ...]
    result: Result | None


def deal_rng(seed: int, deal: int) -> random.Random:
    """The generator of deal number ``deal`` (1-based): ``Random(seed)`` for the first."""
    return random.Random(seed) if deal == 1 else random.Random(f"{seed}:{deal}")


def deal_grids(options: Options, seed: int, deal: int) -> tuple[tuple[Grid, ...], int]:
    """The face-down grids of a deal and its first player (``NO_SEAT`` if chosen by reveal).

    The 100 cards are shuffled; seat ``s`` gets cards ``16s .. 16s+15`` in cell
    order; the rest stay out of the game and are never stored.
    """
    rng = deal_rng(seed, deal)
    deck = [-value for value in VALUES for _ in range(COPIES)]
    rng.shuffle(deck)
    grids = tuple(tuple(deck[s * CELLS : (s + 1) * CELLS]) for s in range(options.players))
    first = rng.randrange(options.players)
    return grids, (NO_SEAT if options.lowest_reveal_starts else first)


def start_deal(
    options: Options,
    seed: int,
    deal: int,
    totals: tuple[int, ...],
    deal_scores: tuple[tuple[int, ...], ...],
    cards_left: tuple[int, ...],
    final_grids: tuple[tuple[int | None, ...], ...],
) -> State:
    """Round 1 of deal ``deal``, carrying the match's figures so far."""
    grids, first = deal_grids(options, seed, deal)
    players = options.players
    return State(
        options=options,
        seed=seed,
        deal=deal,
        round=1,
        phase=REVEAL,
        first=first,
        grids=grids,
        picks=(NO_PICK,) * players,
        waiting=frozenset(range(players)),
        pool=(),
        turn=NO_SEAT,
        takes=0,
        totals=totals,
        deal_scores=deal_scores,
        cards_left=cards_left,
        final_grids=final_grids,
        result=None,
    )


def new_state(options: Options, seed: int) -> State:
    """A new game (the first deal of a match)."""
    zeros = (0,) * options.players
    return start_deal(options, seed, 1, zeros, (), zeros, ())
