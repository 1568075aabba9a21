"""What a Summy bot reads from its seat's view, and how it writes actions.

The view of a seat is a valid position JSON (its hand, the table tiles, the
equations), plus public counts: scores, the stock, the hand sizes and how
many tiles each seat discarded, and the tiles the seat itself discarded.
The tiles a bot has not seen (the other hand, the stock, the other seat's
discards) are the bag minus the table, its hand and its own discards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from meeple.games.base import JSON, Seat
from meeple.games.summy.formats import placed_tiles_to_json, position_from_json
from meeple.games.summy.tiles import BAG, Move, Position


@dataclass(frozen=True)
class SummySeen:
    """A Summy view, read once: the position to move from and the public counts."""

    seat: Seat
    players: int
    position: Position
    scores: tuple[int, ...]
    stock: int
    hand_sizes: tuple[int, ...]
    idle_turns: int
    turn: Seat | None
    my_discards: tuple[str, ...] = ()

    @property
    def hand(self) -> tuple[str, ...]:
        """The viewer's tiles."""
        return self.position.hand

    def unseen(self) -> list[str]:
        """Every tile the viewer has not seen, as a sorted list (a multiset)."""
        left = Counter(BAG)
        left.subtract(self.position.tiles.values())
        left.subtract(self.position.hand)
        left.subtract(self.my_discards)
        return sorted(tile for tile, count in left.items() for _ in range(max(0, count)))

    def opponent(self) -> Seat | None:
        """The other seat of a two-player game (``None`` when solo)."""
        return None if self.players == 1 else 1 - self.seat


def read_view(view: Mapping[str, JSON], seat: Seat) -> SummySeen:
    """Read a Summy view of ``seat`` (keys in :meth:`meeple.games.summy.game.SummyGame.view`)."""
    return SummySeen(
        seat=seat,
        players=int(view["players"]),
        position=position_from_json(view),
        scores=tuple(int(s) for s in view["scores"]),
        stock=int(view["stock"]),
        hand_sizes=tuple(int(n) for n in view["hand_sizes"]),
        idle_turns=int(view["idle_turns"]),
        turn=view.get("turn"),
        my_discards=tuple(str(t) for t in view.get("my_discards") or ()),
    )


def place_json(move: Move) -> dict[str, JSON]:
    """The JSON of playing ``move``."""
    placement = move.placement
    return {"type": "place", "dir": placement.dir, "tiles": placed_tiles_to_json(placement.tiles)}


def discard_json(tiles: Iterable[str]) -> dict[str, JSON]:
    """The JSON of discarding ``tiles``."""
    return {"type": "discard", "tiles": sorted(tiles)}


PASS_JSON: dict[str, JSON] = {"type": "pass"}
"""The JSON of passing (allowed only while the stock is empty)."""


def remove_tiles(hand: Sequence[str], tiles: Iterable[str]) -> tuple[str, ...]:
    """``hand`` without ``tiles`` (as multisets); ``ValueError`` if one is missing."""
    left = list(hand)
    for tile in tiles:
        left.remove(tile)
    return tuple(sorted(left))


def after_move(position: Position, move: Move, hand: Sequence[str]) -> Position:
    """The table after ``move``, faced by a player holding ``hand``."""
    tiles = dict(position.tiles)
    tiles.update(move.placement.tiles)
    return Position(tiles, (*position.equations, move.equation), tuple(hand))


def kept_after(hand: Sequence[str], move: Move) -> tuple[str, ...]:
    """The tiles left in ``hand`` after placing ``move``."""
    return remove_tiles(hand, (tile for _, tile in move.placement.tiles))
