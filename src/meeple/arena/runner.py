"""Play one game between bots through the game's checked ``apply``.

Each bot sees only ``game.view(state, seat)`` for its own seat; the time it
takes to choose is measured around ``bot.choose``. A bot that returns an
illegal action stops the game with a :class:`BotError` naming the bot, the
action and the rule it breaks (the arena treats that as a bug, not a loss).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass

from meeple.bots import get_bot
from meeple.games import get_game
from meeple.games.base import JSON, GameRecord, IllegalAction, Result, Seat

MAX_ACTIONS = 20_000
"""A game that needs more actions than this is reported as stuck (a bug)."""


class BotError(RuntimeError):
    """A bot returned an illegal or malformed action, or a game never ended."""


@dataclass(frozen=True)
class GameSpec:
    """One arena game: which game, options, deal seed and bot level per seat.

    ``index`` numbers the game in its run; ``budget_s`` is every bot's time
    budget per move.
    """

    index: int
    game: str
    options: Mapping[str, JSON]
    seed: int
    seats: tuple[str, ...]
    budget_s: float


@dataclass(frozen=True)
class GameOutcome:
    """A finished arena game: its spec, replayable record, result and move times.

    ``move_times[s]`` holds the seconds seat ``s`` took for each of its moves.
    """

    spec: GameSpec
    record: GameRecord
    result: Result
    move_times: tuple[tuple[float, ...], ...]


def bot_seed(spec: GameSpec, seat: Seat) -> int:
    """The seed of the bot in ``seat``: fixed by the deal, the seat and the level."""
    return random.Random(f"bot:{spec.seed}:{seat}:{spec.seats[seat]}").getrandbits(62)


def play_game(spec: GameSpec) -> GameOutcome:
    """Play ``spec`` to the end and return its outcome.

    Seats that act simultaneously (Slide's reveal) act in seat order; each
    still sees only its own view, which never shows another seat's pick.
    """
    game = get_game(spec.game)
    bots = [
        get_bot(spec.game, level, bot_seed(spec, seat)) for seat, level in enumerate(spec.seats)
    ]
    state = game.setup(spec.options, spec.seed)
    actions: list[tuple[Seat, JSON]] = []
    times: list[list[float]] = [[] for _ in spec.seats]
    while (result := game.result(state)) is None:
        if len(actions) >= MAX_ACTIONS:
            raise BotError(
                f"game {spec.index} (seed {spec.seed}) did not end in {MAX_ACTIONS} actions"
            )
        for seat in sorted(game.to_act(state)):
            if seat not in game.to_act(state):
                continue
            view = game.view(state, seat)
            started = time.perf_counter()
            action = bots[seat].choose(view, seat, spec.budget_s)
            times[seat].append(time.perf_counter() - started)
            try:
                state, _events = game.apply(state, seat, game.parse_action(action))
            except IllegalAction as exc:
                raise BotError(
                    f"{spec.game} bot {spec.seats[seat]!r} in seat {seat} of game {spec.index} "
                    f"(seed {spec.seed}) chose {action!r}: {exc}"
                ) from exc
            actions.append((seat, action))
    record = GameRecord(spec.game, dict(spec.options), spec.seed, tuple(actions))
    return GameOutcome(spec, record, result, tuple(tuple(t) for t in times))
