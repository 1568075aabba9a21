"""The end of a two-player Summy game: a short negamax once the stock is empty.

With no more draws, both hands only shrink, and the game ends after two
turns in a row without a placement. The bot knows its own hand and, from
the tiles it has not seen, the opponent's (exactly, when the opponent has
discarded nothing: the unseen tiles are then its hand; else a sample). The
search tries, at each turn, the ``WIDTH`` best-scoring placements and the
pass, ``DEPTH`` turns deep, and values a line by the points the player to
move makes minus the other's. It finds what the one-move look of ``strong``
misses: splitting the last tiles into two equations, keeping a spot the
opponent would take, passing when the game is won.

>>> from meeple.games.summy.tiles import Position
>>> table = {(0, 0): "="}
>>> line_value(Position(table, (), ("1", "+", "1", "2")), ("3",), idle=0, depth=2)
4
"""

from __future__ import annotations

from meeple.games.summy.bots.seen import after_move, kept_after
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.tiles import Position

WIDTH = 4
"""Placements tried per turn (the best by score), besides passing."""

DEPTH = 3
"""Turns searched: the bot's, the opponent's reply, the bot's next."""


def line_value(position: Position, other_hand: tuple[str, ...], idle: int, depth: int) -> int:
    """The best of (points of the player to move - the other's) over ``depth`` turns.

    ``position.hand`` is the hand of the player to move, ``other_hand`` the
    other player's; ``idle`` counts the turns in a row without a placement
    just before this one (two end the game).
    """
    if idle >= 2 or depth == 0:
        return 0
    swapped = Position(position.tiles, position.equations, other_hand)
    best = -line_value(swapped, position.hand, idle + 1, depth - 1)  # passing
    for move in best_moves(position, WIDTH):
        after = after_move(position, move, other_hand)
        kept = kept_after(position.hand, move)
        best = max(best, move.score - line_value(after, kept, 0, depth - 1))
    return best
