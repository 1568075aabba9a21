"""A hint for the seat to move: the analysis engine's best move, from the seat's own view.

The hint is what the analysis board ranks first (:func:`~meeple.games.summy.movegen.best_moves`:
the highest-scoring placement, ties in the move generator's order). A hand that
makes no equation gets the way on instead: the tiles a strong bot would throw
back (:func:`~meeple.games.summy.bots.tactics.useful_discard`) while the stock
has tiles, else a pass. Only the view is read, so a hint tells the seat nothing
its view does not hold (``FEATURES.hint``; ``POST /api/tables/{id}/hint``).

>>> from meeple.games.summy.game import GAME
>>> view = GAME.view(GAME.setup({"players": 2}, seed=3), 0)
>>> answer = hint(view)
>>> sorted(answer), answer["action"]["type"] in {"place", "discard"}
(['action', 'details', 'text'], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.games.base import JSON
from meeple.games.kit.clock import stop_after
from meeple.games.summy.bots.seen import PASS_JSON, discard_json, place_json, read_view
from meeple.games.summy.bots.tactics import useful_discard
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.movegen.stop import SearchStopped
from meeple.games.summy.notation import move_text


def hint(view: Mapping[str, Any], seconds: float | None = None) -> dict[str, JSON]:
    """``{"action", "text", "details"}``: the best move of the seat of ``view``.

    ``action`` is the move in the game's action JSON; ``text`` says it in English
    (``1+1=2 for 4 points (H 0,-3 1+1[=]2)``); ``details`` holds ``kind``
    (``place``, ``discard`` or ``pass``) and, for a placement, its ``score``,
    ``equation`` and ``notation``. ``ValueError`` for a spectator's view;
    with ``seconds``, :class:`~meeple.games.summy.movegen.stop.SearchStopped`
    once the search has run that long.
    """
    seat = view.get("seat")
    if seat is None:
        raise ValueError("a spectator has no hand to hint for")
    seen = read_view(view, int(seat))
    stop = stop_after(seconds) if seconds is not None else None
    best = best_moves(seen.position, 1, stop)
    if best:
        move = best[0]
        notation = move_text(move)
        return {
            "action": place_json(move),
            "text": f"{move.equation_text} for {move.score} points ({notation})",
            "details": {
                "kind": "place",
                "score": move.score,
                "equation": move.equation_text,
                "notation": notation,
            },
        }
    if seen.stock > 0 and seen.hand:
        tiles = useful_discard(seen.hand)
        return {
            "action": discard_json(tiles),
            "text": f"no equation can be made: discard {' '.join(tiles)} to draw new tiles",
            "details": {"kind": "discard"},
        }
    return {
        "action": PASS_JSON,
        "text": "no equation can be made and the stock is empty: pass",
        "details": {"kind": "pass"},
    }


class SummyHinter:
    """Summy's hint (``FEATURES.hint``): :func:`hint`."""

    def hint(self, view: Mapping[str, Any], seconds: float | None) -> dict[str, JSON]:
        """:func:`hint`; ``TimeoutError`` when the search gives up."""
        try:
            return hint(view, seconds)
        except SearchStopped:
            raise TimeoutError("the search ran out of time") from None


HINTER = SummyHinter()
"""The hint Summy's ``FEATURES`` names."""
