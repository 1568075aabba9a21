"""The tile tracker: the tiles a seat has not seen yet, counted by kind, from its own view.

A seat sees the table, its own hand and the tiles it discarded itself; every
other tile of the bag (:data:`~meeple.games.summy.tiles.BAG`) is somewhere it
cannot look: in the stock, in another seat's hand, or among the tiles another
seat put out face down. :func:`unseen` counts them from the seat's view alone
(the keys of :class:`~meeple.games.summy.game.SummyView`), so it can tell the
seat nothing its view does not already hold. Summy has no blank tile: the
kinds are the ten digits, ``+ - x :`` and ``=``. The table page counts the
same in the browser (``browser/tracker.js``) from the view it already has.

>>> from meeple.games.summy.game import GAME
>>> state = GAME.setup({"players": 2}, seed=7)
>>> seen = unseen(GAME.view(state, 0))
>>> seen.total, seen.stock, seen.other_hands, seen.other_discards
(85, 77, 8, 0)
>>> sum(seen.counts.values()) == seen.total
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from meeple.games.base import JSON
from meeple.games.summy.tiles import BAG, TILES


def unseen_counts(
    table: Iterable[str], hand: Iterable[str], own_discards: Iterable[str]
) -> dict[str, int]:
    """Each kind of tile (in :data:`TILES` order, zeros kept) the bag holds beyond these.

    ``table`` is every tile on the table, ``hand`` the seat's own, ``own_discards``
    the tiles it put out itself. A count never goes below zero (a position set up
    by hand may hold more of a tile than the bag; a game never does).

    >>> unseen_counts(["="], ["1", "1", "+"], [])["1"], unseen_counts(["="], [], [])["="]
    (4, 13)
    """
    left = Counter(BAG)
    left.subtract(table)
    left.subtract(hand)
    left.subtract(own_discards)
    return {kind: max(0, left[kind]) for kind in TILES}


@dataclass(frozen=True)
class Unseen:
    """What a seat has not seen: each kind's count, and where those tiles are, in number."""

    counts: dict[str, int]
    """Each kind of tile, in :data:`TILES` order: how many the seat has not seen."""
    stock: int
    """How many of them are in the stock."""
    other_hands: int
    """How many are in the other seats' hands."""
    other_discards: int
    """How many the other seats put out face down."""

    @property
    def total(self) -> int:
        """How many tiles the seat has not seen (the stock, other hands, other discards)."""
        return sum(self.counts.values())

    def to_json(self) -> dict[str, JSON]:
        """``{"counts": {kind: n}, "total", "stock", "other_hands", "other_discards"}``."""
        return {
            "counts": dict(self.counts),
            "total": self.total,
            "stock": self.stock,
            "other_hands": self.other_hands,
            "other_discards": self.other_discards,
        }


def unseen(view: Mapping[str, Any]) -> Unseen:
    """What the seat of ``view`` (a seat's view, not a spectator's) has not seen.

    Reads only the view: its table ``tiles``, its ``hand``, its ``my_discards``
    and the public counts (``stock``, ``hand_sizes``, ``discarded``). Raises
    ``ValueError`` for a spectator's view, which has no hand to count from.
    """
    seat = view.get("seat")
    if seat is None or view.get("hand") is None:
        raise ValueError("a spectator has no tile tracker: it sees no hand")
    others = [s for s in range(int(view["players"])) if s != seat]
    return Unseen(
        counts=unseen_counts(
            (str(tile["tile"]) for tile in view["tiles"]),
            (str(tile) for tile in view["hand"]),
            (str(tile) for tile in view.get("my_discards") or ()),
        ),
        stock=int(view["stock"]),
        other_hands=sum(int(view["hand_sizes"][s]) for s in others),
        other_discards=sum(int(view["discarded"][s]) for s in others),
    )
