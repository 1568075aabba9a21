"""``SlideGame``: Slide behind the contract of :mod:`meeple.games.base`.

>>> from meeple.games.slide import GAME
>>> state = GAME.setup(GAME.default_options(2), seed=3)
>>> sorted(GAME.to_act(state)), len(list(GAME.legal_actions(state, 0)))
([0, 1], 16)
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from meeple.games.base import JSON, Effect, IllegalAction, Result, Seat
from meeple.games.slide import hidden, rules
from meeple.games.slide.actions import Action, action_json, parse_action
from meeple.games.slide.state import MAX_PLAYERS, MIN_PLAYERS, State, new_state, parse_options
from meeple.games.slide.view import SlideView, view


class SlideOptions(BaseModel):
    """Slide's table options besides the player count (docs/rules-slide.md)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    lowest_reveal_starts: bool = Field(
        default=False, description="in round 1, who revealed the lowest card plays first"
    )
    match_to_100: bool = Field(
        default=False, description="deal again until a running total reaches 100; lowest wins"
    )


class SlideGame:
    """The Slide rules engine: pure functions over an immutable :class:`State`."""

    name = "slide"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    quick_play_seats = 4
    options_model: type[BaseModel] = SlideOptions

    def default_options(self, players: int) -> dict[str, JSON]:
        """``{"players": n, "lowest_reveal_starts": false, "match_to_100": false}``."""
        return {"players": players, **SlideOptions().model_dump()}

    def setup(self, options: Mapping[str, JSON], seed: int) -> State:
        """A new game dealt from ``random.Random(seed)``; :class:`BadOptions` if refused."""
        return new_state(parse_options(options), seed)

    def to_act(self, state: State) -> frozenset[Seat]:
        """Every seat yet to pick during the reveal; the taker during the draft."""
        return rules.to_act(state)

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Reveals of each face-down cell, or takes of each distinct pool value and side."""
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, list[Effect]]:
        """The next state and its public events; :class:`IllegalAction` naming the rule."""
        if not isinstance(state, State):
            raise IllegalAction("this is not a Slide game state")
        return rules.apply(state, seat, action)

    def view(self, state: State, seat: Seat | None) -> SlideView:
        """What ``seat`` may know; :class:`~meeple.games.slide.view.SlideView` gives the keys."""
        return view(state, seat)

    def result(self, state: State) -> Result | None:
        """Scores (points, or running totals in a match), ranks and details once over."""
        return state.result

    def parse_action(self, data: JSON) -> Action:
        """A ``Reveal`` or ``Take`` from its JSON form; :class:`IllegalAction` if malformed."""
        return parse_action(data)

    def action_json(self, action: Action) -> JSON:
        """The JSON form of an action."""
        return action_json(action)

    def is_move(self, action: JSON) -> bool:
        """A take is a move: a player's turn in the draft. The reveal before it is the
        round's simultaneous pick, made by everyone at once, not a turn of one's own.

        >>> GAME.is_move({"type": "take", "value": 7, "side": "left"}), GAME.is_move(
        ...     {"type": "reveal", "cell": [1, 2]})
        (True, False)
        """
        return isinstance(action, dict) and action.get("type") == "take"

    def resample_hidden(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        """A state differing only in what ``seat`` cannot see (leak tests, sampling bots)."""
        return hidden.resample_hidden(state, seat, rng)


GAME = SlideGame()
"""The one Slide engine instance, registered as ``"slide"``."""
