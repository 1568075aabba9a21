"""Bots for every registered game, behind one interface (:class:`meeple.games.kit.bots.Bot`).

Each game names its own bots, by level, in its ``FEATURES.bots``
(:class:`meeple.games.GameFeatures`); the game server, the arena and the
bridge call :func:`get_bot` to put one in a seat, and name no game.
"""

from __future__ import annotations

from importlib import import_module

from meeple.games import GAME_NAMES, features_of
from meeple.games.kit.bots import LEVELS, Bot

__all__ = ["games_with_bot", "get_bot", "levels_for"]


def get_bot(game: str, level: str, seed: int) -> Bot:
    """A new bot for ``game`` at ``level``, deterministic for ``seed``.

    ``KeyError`` naming the choices for an unknown game or level.
    """
    where = features_of(game).bots.get(level)
    if where is None:
        raise KeyError(
            f"no {level!r} bot for {game!r}; its levels: {', '.join(levels_for(game)) or 'none'}"
        )
    module_name, _, class_name = where.partition(":")
    bot: Bot = getattr(import_module(module_name), class_name)(seed)
    return bot


def levels_for(game: str) -> tuple[str, ...]:
    """The bot levels ``game`` has, weakest first (in the order of ``LEVELS``)."""
    own = features_of(game).bots
    return tuple(level for level in LEVELS if level in own)


def games_with_bot(level: str) -> list[str]:
    """The registered games that have a bot at ``level``."""
    return [game for game in GAME_NAMES if level in features_of(game).bots]
