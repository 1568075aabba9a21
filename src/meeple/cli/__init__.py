"""The ``meeple`` command line: one sub-command group per module listed below.

Each module in :data:`COMMAND_MODULES` has ``register(subparsers)``, which adds
its parser and sets ``func`` to a callable taking the parsed arguments and
returning the exit status.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module

COMMAND_MODULES: tuple[str, ...] = ("summy", "slide", "arena", "serve")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every command group registered."""
    parser = argparse.ArgumentParser(
        prog="meeple", description="Play Summy and Slide: rules, bots and the game server."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        import_module(f"meeple.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
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
