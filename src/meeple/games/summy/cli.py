"""``meeple summy moves | check | replay``: Summy positions, moves and game records from files.

- ``moves POSITION.json [--best N] [--text] [--engine python|compiled]``:
  every legal placement of the player to move as one JSON array
  (``docs/summy-position-format.md``), or the N best; ``--text`` prints a
  readable table instead; ``--engine`` picks the move generator's search (the
  compiled core where it is built, else the pure-Python reference; the same
  moves either way).
- ``check POSITION.json MOVE.json``: whether the move is legal and its score,
  or the rule it breaks (exit 0 legal, 1 illegal).
- ``replay RECORD.json``: the final scores, or the first bad action and why (exit 1).
- ``puzzles RECORD.json... [--json]``: the puzzles cut from the records (a
  position whose best move scores at least 20 and 1.5 times any other, the
  answer checked unique), one per line, or a JSON array.
- ``analyse RECORD.json [--json]``: every action reviewed from its mover's
  seat (the best placement it had, the points missed, the ``strong`` bot's
  choice) and a summary per player; ``--json`` prints one object per action.

Bad input (unreadable file, invalid JSON, an invalid position, move or record,
a position holding more digits than the bag) exits with status 2 and one line
on standard error.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from meeple.games.base import IllegalAction, RecordError, Refusal, replay
from meeple.games.kit.commands import InputError, fail, read_json_file, read_record
from meeple.games.summy import GAME
from meeple.games.summy.formats import (
    FormatError,
    claimed_score_and_text,
    move_to_json,
    placement_from_json,
    position_from_json,
)
from meeple.games.summy.movegen.engine import ENGINE_VARIABLE, ENGINES, use_engine
from meeple.games.summy.notation import move_text
from meeple.games.summy.rules import check_move
from meeple.games.summy.tiles import Move, Position

if TYPE_CHECKING:
    from meeple.games.summy.analysis.review import ReviewedAction


def register(subparsers: Any) -> None:
    """Add ``meeple summy`` and its sub-commands."""
    parser = subparsers.add_parser(
        "summy", help="Summy tools: list legal moves, check a move, replay a game record"
    )
    commands = parser.add_subparsers(dest="summy_command", required=True, metavar="COMMAND")

    moves = commands.add_parser("moves", help="every legal placement of the player to move")
    moves.add_argument("position", metavar="POSITION.json", help="a position ('-' for stdin)")
    moves.add_argument("--best", type=_positive, metavar="N", help="only the N highest-scoring")
    moves.add_argument("--text", action="store_true", help="a readable table instead of JSON")
    moves.add_argument(
        "--engine",
        choices=ENGINES,
        help="the move generator's search (default: compiled where built, else python;"
        f" or the {ENGINE_VARIABLE} environment variable)",
    )
    moves.set_defaults(func=run_moves)

    check = commands.add_parser("check", help="is this move legal here, and what does it score")
    check.add_argument("position", metavar="POSITION.json")
    check.add_argument("move", metavar="MOVE.json")
    check.set_defaults(func=run_check)

    replay_parser = commands.add_parser("replay", help="replay a game record: final scores")
    replay_parser.add_argument("record", metavar="RECORD.json")
    analyse = commands.add_parser(
        "analyse", help="review every action of a game record: the best move, the points missed"
    )
    analyse.add_argument("record", metavar="RECORD.json")
    analyse.add_argument("--json", action="store_true", help="one JSON object per action")
    analyse.set_defaults(func=run_analyse)
    puzzles = commands.add_parser(
        "puzzles", help="cut puzzles from game records: one clearly best move, checked unique"
    )
    puzzles.add_argument("records", metavar="RECORD.json", nargs="+")
    puzzles.add_argument("--json", action="store_true", help="a JSON array of puzzles")
    puzzles.set_defaults(func=run_puzzles)
    replay_parser.set_defaults(func=run_replay)


def _positive(text: str) -> int:
    """An argparse type: an integer of 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not 1 or more")
    return value


def _read_position(path: str) -> Position:
    """The position in ``path``; exits 2 with one line if it is bad."""
    try:
        return position_from_json(read_json_file(path))
    except (InputError, FormatError) as exc:
        fail(f"{path}: {exc}" if isinstance(exc, FormatError) else str(exc))


def moves_table(moves: Sequence[Move]) -> str:
    """Moves as a readable table: score, notation, equation, one move a line."""
    if not moves:
        return "no legal placement"
    width = max(len(move_text(move)) for move in moves)
    lines = [f"{'score':>5}  {'move':<{width}}  equation"]
    lines += [f"{m.score:>5}  {move_text(m):<{width}}  {m.equation_text}" for m in moves]
    return "\n".join(lines)


