"""``meeple slide``: replay a Slide game record, score a final grid.

- ``meeple slide replay RECORD.json [--json]`` prints the final grids after
  cancelling and the ranking (``--json``: the result as JSON). A record whose
  action does not apply, or that stops before the end, exits 1 naming the
  first bad action and why; an unreadable or malformed record exits 2.
- ``meeple slide score GRID.json`` reads a final grid, a JSON list of 4 rows,
  each a list of 4 card values from 1 to 10 (row 0 on top), and prints
  ``{"points": ..., "cards_left": ..., "grid": ...}`` where ``grid`` is the
  grid after cancelling with ``null`` for each removed card.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from meeple.cli.common import InputError, fail, read_json_file, read_record
from meeple.games.base import JSON, RecordError, Result, replay
from meeple.games.slide import GAME
from meeple.games.slide.grid import SIZE, final_tally, rows


def register(subparsers: Any) -> None:
    """Add ``slide replay`` and ``slide score`` to the ``meeple`` command."""
    parser = subparsers.add_parser("slide", help="Slide: replay a game record, score a grid")
    commands = parser.add_subparsers(dest="slide_command", required=True, metavar="COMMAND")
    replay_parser = commands.add_parser(
        "replay", help="replay a game record; print the final grids and the ranking"
    )
    replay_parser.add_argument("record", help="game record JSON file ('-' for standard input)")
    replay_parser.add_argument("--json", action="store_true", help="print the result as JSON")
    replay_parser.set_defaults(func=run_replay)
    score_parser = commands.add_parser(
        "score", help="points and cards left of a final 4x4 grid after cancelling, as JSON"
    )
    score_parser.add_argument("grid", help="JSON file: 4 lists of 4 values 1..10 ('-': stdin)")
    score_parser.set_defaults(func=run_score)


def run_replay(args: argparse.Namespace) -> int:
    """Replay ``args.record``; print the final grids and ranking (exit 1 on a bad action)."""
    record = read_record(args.record, GAME.name)
    try:
        states = replay(GAME, record)
    except RecordError as exc:
        fail(str(exc), status=2 if exc.index is None else 1)
    result = GAME.result(states[-1])
    if result is None:
        state = states[-1]
        fail(
            f"the record stops before the end of the game (deal {state.deal}, "
            f"round {state.round}, {state.phase})",
            status=1,
        )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(format_result(result, match=bool(record.options.get("match_to_100", False))))
    return 0


def format_result(result: Result, match: bool) -> str:
    """The final grids after cancelling (``.`` for a removed card) and the ranking, as text."""
    cards = result.details["cards_left"]
    last_scores = result.details["deal_scores"][-1]
    lines = ["final grids after cancelling (. = cancelled):"]

    def figures(seat: int) -> str:
        own = f"{last_scores[seat]} points, {cards[seat]} cards left"
        return f"running total {result.scores[seat]} ({own} in the last deal)" if match else own

    for seat, grid in enumerate(result.details["final_grids"]):
        lines.append(f"seat {seat}: {figures(seat)}")
        for row in grid:
            lines.append("  " + " ".join(f"{'.' if v is None else v:>2}" for v in row))
    lines.append("ranking:")
    order = sorted(range(len(result.ranks)), key=lambda s: (result.ranks[s], s))
    lines.extend(f"  {result.ranks[s]}. seat {s}: {figures(s)}" for s in order)
    if match:
        lines.append(f"deals played: {result.details['deals']}")
    return "\n".join(lines)


def read_grid(data: JSON) -> tuple[int, ...]:
    """A final grid from its JSON form; :class:`InputError` saying what is wrong."""
    if not isinstance(data, list) or len(data) != SIZE:
        raise InputError("a grid must be a JSON list of 4 rows")
    values: list[int] = []
    for r, row in enumerate(data):
        if not isinstance(row, list) or len(row) != SIZE:
            raise InputError(f"row {r} must be a list of 4 card values")
        for c, value in enumerate(row):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 10:
                raise InputError(
                    f"the card at ({r},{c}) must be a value from 1 to 10, not {value!r}"
                )
            values.append(value)
    return tuple(values)


def run_score(args: argparse.Namespace) -> int:
    """Print the points and cards left of the grid in ``args.grid`` after cancelling."""
    try:
        values = read_grid(read_json_file(args.grid))
    except InputError as exc:
        fail(str(exc))
    points, left, after = final_tally(values)
    print(json.dumps({"points": points, "cards_left": left, "grid": rows(after)}))
    return 0
