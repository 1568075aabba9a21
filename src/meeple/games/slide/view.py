"""What a seat (or a spectator) may know of a Slide game, as JSON.

Face-down values are secret to everyone, their owner included; a pending pick
is known only to the seat that made it; the cards left in the box are never
stored at all.
"""

from __future__ import annotations

from meeple.games.base import JSON, Seat
from meeple.games.slide.grid import HOLE, index_cell, rows
from meeple.games.slide.rules import to_act
from meeple.games.slide.state import NO_PICK, NO_SEAT, ROUNDS, State

FACE_DOWN = 0
"""How a face-down card shows in a view's grid (``null`` is the hole)."""


def _seat_or_none(seat: int) -> int | None:
    return None if seat == NO_SEAT else seat


def view(state: State, seat: Seat | None) -> dict[str, JSON]:
    """What ``seat`` may know (``None``: a spectator). The keys:

    - ``game``: ``"slide"``; ``seat``: the viewer's seat or ``null``;
      ``players``; ``options`` (the table options object).
    - ``phase``: ``"reveal"``, ``"draft"`` or ``"over"``; ``deal`` (1-based,
      above 1 only with ``match_to_100``); ``round`` (1..16); ``rounds`` (16).
    - ``first_player``: the seat holding the token, ``null`` while
      ``lowest_reveal_starts`` has not chosen it yet; ``turn``: the seat taking
      a card in the draft, else ``null``; ``to_act``: sorted seats that may act.
    - ``picked``: per seat, whether it has picked its card in this reveal
      (never where); ``my_pick``: ``[row, col]`` of the viewer's own pending
      pick, else ``null`` (always ``null`` for a spectator).
    - ``grids``: per seat, 4 rows of 4 cells: ``1..10`` a face-up card,
      ``0`` a face-down card (value hidden), ``null`` the hole.
      ``holes``: per seat ``[row, col]`` of its hole, else ``null``.
    - ``pool``: the values in the pool, sorted.
    - ``totals``: running totals of finished deals; ``deal_scores``: per
      finished deal, the points of each seat; ``last_deal``: ``null`` or
      ``{"grids": ..., "cards_left": [...]}`` of the last finished deal, its
      grids after cancelling (``null`` for a removed card).
    - ``result``: ``null`` until the game is over, then ``Result.to_json()``.
    """
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