def run_moves(args: argparse.Namespace) -> int:
    """Print every legal placement (or the best N) of the position's player to move."""
    from meeple.games.summy.movegen import best_moves, legal_moves

    if args.engine:
        try:
            use_engine(args.engine)
        except ValueError as error:
            fail(str(error))
    position = _read_position(args.position)
    try:
        moves = best_moves(position, args.best) if args.best else list(legal_moves(position))
    except Refusal as exc:  # a position the move generator cannot read (too many digits)
        fail(f"{args.position}: {exc}")
    if args.text:
        print(moves_table(moves))
    else:
        print(json.dumps([move_to_json(move) for move in moves]))
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Say whether the move is legal and what it scores, or which rule it breaks."""
    position = _read_position(args.position)
    try:
        data = read_json_file(args.move)
        placement = placement_from_json(data)
        claimed_score, claimed_text = claimed_score_and_text(data)
    except InputError as exc:
        fail(str(exc))
    except FormatError as exc:
        fail(f"{args.move}: {exc}")
    try:
        move = check_move(position, placement)
    except IllegalAction as exc:
        print(f"illegal: {exc}")
        return 1
    if claimed_text is not None and claimed_text != move.equation_text:
        print(f"illegal: the move makes {move.equation_text}, not {claimed_text} as the file says")
        return 1
    if claimed_score is not None and claimed_score != move.score:
        print(f"illegal: the move scores {move.score}, not {claimed_score} as the file says")
        return 1
    print(f"legal: {move.equation_text} scores {move.score} ({move_text(move)})")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """Replay a record: final (or current) scores, or the first bad action and why."""
    record = read_record(args.record, GAME.name)
    try:
        states = replay(GAME, record)
    except RecordError as exc:
        print(f"refused: {exc}")
        return 1
    final = states[-1]
    for seat, score in enumerate(final.scores):
        print(f"seat {seat}: {score}")
    result = GAME.result(final)
    if result is None:
        print(f"not over after {len(record.actions)} actions: seat {final.turn} to move")
    elif len(result.winners) > 1:
        seats = ", ".join(str(seat) for seat in result.winners)
        print(f"shared victory: seats {seats} ({result.reason})")
    else:
        print(f"winner: seat {result.winners[0]} ({result.reason})")
    return 0


def run_analyse(args: argparse.Namespace) -> int:
    """Review every action of a record; a table and a summary per player, or JSON."""
    from meeple.games.summy.analysis.review import review_game

    record = read_record(args.record, GAME.name)
    try:
        review = review_game(record)
    except RecordError as exc:
        fail(f"{args.record}: {exc}")
    if args.json:
        print(json.dumps([line.to_json() for line in review]))
    else:
        print_review(review, int(record.options.get("players", 2)))
    return 0


def print_review(review: Sequence[ReviewedAction], players: int) -> None:
    """The review as a table, then each player's summary (rich, on standard output)."""
    from rich.console import Console
    from rich.table import Table

    from meeple.games.summy.analysis.review import summarize

    table = Table(title="Summy game review (from each mover's seat)")
    for column in ("#", "seat", "played", "points", "best", "best points", "missed", "strong"):
        table.add_column(
            column, justify="right" if "points" in column or column == "missed" else "left"
        )
    for line in review:
        played = move_text(line.played_move) if line.played_move else line.played_type
        best = move_text(line.best) if line.best is not None else "-"
        strong = f"differs ({line.strong_score} points)" if line.strong_differs else ""
        missed = str(line.missed) if line.missed else ""
        table.add_row(
            str(line.index),
            str(line.seat),
            played,
            str(line.played_score),
            best,
            str(line.best_score),
            missed,
            strong,
        )
    console = Console(width=140)
    console.print(table)
    for summary in summarize(review, players):
        worst = summary.biggest_miss
        biggest = f"; biggest miss {worst[1]} at #{worst[0]}" if worst else ""
        console.print(
            f"seat {summary.seat}: {summary.turns} turns, {summary.missed} points missed"
            f" ({summary.missed_per_turn:.1f} a turn), best move played in"
            f" {summary.best_share:.0%} of turns{biggest}"
        )


def run_puzzles(args: argparse.Namespace) -> int:
    """Print the puzzles found in every record (repeats once)."""
    from meeple.games.summy.analysis.puzzles import puzzles_from_record, unique_puzzles

    found = []
    for path in args.records:
        record = read_record(path, GAME.name)
        try:
            found += puzzles_from_record(record)
        except RecordError as exc:
            fail(f"{path}: {exc}")
    puzzles = unique_puzzles(found)
    if args.json:
        print(json.dumps([puzzle.to_json() for puzzle in puzzles]))
        return 0
    for puzzle in puzzles:
        hand = "".join(sorted(puzzle.position.hand))
        print(
            f"{puzzle.id}  hand {hand:<8}  {puzzle.answer.score:>3} points"
            f" (next best {puzzle.second})  {move_text(puzzle.answer)}"
        )
    print(f"{len(puzzles)} puzzle(s) from {len(args.records)} record(s)")
    return 0
