"""Games that are not built in: modules named by ``MEEPLE_EXTRA_GAMES``, loaded at start-up.

Each such module (importable, e.g. installed or on ``PYTHONPATH``) has a
``register()`` that calls :func:`meeple.games.register_game` and
:func:`meeple.bots.register_bot`. The server loads them before it builds its
routes, and every bot worker process loads them again (workers are spawned
fresh). docs/adding-a-game.md walks through one.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module


def load_games(modules: Iterable[str]) -> None:
    """Import each module and call its ``register()``; ``ImportError`` naming a missing one."""
    for name in modules:
        module = import_module(name)
        register = getattr(module, "register", None)
        if not callable(register):
            raise ImportError(f"the game module {name!r} has no register() function")
        register()
