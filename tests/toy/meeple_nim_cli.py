"""Nim's command line (its ``FEATURES.commands``): ``meeple nim best 3 4 5`` names the winning take.

A game's commands are a module with ``register(subparsers)``; ``meeple`` adds them when the
game is loaded, built in or named by ``MEEPLE_EXTRA_GAMES``.
"""

from __future__ import annotations

import argparse
from typing import Any

from meeple_nim import winning_take


def best(args: argparse.Namespace) -> int:
    """Print the take that leaves a nim-sum of zero, or that none does."""
    take = winning_take(args.piles)
    if take is None:
        print("no winning take: every take loses against best play")
    else:
        print(f"take {take.count} from pile {take.pile + 1}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``meeple nim best PILE...``."""
    nim = subparsers.add_parser("nim", help="Nim, the toy game of the tests")
    commands = nim.add_subparsers(dest="nim_command", required=True, metavar="COMMAND")
    parser = commands.add_parser("best", help="the winning take from these piles")
    parser.add_argument("piles", type=int, nargs="+", help="the counters in each pile")
    parser.set_defaults(func=best)
