"""The rules of every game stay pure, and one module of ``meeple.games`` reads a clock.

A game's rules (``meeple.games.base`` and the modules of a game's package that
its ``FEATURES`` does not name) do no I/O, read no clock and draw from no
global random generator: a game replays from ``(game, options, seed,
actions)``. Its bots, reviewers and commands live in the same package; they
spend a fixed amount of work, and their only clock is the safety stop of
``meeple.games.kit.clock`` (docs/adding-a-game.md, docs/bots.md).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import meeple.games
from meeple.games import _MODULES, features_of

GAMES_DIR = Path(meeple.games.__file__).parent
SRC = GAMES_DIR.parents[1]
CLOCK_MODULE = "meeple.games.kit.clock"

CLOCKS = {"time", "datetime"}
INPUT_OUTPUT = {
    "asyncio",
    "http",
    "importlib",
    "io",
    "logging",
    "os",
    "pathlib",
    "shutil",
    "socket",
    "sqlite3",
    "subprocess",
    "sys",
    "tempfile",
    "threading",
    "urllib",
}


def module_name(path: Path) -> str:
    """``src/meeple/games/summy/rules.py`` -> ``meeple.games.summy.rules``."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules_of_games() -> dict[str, ast.Module]:
    """Every module under ``meeple.games``, parsed, by its dotted name."""
    return {
        module_name(path): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(GAMES_DIR.rglob("*.py"))
    }


def imported(tree: ast.Module) -> set[str]:
    """The top-level names of the modules ``tree`` imports (``os`` for ``os.path``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def features_modules(game: str) -> set[str]:
    """The modules a game's ``FEATURES`` names: its bots, reviewer, puzzles, board, commands."""
    features = features_of(game)
    named = [*features.bots.values(), features.reviewer, features.puzzles, features.analysis]
    modules = {where.partition(":")[0] for where in named if where}
    return modules | ({features.commands} if features.commands else set())


def rules_modules() -> list[str]:
    """``meeple.games.base`` and each built-in game's own rules: the modules directly in its
    package that its ``FEATURES`` does not name (its sub-packages are its bots and analysis)."""
    found = ["meeple.games.base"]
    for game, package in _MODULES.items():
        if not package.startswith("meeple.games."):
            continue
        features = features_modules(game)
        found += [
            name
            for name in modules_of_games()
            if name.rpartition(".")[0] == package or name == package
            if name not in features and not (GAMES_DIR / game / name.split(".")[-1]).is_dir()
        ]
    return sorted(found)


def test_the_rules_modules_are_found() -> None:
    rules = rules_modules()
    assert {"meeple.games.summy.rules", "meeple.games.slide.grid"} <= set(rules)
    assert not {"meeple.games.summy.cli", "meeple.games.slide.review"} & set(rules)


@pytest.mark.parametrize("module", rules_modules())
def test_a_games_rules_do_no_input_or_output(module: str) -> None:
    assert not imported(modules_of_games()[module]) & (INPUT_OUTPUT | CLOCKS), module


def test_only_the_clock_module_of_the_games_layer_reads_a_clock() -> None:
    readers = sorted(name for name, tree in modules_of_games().items() if imported(tree) & CLOCKS)
    assert readers == [CLOCK_MODULE]


def test_nothing_in_the_games_layer_draws_from_the_global_random_generator() -> None:
    # Every draw comes from a seeded random.Random: a game's seed, a bot's view_rng.
    drawn = []
    for name, tree in modules_of_games().items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                drawn.append(f"{name}: random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                drawn += [f"{name}: from random import {a.name}" for a in node.names]
    assert [line for line in drawn if not line.endswith("import Random")] == []
