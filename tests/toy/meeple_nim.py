"""Nim, a test-only toy game: the proof that a game needs no change to meeple's generic code.

Three piles of 3, 4 and 5 counters; two players take in turn any number of
counters from one pile; who takes the last counter wins. Everything a game
provides is here (rules, view, options model, bots, a reviewer, ``FEATURES``,
``register()``) or in ``meeple_nim_browser/`` (``ui.js``, ``game.css``, ``messages/``,
``rules.html``, ``picture.svg``); the tests load it as a server would, through
``MEEPLE_EXTRA_GAMES=meeple_nim`` (docs/adding-a-game.md).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

from pydantic import BaseModel, ConfigDict

from meeple.games import register_game
from meeple.games.base import (
    JSON,
    BadOptions,
    Effect,
    GameFeatures,
    IllegalAction,
    Result,
    Seat,
    refuse_unknown_keys,
)
from meeple.games.kit.bots import SeededBot, view_rng

PILES = (3, 4, 5)


class NimState(NamedTuple):
    """The piles, whose turn it is, and the winner once the last counter is taken."""

    piles: tuple[int, ...]
    turn: int
    winner: int | None


class Take(NamedTuple):
    """Take ``count`` counters from pile ``pile``."""

    pile: int
    count: int


class NimView(TypedDict):
    """Everything (Nim hides nothing)."""

    game: str
    seat: int | None
    piles: list[int]
    turn: int | None
    result: dict[str, JSON] | None


class NimOptions(BaseModel):
    """Nim has no option besides the player count (always 2)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class NimGame:
    """Nim for two."""

    name = "nim"
    min_players = 2
    max_players = 2
    quick_play_seats = 2
    options_model: type[BaseModel] = NimOptions

    def default_options(self, players: int) -> dict[str, JSON]:
        """``{"players": 2}``."""
        return {"players": players}

    def setup(self, options: Mapping[str, JSON], seed: int) -> NimState:
        """The three piles; the seed picks who starts."""
        if set(options) != {"players"} or options["players"] != 2:
            raise BadOptions("Nim is for 2 players and has no option", "nim_options")
        return NimState(PILES, seed % 2, None)

    def to_act(self, state: NimState) -> frozenset[Seat]:
        """The seat whose turn it is, until someone has won."""
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: NimState, seat: Seat) -> Iterable[Take]:
        """Every pile and count."""
        if state.winner is not None or seat != state.turn:
            return []
        return [Take(i, n) for i, pile in enumerate(state.piles) for n in range(1, pile + 1)]

    def apply(self, state: NimState, seat: Seat, action: Take) -> tuple[NimState, list[Effect]]:
        """Take the counters; taking the last one wins."""
        if state.winner is not None:
            raise IllegalAction("the game is over", "game_over")
        if seat != state.turn:
            raise IllegalAction(f"it is seat {state.turn}'s turn", "nim_turn", turn=state.turn)
        if (
            not 0 <= action.pile < len(state.piles)
            or not 1 <= action.count <= state.piles[action.pile]
        ):
            raise IllegalAction("take 1 or more counters from a pile that has them", "nim_take")
        piles = list(state.piles)
        piles[action.pile] -= action.count
        winner = seat if sum(piles) == 0 else None
        event: Effect = {"type": "take", "seat": seat, "pile": action.pile, "count": action.count}
        return NimState(tuple(piles), 1 - seat, winner), [event]

    def view(self, state: NimState, seat: Seat | None) -> NimView:
        """The piles and the turn; nothing is hidden."""
        result = self.result(state)
        return {
            "game": "nim",
            "seat": seat,
            "piles": list(state.piles),
            "turn": None if state.winner is not None else state.turn,
            "result": None if result is None else result.to_json(),
        }

    def result(self, state: NimState) -> Result | None:
        """The winner first, once the last counter is taken."""
        if state.winner is None:
            return None
        ranks = tuple(1 if seat == state.winner else 2 for seat in range(2))
        return Result(
            scores=tuple(int(rank == 1) for rank in ranks),
            ranks=ranks,
            reason="who took the last counter wins",
            reason_code="reason_nim",
        )

    def resample_hidden(self, state: NimState, seat: Seat | None, rng: random.Random) -> NimState:
        """Nothing is hidden: the same state."""
        return state

    def parse_action(self, data: JSON) -> Take:
        """``{"type": "take", "pile": i, "count": n}``."""
        if not isinstance(data, dict) or data.get("type") != "take":
            raise IllegalAction("Nim has one action: {'type': 'take', 'pile', 'count'}")
        refuse_unknown_keys(data, ("type", "pile", "count"), "a take")
        pile, count = data.get("pile"), data.get("count")
        if type(pile) is not int or type(count) is not int:
            raise IllegalAction("'pile' and 'count' are integers")
        return Take(pile, count)

    def action_json(self, action: Take) -> JSON:
        """The JSON form :meth:`parse_action` reads."""
        return {"type": "take", "pile": action.pile, "count": action.count}


