"""Games that are not built in: modules named by ``MEEPLE_EXTRA_GAMES``, loaded at start-up.

Each such module (importable, e.g. installed or on ``PYTHONPATH``) has a
``register()`` that calls :func:`meeple.games.register_game` and
:func:`meeple.bots.register_bot`. The server loads them before it builds its
routes, and every bot worker process loads them again (workers are spawned
fresh). docs/adding-a-game.md walks through one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import import_module

EXTRA_GAMES_VARIABLE = "MEEPLE_EXTRA_GAMES"
"""The setting naming the modules to load (``meeple.config.Settings.extra_games``)."""


def modules_named(setting: str) -> list[str]:
    """The module names of a comma-separated setting, blanks left out.

    >>> modules_named(" meeple_nim, ,other ")
    ['meeple_nim', 'other']
    """
    return [name.strip() for name in setting.split(",") if name.strip()]


def load_games_from_environment() -> None:
    """:func:`load_games` for the modules ``MEEPLE_EXTRA_GAMES`` names (the command line's way)."""
    load_games(modules_named(os.environ.get(EXTRA_GAMES_VARIABLE, "")))


def load_games(modules: Iterable[str]) -> None:
    """Import each module and call its ``register()``; ``ImportError`` naming a missing one."""
    for name in modules:
        module = import_module(name)
        register = getattr(module, "register", None)
        if not callable(register):
            raise ImportError(f"the game module {name!r} has no register() function")
        register()
