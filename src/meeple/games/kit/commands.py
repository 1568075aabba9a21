"""Helpers shared by the command-line modules: reading JSON input, failing cleanly."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from meeple.games.base import GameRecord, RecordError


class InputError(Exception):
    """Bad input named in one line; the command exits with status 2."""


def fail(message: str, status: int = 2) -> NoReturn:
    """Print ``meeple: message`` on standard error as one line and exit."""
    one_line = " ".join(message.split())
    print(f"meeple: {one_line}", file=sys.stderr)
    raise SystemExit(status)


def read_json_file(path: str) -> Any:
    """The JSON in ``path`` ('-' for standard input); :class:`InputError` if unreadable."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from exc
    except RecursionError:
        # json raises this on a few thousand nested brackets.
        raise InputError(f"{path} is nested too deeply to read as JSON") from None


def read_record(path: str, game_name: str) -> GameRecord:
    """The game record in ``path``; exits 2 in one line if it is unreadable or not valid."""
    try:
        record = GameRecord.from_json(read_json_file(path))
    except InputError as exc:
        fail(str(exc))
    except RecordError as exc:
        # A malformed action is a bad action (exit 1, like one that does not
        # apply); a record that is not a record at all is bad input (exit 2).
        fail(f"{path}: {exc}", status=2 if exc.index is None else 1)
    if record.game != game_name:
        fail(f"{path}: this is a {record.game!r} record, not {game_name!r}")
    return record
