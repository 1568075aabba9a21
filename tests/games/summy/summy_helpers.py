"""Shared test helpers: seeded random Summy games through the public game contract."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field

from meeple.games.base import JSON, GameRecord, Seat
from meeple.games.summy import GAME, SummyState
from meeple.games.summy.tiles import Discard, Placement


@dataclass
class PlayedGame:
    """Every state of a game, the actions taken (JSON) and the events they made."""

    record: GameRecord
    states: list[SummyState]
    events: list[list[dict[str, JSON]]] = field(default_factory=list)


def random_action_json(state: SummyState, seat: Seat, rng: random.Random) -> JSON:
    """A random legal action: usually a placement when there is one, else a small discard."""
    actions = GAME.legal_actions(state, seat)
    placements = [a for a in actions if isinstance(a, Placement)]
    small_discards = [a for a in actions if isinstance(a, Discard) and len(a.tiles) <= 3]
    if placements and rng.random() < 0.85:
        return GAME.action_json(rng.choice(placements))
    if small_discards and rng.random() < 0.9:
        return GAME.action_json(rng.choice(small_discards))
    return GAME.action_json(rng.choice(actions))


@functools.cache
def play_random_game(seed: int, players: int = 2, max_turns: int | None = None) -> PlayedGame:
    """A seeded random game to its end (or ``max_turns``), with every state and event."""
    rng = random.Random(seed * 7919 + players)
    state = GAME.setup({"players": players}, seed)
    states = [state]
    actions: list[tuple[Seat, JSON]] = []
    events: list[list[dict[str, JSON]]] = []
    while GAME.result(state) is None and (max_turns is None or len(actions) < max_turns):
        (seat,) = GAME.to_act(state)
        data = random_action_json(state, seat, rng)
        state, new_events = GAME.apply(state, seat, GAME.parse_action(data))
        states.append(state)
        actions.append((seat, data))
        events.append(new_events)
    record = GameRecord("summy", {"players": players}, seed, tuple(actions))
    return PlayedGame(record, states, events)