GAME = NimGame()


def _takes(view: Mapping[str, JSON]) -> list[dict[str, JSON]]:
    piles: list[int] = view["piles"]
    return [
        {"type": "take", "pile": i, "count": n}
        for i, pile in enumerate(piles)
        for n in range(1, pile + 1)
    ]


class RandomNimBot(SeededBot):
    """Any take."""

    game, level = "nim", "random"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """A take at random."""
        return view_rng(self.seed, view, seat).choice(_takes(view))


def winning_take(piles: Sequence[int]) -> Take | None:
    """The first take that leaves a nim-sum (the piles' xor) of zero, or ``None`` if there is
    none: then every take loses against best play.

    >>> winning_take((3, 4, 5))
    Take(pile=0, count=2)
    >>> winning_take((1, 2, 3)) is None
    True
    """
    total = 0
    for pile in piles:
        total ^= pile
    for i, pile in enumerate(piles):
        if total and pile ^ total < pile:
            return Take(i, pile - (pile ^ total))
    return None


class GreedyNimBot(SeededBot):
    """The winning take when there is one (nim-sum zero after it), else one counter."""

    game, level = "nim", "greedy"

    def choose(self, view: Mapping[str, JSON], seat: Seat, budget_s: float) -> JSON:
        """The take that leaves a nim-sum of zero, if any."""
        best = winning_take(view["piles"])
        return GAME.action_json(best) if best is not None else _takes(view)[0]


class NimReviewer:
    """Nim's reviewer (``FEATURES.reviewer``): the best take is known exactly (the xor rule).

    A line says the winning take the mover had (``best``, ``None`` in a lost
    position) and whether the take played also wins (``found``: any take that
    leaves a nim-sum of zero does, not only ``best``).
    """

    chunk = 50  # microseconds each: a whole game is one piece of work

    def review_action(self, index: int, state: Any, seat: Seat, data: JSON) -> dict[str, JSON]:
        """The line of action ``index``: played, best, found."""
        played = GAME.parse_action(data)
        best = winning_take(state.piles)
        after = list(state.piles)
        after[played.pile] -= played.count
        found = best is None or winning_take(after) is None
        return {
            "index": index,
            "seat": seat,
            "piles": list(state.piles),
            "played": GAME.action_json(played),
            "best": None if best is None else GAME.action_json(best),
            "found": found,
        }

    def summary(self, lines: Sequence[Mapping[str, Any]], players: int) -> list[dict[str, JSON]]:
        """Per seat: turns, winning takes found, and the share of turns that kept the win."""
        summaries: list[dict[str, JSON]] = []
        for seat in range(players):
            mine = [line for line in lines if line["seat"] == seat]
            best = sum(bool(line["found"]) for line in mine)
            summaries.append(
                {
                    "seat": seat,
                    "turns": len(mine),
                    "best_played": best,
                    "best_share": round(best / len(mine), 4) if mine else 0.0,
                }
            )
        return summaries


REVIEWER = NimReviewer()

FEATURES = GameFeatures(
    bots={"random": f"{__name__}:RandomNimBot", "greedy": f"{__name__}:GreedyNimBot"},
    reviewer=f"{__name__}:REVIEWER",
    commands="meeple_nim_cli",
    stylesheet="game.css",
    messages="messages",
    rules_page="rules.html",
    picture="picture.svg",
)
"""What Nim offers beyond the contract: two bots, a review (its browser side is ``review`` in
ui.js), commands (``meeple nim best``, in ``meeple_nim_cli.py``), and its look, texts, rules
page and picture, files of ``meeple_nim_browser/``."""


def register() -> None:
    """Register Nim and its browser folder (called by meeple at start-up); the registry
    finds its ``FEATURES`` (its bots among them) next to its ``GAME``."""
    register_game("nim", __name__, Path(__file__).parent / "meeple_nim_browser")
