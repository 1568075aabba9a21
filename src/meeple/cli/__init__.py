"""The ``meeple`` command line: one sub-command group per module of :func:`command_modules`.

Each game's group is the module its registration names (``FEATURES.commands``,
see :mod:`meeple.games`), a game of ``MEEPLE_EXTRA_GAMES`` included; the rest
are listed in :data:`COMMAND_MODULES`. Each module has ``register(subparsers)``,
which adds its parser and sets ``func`` to a callable taking the parsed
arguments and returning the exit status.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module

from meeple.games import GAME_NAMES, features_of
from meeple.games.kit.commands import fail
from meeple.plugins import EXTRA_GAMES_VARIABLE, load_games_from_environment

COMMAND_MODULES: tuple[str, ...] = (
    "meeple.cli.arena",
    "meeple.cli.backup",
    "meeple.cli.bot",
    "meeple.cli.moderation",
    "meeple.cli.serve",
)
"""The command groups that belong to no one game."""


def command_modules() -> list[str]:
    """Every command group's module: each registered game's own, then :data:`COMMAND_MODULES`."""
    games = [features_of(name).commands for name in GAME_NAMES]
    return [module for module in games if module is not None] + list(COMMAND_MODULES)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every command group registered."""
    parser = argparse.ArgumentParser(
        prog="meeple",
        description=f"Play {', '.join(GAME_NAMES)}: the rules, bots and the game server.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in command_modules():
        import_module(module).register(subparsers)
    return parser


def load_extra_games() -> None:
    """Load the games ``MEEPLE_EXTRA_GAMES`` names, as the server does, so their commands
    and their games work here too; one line and exit status 2 if one cannot be loaded."""
    try:
        load_games_from_environment()
    except Exception as exc:  # an import error, or anything a module's register() raises
        setting = os.environ.get(EXTRA_GAMES_VARIABLE, "")
        fail(f"cannot load the games of {EXTRA_GAMES_VARIABLE} ({setting}): {exc}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    load_extra_games()
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``meeple ... | head``): stop quietly, and keep
        # Python from failing again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
