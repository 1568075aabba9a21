"""Pure rules of every game, behind the contract in :mod:`meeple.games.base`.

The registry maps a game's name to the package holding its ``GAME`` and to
its browser folder. Summy and Slide are built in, each one package with its
browser folder inside (``meeple.games.summy``, ``summy/browser/``); another
game registers itself the same way with :func:`register_game` (see
docs/adding-a-game.md and ``meeple.plugins``).

What a game offers beyond the contract (its bots, a reviewer, a puzzle
cutter, an analysis board, command-line commands, and its pages' files:
stylesheet, texts, rules page, picture, analysis page) it declares in a
:class:`GameFeatures` named ``FEATURES`` next to its ``GAME``; generic code
asks :func:`features_of` (and :func:`browser_folder` for the files) and never
names a game.

>>> get_game("summy").name
'summy'
>>> features_of("summy").reviewer
'meeple.games.summy.analysis.review:REVIEWER'
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from meeple.games.base import NO_FEATURES, AnyGame, GameFeatures

__all__ = [
    "GAME_NAMES",
    "GameFeatures",
    "browser_folder",
    "features_of",
    "games_with",
    "get_game",
    "register_game",
]

_MODULES: dict[str, str] = {"summy": "meeple.games.summy", "slide": "meeple.games.slide"}

GAME_NAMES: list[str] = list(_MODULES)
"""Every registered game, by the name used in records, URLs and the CLI.

A list that :func:`register_game` extends in place, so every module that
imported it sees a game registered later.
"""

BROWSER_DIRS: dict[str, Path] = {
    name: Path(__file__).parent / name / "browser" for name in _MODULES
}
"""The folder of each registered game's browser code and page files, by the game's name."""


def register_game(name: str, module: str, browser_dir: Path) -> None:
    """Add a game: ``module`` holds its ``GAME``; ``browser_dir`` its ``ui.js`` and page files.

    Registering the same name with the same module again does nothing.
    """
    if _MODULES.get(name, module) != module:
        raise ValueError(f"the game {name!r} is already registered from {_MODULES[name]}")
    if name not in _MODULES:
        _MODULES[name] = module
        GAME_NAMES.append(name)
    BROWSER_DIRS[name] = browser_dir


def browser_folder(name: str) -> Path:
    """The folder of the game ``name``'s browser code and page files (its ``ui.js``, its
    :class:`GameFeatures` files), served at ``/static/js/games/<name>/``."""
    get_game(name)  # KeyError naming the choices for an unknown game
    return BROWSER_DIRS[name]


def get_game(name: str) -> AnyGame:
    """The game registered under ``name``; ``KeyError`` naming the choices if none."""
    if name not in _MODULES:
        raise KeyError(f"unknown game {name!r}; choose one of: {', '.join(GAME_NAMES)}")
    game: AnyGame = import_module(_MODULES[name]).GAME
    return game


def features_of(name: str) -> GameFeatures:
    """The optional features the game ``name`` declares (its module's ``FEATURES``)."""
    get_game(name)  # KeyError naming the choices for an unknown game
    features: GameFeatures = getattr(import_module(_MODULES[name]), "FEATURES", NO_FEATURES)
    return features


def games_with(feature: str) -> list[str]:
    """The registered games that offer ``feature`` (a field of :class:`GameFeatures`)."""
    return [name for name in GAME_NAMES if getattr(features_of(name), feature) is not None]
