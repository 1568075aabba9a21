"""Shared helpers for the bot tests: states from seeded games, hidden info redrawn."""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

import pytest

from meeple.bots import get_bot
from meeple.games import get_game
from meeple.games.base import Seat
from meeple.games.kit.bots import LEVELS
from meeple.games.kit.clock import Deadline
from meeple.games.slide.hidden import resample_hidden
from meeple.games.summy import SummyState

GAMES_AND_LEVELS = [(g, lv) for g in ("summy", "slide") for lv in LEVELS]


@functools.cache
def greedy_states(game_name: str, seed: int, players: int) -> tuple[Any, ...]:
    """Every state of a game that greedy bots play from ``seed``."""
    game = get_game(game_name)
    state = game.setup(game.default_options(players), seed)
    bots = [get_bot(game_name, "greedy", seed + seat) for seat in range(players)]
    states = [state]
    while game.result(state) is None:
        for seat in sorted(game.to_act(state)):
            action = bots[seat].choose(game.view(state, seat), seat, 1.0)
            state, _ = game.apply(state, seat, game.parse_action(action))
            states.append(state)
    return tuple(states)


def states_to_act(game_name: str, seed: int, players: int, every: int) -> list[tuple[Any, Seat]]:
    """Every ``every``-th state of a greedy game, with a seat that must act in it."""
    game = get_game(game_name)
    picked = []
    for state in greedy_states(game_name, seed, players)[::every]:
        seats = sorted(game.to_act(state))
        if seats:
            picked.append((state, seats[-1]))
    return picked


def redraw_hidden(game_name: str, state: Any, seat: Seat, rng: random.Random) -> Any:
    """A state that ``seat`` cannot tell from ``state``: what it cannot see redrawn."""
    if game_name == "slide":
        return resample_hidden(state, seat, rng)
    assert isinstance(state, SummyState)
    others = [s for s in range(state.players) if s != seat]
    pool = list(state.stock) + [t for s in others for t in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:size])), pool[size:]
    return dataclasses.replace(state, hands=tuple(hands), stock=tuple(pool))


@pytest.fixture
def no_clock_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch off the bots' safety stop, whose only effect is under heavy load.

    The bots' work per move is fixed by the budget; the deadline only cuts it
    short on an overloaded machine, which would make a determinism test flaky.
    """
    monkeypatch.setattr(Deadline, "expired", lambda self: False)
