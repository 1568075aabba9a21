"""Games between the server's own bots, played a piece at a time, to cut puzzles from.

A new site has no public games yet, so no puzzles. The server fills a short
pool from games its bots play each other in the background worker
(:mod:`meeple.tables.study.puzzle_supply`): :func:`play_piece` plays one game on
for about a second and hands back the actions so far, so a review waiting
for the same worker, or the server stopping, never waits behind a whole
game. Which bots play is the game's to say: its puzzle cutter may name the
levels (``bot_levels``, one per seat); otherwise the game's strongest bot
takes every seat of the smallest table. Nothing here names a game:

>>> from meeple.games import games_with
>>> all(len(puzzle_lineup(game)) >= 2 for game in games_with("puzzles"))
True
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Sequence

from meeple.analysis.features import cutter_of
from meeple.arena.runner import MAX_ACTIONS, BotError, GameSpec, bot_seed
from meeple.bots import get_bot, levels_for
from meeple.games import get_game
from meeple.games.base import JSON, GameRecord, Seat
from meeple.games.kit.bots import Bot


def puzzle_lineup(game: str) -> tuple[str, ...]:
    """The bot level of each seat in ``game``'s puzzle games: the cutter's ``bot_levels`` if it
    names them, else the strongest level in every seat of the smallest table (two at least)."""
    named: Sequence[str] | None = getattr(cutter_of(game), "bot_levels", None)
    if named:
        return tuple(named)
    rules = get_game(game)
    return (levels_for(game)[-1],) * max(2, rules.min_players)


@functools.lru_cache(maxsize=16)
def _bot(game: str, level: str, seed: int) -> Bot:
    """The bot of a seat, made once per game in this worker (its choices follow from its
    seed, seat and view alone, so the one made again would choose the same)."""
    return get_bot(game, level, seed)


def start_record(game: str, seed: int) -> GameRecord:
    """A puzzle game not begun: ``game``'s default options for its lineup, dealt by ``seed``."""
    options = get_game(game).default_options(len(puzzle_lineup(game)))
    return GameRecord(game, options, seed, ())


def play_piece(record_text: str, budget_s: float, seconds: float) -> tuple[list[list[JSON]], bool]:
    """Play the game of a record (JSON text) on, its lineup's bots choosing with ``budget_s``
    each, for about ``seconds`` (at least one action); the actions played, each
    ``[seat, action]``, and whether the game is over.

    The record's state is replayed first (cheap next to the bots' thinking), so a
    piece needs nothing of the pieces before it and any worker may play it.
    """
    record = GameRecord.from_json(json.loads(record_text))
    rules = get_game(record.game)
    lineup = puzzle_lineup(record.game)
    spec = GameSpec(0, record.game, record.options, record.seed, lineup, budget_s)
    state = rules.setup(record.options, record.seed)
    for mover, data in record.actions:
        state, _events = rules.apply(state, mover, rules.parse_action(data))
    played: list[list[JSON]] = []
    stop = time.monotonic() + seconds
    while rules.result(state) is None:
        if len(record.actions) + len(played) >= MAX_ACTIONS:
            raise BotError(f"a {record.game} puzzle game did not end in {MAX_ACTIONS} actions")
        if played and time.monotonic() >= stop:
            return played, False
        seat: Seat = min(rules.to_act(state))
        bot = _bot(record.game, lineup[seat], bot_seed(spec, seat))
        action = rules.parse_action(bot.choose(rules.view(state, seat), seat, budget_s))
        state, _events = rules.apply(state, seat, action)
        played.append([seat, rules.action_json(action)])
    return played, True
