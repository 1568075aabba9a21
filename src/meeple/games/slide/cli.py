"""``meeple slide``: replay a Slide game record, score a final grid.

- ``meeple slide replay RECORD.json [--json]`` prints the final grids after
  cancelling and the ranking (``--json``: the result as JSON). A record whose
  action does not apply, or that stops before the end, exits 1 naming the
  first bad action and why; an unreadable or malformed record exits 2.
- ``meeple slide score GRID.json`` reads a final grid, a JSON list of 4 rows,
  each a list of 4 card values from 1 to 10 (row 0 on top), and prints
  ``{"points": ..., "cards_left": ..., "grid": ...}`` where ``grid`` is the
  grid after cancelling with ``null`` for each removed card.
- ``meeple slide analyse RECORD.json [--json] [--playouts N]`` values every
  option of every decision by play-outs from the decider's view (expected
  final points and standard error) and prints the option chosen, the best one
  and the expected points given away (``--json``: one object per action).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from meeple.games.base import JSON, RecordError, Result, replay
from meeple.games.kit.commands import InputError, fail, read_json_file, read_record
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
    analyse = commands.add_parser(
        "analyse", help="value every option of every decision by play-outs: what was given away"
    )
    analyse.add_argument("record", help="game record JSON file ('-' for standard input)")
    analyse.add_argument("--json", action="store_true", help="one JSON object per action")
    analyse.add_argument(
        "--playouts", type=int, default=64, metavar="N", help="play-outs per option (default 64)"
    )
    analyse.set_defaults(func=run_analyse)


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


def run_analyse(args: argparse.Namespace) -> int:
    """Review every decision of a Slide record by play-outs; a table, or JSON lines."""
    from rich.console import Console
    from rich.table import Table

    from meeple.games.slide.review import review_slide_game

    if not 1 <= args.playouts <= 10_000:
        fail("--playouts must be between 1 and 10000")
    record = read_record(args.record, GAME.name)
    try:
        review = review_slide_game(record, args.playouts)
    except RecordError as exc:
        fail(f"{args.record}: {exc}")
    if args.json:
        print(json.dumps([decision.to_json() for decision in review]))
        return 0
    table = Table(title="Slide game review: expected final points by play-outs (lower is better)")
    for column in ("#", "seat", "chosen", "points", "best", "best points", "given away"):
        table.add_column(
            column, justify="right" if "points" in column or column == "given away" else "left"
        )
    for decision in review:
        line = decision.to_json()
        table.add_row(
            str(decision.index),
            str(decision.seat),
            _action_text(decision.chosen),
            f"{line['chosen_points']:.1f}",
            _action_text(decision.options[0].action),
            f"{line['best_points']:.1f}",
            f"{decision.given_away:.1f}" if decision.given_away else "",
        )
    console = Console(width=120)
    console.print(table)
    players = int(record.options.get("players", 2))
    for seat in range(players):
        mine = [d for d in review if d.seat == seat]
        best = sum(d.given_away == 0 for d in mine)
        console.print(
            f"seat {seat}: {len(mine)} decisions, best option in {best},"
            f" {sum(d.given_away for d in mine):.1f} expected points given away"
        )
    return 0


def _action_text(action: dict[str, Any]) -> str:
    """A short text for a Slide action: ``reveal r,c`` or ``take 7 left``."""
    if action["type"] == "reveal":
        row, col = action["cell"]
        return f"reveal {row},{col}"
    return f"take {action['value']} {action['side']}"
