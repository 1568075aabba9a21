"""Pure rules of every game, behind the contract in :mod:`meeple.games.base`.

>>> get_game("summy").name
'summy'
"""

from __future__ import annotations

from importlib import import_module

from meeple.games.base import AnyGame

GAME_NAMES: tuple[str, ...] = ("summy", "slide")
"""Every registered game, by the name used in records, URLs and the CLI."""


def get_game(name: str) -> AnyGame:
    """The game registered under ``name``; ``KeyError`` naming the choices if none."""
    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}; choose one of: {', '.join(GAME_NAMES)}")
    game: AnyGame = import_module(f"meeple.games.{name}").GAME
    return game
