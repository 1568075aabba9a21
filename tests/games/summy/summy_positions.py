"""Summy positions built the way the expert and an analysis meet them: fresh 8-tile hands.

Used by the exactness tests and by ``bench/summy_movegen.py``.
"""

from __future__ import annotations

import random

from meeple.games.summy.game import GAME
from meeple.games.summy.movegen import legal_moves
from meeple.games.summy.state import initial_stock
from meeple.games.summy.tiles import EQUALS, HAND_SIZE, Cell, Position


def free_tiles(tiles: dict[Cell, str]) -> list[str]:
    """The tiles of the bag that are not on the table, in a fixed order."""
    free = [*initial_stock(), EQUALS]
    for tile in tiles.values():
        free.remove(tile)
    return free


def fresh_hand_position(
    seed: int, hand_size: int = HAND_SIZE, equals: int | None = None
) -> Position:
    """A table grown by 4 to 17 turns that each draw a fresh 8-tile hand, then a fresh hand.

    Every turn draws 8 tiles at random from those not on the table, plays a
    uniformly random legal placement if there is one, and puts the unused
    tiles back. Hands drawn this way often hold two or three ``=`` and two
    operators. The last hand holds ``hand_size`` tiles, ``equals`` of them
    ``=`` if given.
    """
    rng = random.Random(seed)
    position = GAME.setup({"players": 2}, seed).position()
    tiles, equations = dict(position.tiles), position.equations
    for _ in range(rng.randint(4, 17)):
        free = free_tiles(tiles)
        hand = tuple(rng.sample(free, min(HAND_SIZE, len(free))))
        moves = list(legal_moves(Position(tiles, equations, hand)))
        if moves:
            move = rng.choice(moves)
            tiles.update(move.placement.tiles)
            equations = (*equations, move.equation)
    free = free_tiles(tiles)
    if equals is None:
        hand = tuple(rng.sample(free, min(hand_size, len(free))))
    else:
        others = [tile for tile in free if tile != EQUALS]
        hand = (EQUALS,) * equals + tuple(rng.sample(others, hand_size - equals))
    return Position(dict(tiles), equations, hand)
