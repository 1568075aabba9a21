"""Helpers for the Slide tests: grids written as text, states built from them."""

from __future__ import annotations

import random
from typing import Any

from meeple.games.slide import GAME, State
from meeple.games.slide.actions import Action, action_from_text


def grid(text: str) -> tuple[int, ...]:
    """A grid from 16 tokens, row by row: ``7`` face up, ``d7`` face down, ``_`` the hole."""
    cells = []
    for token in text.split():
        if token == "_":
            cells.append(0)
        elif token.startswith("d"):
            cells.append(-int(token[1:]))
        else:
            cells.append(int(token))
    assert len(cells) == 16, text
    return tuple(cells)


def fresh(players: int = 2, seed: int = 1, **options: Any) -> State:
    """A new game with these options."""
    return GAME.setup({**GAME.default_options(players), **options}, seed)


def act(state: State, *moves: tuple[int, str]) -> State:
    """Apply ``(seat, "reveal 1,2")`` / ``(seat, "take 7 left")`` moves in order."""
    for seat, text in moves:
        state, _events = GAME.apply(state, seat, action_from_text(text))
    return state


def random_step(state: State, rng: random.Random) -> tuple[State, int, Action]:
    """One random legal step by one random seat that may act."""
    seat = rng.choice(sorted(GAME.to_act(state)))
    action = rng.choice(GAME.legal_actions(state, seat))
    state, _events = GAME.apply(state, seat, action)
    return state, seat, action


def last_round(pre_grids: list[str], pool: list[int], first: int = 0, **fields: Any) -> State:
    """Round 16's draft: each grid (text, with its hole) face up, ``pool`` to take from."""
    players = len(pre_grids)
    state = fresh(players, seed=1, **fields.pop("options", {}))
    return state._replace(
        round=16,
        phase="draft",
        grids=tuple(grid(text) for text in pre_grids),
        pool=tuple(sorted(pool)),
        first=first,
        turn=first,
        takes=0,
        **fields,
    )
