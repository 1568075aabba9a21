"""What a seat (or a spectator) may know of a Slide game, as JSON.

Face-down values are secret to everyone, their owner included; a pending pick
is known only to the seat that made it; the cards left in the box are never
stored at all.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from meeple.games.base import JSON, Seat
from meeple.games.slide.grid import HOLE, index_cell, rows
from meeple.games.slide.rules import to_act
from meeple.games.slide.state import NO_PICK, NO_SEAT, ROUNDS, State

FACE_DOWN = 0
"""How a face-down card shows in a view's grid (``null`` is the hole)."""


def _seat_or_none(seat: int) -> int | None:
    return None if seat == NO_SEAT else seat


class SlideView(TypedDict):
    """What one seat (or a spectator) may know of a Slide game: the JSON every client gets."""

    game: Literal["slide"]
    seat: int | None
    """The viewer's seat, ``null`` for a spectator."""
    players: int
    options: dict[str, JSON]
    """The table options object."""
    phase: str
    """``"reveal"``, ``"draft"`` or ``"over"``."""
    deal: int
    """1-based; above 1 only with ``match_to_100``."""
    round: int
    """1..16."""
    rounds: int
    first_player: int | None
    """The seat holding the token; ``null`` while ``lowest_reveal_starts`` has not chosen it."""
    turn: int | None
    """The seat taking a card in the draft, else ``null``."""
    to_act: list[int]
    """Sorted seats that may act."""
    picked: list[bool]
    """Per seat, whether it has picked its card in this reveal (never where)."""
    my_pick: list[int] | None
    """``[row, col]`` of the viewer's own pending pick, else ``null`` (a spectator: always)."""
    grids: list[list[list[int | None]]]
    """Per seat, 4 rows of 4: ``1..10`` face up, ``0`` face down (hidden), ``null`` the hole."""
    holes: list[list[int] | None]
    """Per seat ``[row, col]`` of its hole, else ``null``."""
    pool: list[int]
    """The values in the pool, sorted."""
    totals: list[int]
    """Running totals of finished deals."""
    deal_scores: list[list[int]]
    """Per finished deal, the points of each seat."""
    last_deal: dict[str, JSON] | None
    """``{"grids", "cards_left"}`` of the last deal after cancelling (``null``: a removed card)."""
    result: dict[str, JSON] | None
    """``null`` until the game is over, then ``Result.to_json()``."""


def view(state: State, seat: Seat | None) -> SlideView:
    """What ``seat`` may know (``None``: a spectator); :class:`SlideView` gives the keys."""
    grids = []
    holes: list[JSON] = []
    for grid in state.grids:
        shown = [None if c == HOLE else (c if c > 0 else FACE_DOWN) for c in grid]
        grids.append(rows(shown))
        holes.append(list(index_cell(grid.index(HOLE))) if HOLE in grid else None)
    own_pick: JSON = None
    if seat is not None and 0 <= seat < len(state.picks) and state.picks[seat] != NO_PICK:
        own_pick = list(index_cell(state.picks[seat]))
    last_deal: JSON = None
    if state.final_grids:
        last_deal = {
            "grids": [rows(g) for g in state.final_grids],
            "cards_left": list(state.cards_left),
        }
    return {
        "game": "slide",
        "seat": seat,
        "players": state.options.players,
        "options": state.options.to_json(),
        "phase": state.phase,
        "deal": state.deal,
        "round": state.round,
        "rounds": ROUNDS,
        "first_player": _seat_or_none(state.first),
        "turn": _seat_or_none(state.turn),
        "to_act": sorted(to_act(state)),
        "picked": [pick != NO_PICK for pick in state.picks],
        "my_pick": own_pick,
        "grids": grids,
        "holes": holes,
        "pool": list(state.pool),
        "totals": list(state.totals),
        "deal_scores": [list(s) for s in state.deal_scores],
        "last_deal": last_deal,
        "result": None if state.result is None else state.result.to_json(),
    }
