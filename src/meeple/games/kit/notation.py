"""A whole game as text (docs/notation.md): a header, then one line per move in the game's own
move notation.

A game offers it by naming a :class:`MoveNotation` in its ``FEATURES``
(``notation="meeple.games.summy.game_text:NOTATION"``); the replay's download and the
analysis board's import use it without naming the game. The header holds what the
record holds besides the moves (``game``, ``options``, ``seed``) and, for readers, the
players' names and the final scores; each move line is ``N. seat S: MOVE``, with the
move number from 1 and the seat as the pages number it (from 1), and an optional
``# comment`` (the writer adds the points a move scored, where the game has them).

Reading replays every move through the game's own ``apply``: a text is either a game
the engine accepts or a :class:`TextError` naming its line and why, in the engine's
words for a move the rules refuse. Pure, like the rest of :mod:`meeple.games`.

>>> from meeple.games import get_game
>>> text = '''game: summy
... options: {"players": 2}
... seed: 11
...
... 1. seat 2: V -3,0 1+7[=]8'''
>>> read_text(get_game("summy"), text).record.actions
((1, {'type': 'place', 'dir': 'V', 'tiles': [...]}),)
>>> read_text(get_game("summy"), text.replace("V -3,0", "H -3,0"))
Traceback (most recent call last):
...
meeple.games.kit.notation.TextError: line 5: ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

from meeple.games import features_of
from meeple.games.base import JSON, AnyGame, GameRecord, Refusal, Seat

HEADER_KEYS = ("game", "options", "seed")
"""The header lines a text must have: with the moves, they are the whole record."""

MAX_SEED_DIGITS = 40
"""A seed is an integer of at most this many digits (a table's are 63-bit)."""

_MOVE = re.compile(r"([0-9]+)\.\s+seat\s+([0-9]+):\s*(.*)")  # \d would take any script's digits
_HEADER = re.compile(r"([a-z][a-z0-9_ ]*):\s*(.*)")
_SEAT_KEY = re.compile(r"seat ([0-9]+)")
_SEED = re.compile(r"-?[0-9]+")


class MoveNotation(Protocol):
    """A game's moves as text, one move at a time, in the state it is played in."""

    def write(self, state: Any, seat: Seat, action: Any) -> str:
        """The move ``action`` (the game's action, legal here) of ``seat`` as text."""
        ...

    def note(self, state: Any, seat: Seat, action: Any) -> str:
        """What a reader may like to know of the move (``"4 points"``), or ``""``; written as
        the line's comment, never read back."""
        ...

    def read(self, state: Any, seat: Seat, text: str) -> Any:
        """The game's action ``text`` writes; a ``Refusal`` if it writes none (code
        ``notation_move``) or one the rules refuse (the engine's own)."""
        ...


class TextError(Refusal):
    """A game text that does not read or does not replay: ``line`` (from 1) is where, ``why``
    the refusal's own sentence, and the message is ``line N: why``."""

    default_code = "notation_line"

    def __init__(self, line: int, why: str, code: str, **params: JSON) -> None:
        super().__init__(f"line {line}: {why}", code, **params)
        self.line = line
        self.why = why


@dataclass(frozen=True)
class ImportedMove:
    """One move line read: its seat (from 0), the action in the game's JSON, its text."""

    seat: Seat
    action: JSON
    text: str


@dataclass(frozen=True)
class ImportedGame:
    """A game text read and replayed: its record, the names it gives, every move and state."""

    record: GameRecord
    names: tuple[str | None, ...]
    """Per seat, the name the header gives (``seat 1: ann``), or ``None``."""
    moves: tuple[ImportedMove, ...]
    states: tuple[Any, ...]
    """``states[i]`` is the state before move ``i + 1``; the last one, after every move."""


def notation_of(game: str) -> MoveNotation | None:
    """The move notation the game ``game`` declares, if any (``None`` for an unknown game)."""
    try:
        where = features_of(game).notation
    except KeyError:
        return None
    if where is None:
        return None
    module, _, name = where.partition(":")
    notation: MoveNotation = getattr(import_module(module), name)
    return notation


def _notation(game: AnyGame) -> MoveNotation:
    notation = notation_of(game.name)
    if notation is None:
        raise KeyError(f"{game.name!r} has no move notation")
    return notation


def write_text(
    game: AnyGame,
    record: GameRecord,
    names: Sequence[str | None] = (),
) -> str:
    """The game text of ``record`` (a record that replays), with the players' ``names`` (per
    seat; ``None`` or missing: no name line) and, once the game is over, its scores and ranks.
    """
    notation = _notation(game)
    state = game.setup(record.options, record.seed)
    lines = [
        "# a game text of meeple (docs/notation.md)",
        f"game: {record.game}",
        f"options: {json.dumps(dict(record.options), sort_keys=True)}",
        f"seed: {record.seed}",
    ]
    lines += [f"seat {seat + 1}: {name}" for seat, name in enumerate(names) if name]
    moves = []
    for number, (seat, data) in enumerate(record.actions, start=1):
        action = game.parse_action(data)
        note = notation.note(state, seat, action)
        line = f"{number}. seat {seat + 1}: {notation.write(state, seat, action)}"
        moves.append(f"{line}  # {note}" if note else line)
        state, _effects = game.apply(state, seat, action)
    result = game.result(state)
    if result is not None:
        lines.append(f"scores: {' '.join(str(score) for score in result.scores)}")
        lines.append(f"ranks: {' '.join(str(rank) for rank in result.ranks)}")
    return "\n".join([*lines, "", *moves]) + "\n"


@dataclass(frozen=True)
class _Start:
    """What the header gives: the first state and the record's seed and options, the names."""

    state: Any
    seed: int
    options: dict[str, JSON]
    names: tuple[str | None, ...]


def _header(game: AnyGame, found: dict[str, tuple[int, str]], last_line: int) -> _Start:
    """The first state, from the header's ``game``, ``options`` and ``seed``, and the names."""
    for key in HEADER_KEYS:
        if key not in found:
            where = last_line or 1
            raise TextError(where, f"the text has no '{key}:' line", "notation_missing", key=key)
    line, named = found["game"]
    if named != game.name:
        why = f"this is a game of {named[:20]!r}, not of {game.name!r}"
        raise TextError(line, why, "notation_game", found=named[:20], game=game.name)
    line, seed_text = found["seed"]
    if not _SEED.fullmatch(seed_text) or len(seed_text.lstrip("-")) > MAX_SEED_DIGITS:
        why = f"the seed must be a whole number of at most {MAX_SEED_DIGITS} digits"
        raise TextError(line, why, "notation_seed", most=MAX_SEED_DIGITS)
    line, options_text = found["options"]
    try:
        options = json.loads(options_text)
    except ValueError:
        options = None
    if not isinstance(options, dict):
        why = 'the options must be a JSON object, like {"players": 2}'
        raise TextError(line, why, "notation_options")
    try:
        state = game.setup(options, int(seed_text))
    except Refusal as exc:  # BadOptions, in the game's words
        raise TextError(line, str(exc), exc.code, **exc.params) from None
    players = options["players"]  # the contract: setup took it as the number of seats
    return _Start(state, int(seed_text), options, _names(found, players))


def _names(found: dict[str, tuple[int, str]], players: int) -> tuple[str | None, ...]:
    """Each seat's name from its ``seat N:`` line; a seat the game does not have is refused."""
    names: list[str | None] = [None] * players
    for key, (line, value) in found.items():
        match = _SEAT_KEY.fullmatch(key)
        if match is None:
            continue  # another line for readers (scores, ranks, a date): not read
        seat = int(match[1][:6])
        if not 1 <= seat <= players:
            why = f"there is no seat {seat}: the seats are 1 to {players}"
            raise TextError(line, why, "notation_seat", seat=seat, players=players)
        names[seat - 1] = value[:40] or None
    return tuple(names)


def read_text(game: AnyGame, text: str) -> ImportedGame:
    """The game ``text`` writes, replayed through ``game``'s own rules; :class:`TextError`
    naming the first line that does not read or does not replay, and why."""
    notation = _notation(game)
    found: dict[str, tuple[int, str]] = {}
    start: _Start | None = None
    moves: list[ImportedMove] = []
    states: list[Any] = []
    last_line = 0
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        last_line = number
        move = _MOVE.fullmatch(line)
        if move is None:
            header = _HEADER.fullmatch(line)
            if header is None or start is not None:
                why = "this line is neither a header 'key: value' nor a move 'N. seat S: move'"
                raise TextError(number, why, "notation_line")
            key = " ".join(header[1].split())
            if key in found:
                raise TextError(number, f"'{key}:' is given twice", "notation_twice", key=key)
            found[key] = (number, header[2].strip())
            continue
        if start is None:
            start = _header(game, found, number)
            states.append(start.state)
        players = len(start.names)
        states.append(_move(game, notation, states[-1], number, move, players, moves))
    if start is None:
        start = _header(game, found, last_line)
        states.append(start.state)
    actions = tuple((move.seat, move.action) for move in moves)
    record = GameRecord(game.name, start.options, start.seed, actions)
    return ImportedGame(record, start.names, tuple(moves), tuple(states))


def _move(
    game: AnyGame,
    notation: MoveNotation,
    state: Any,
    line: int,
    match: re.Match[str],
    players: int,
    moves: list[ImportedMove],
) -> Any:
    """The state after the move line ``match`` (appended to ``moves``), or :class:`TextError`."""
    number, seat_text, written = match[1], match[2], match[3].split("#", 1)[0].strip()
    expected = len(moves) + 1
    if len(number) > 6 or int(number) != expected:
        why = f"move {expected} comes next, not move {number[:6]}"
        raise TextError(line, why, "notation_number", number=number[:6], expected=expected)
    seat = int(seat_text[:6]) - 1
    if not 0 <= seat < players:
        why = f"there is no seat {seat + 1}: the seats are 1 to {players}"
        raise TextError(line, why, "notation_seat", seat=seat + 1, players=players)
    if game.result(state) is not None:
        raise TextError(line, "the game is already over", "notation_over")
    if seat not in game.to_act(state):
        why = f"seat {seat + 1} may not act now"
        raise TextError(line, why, "notation_turn", seat=seat + 1)
    try:
        action = notation.read(state, seat, written)
        after, _effects = game.apply(state, seat, action)
    except Refusal as exc:  # the notation's, or the engine's IllegalAction in its own words
        raise TextError(line, str(exc), exc.code, **exc.params) from None
    moves.append(ImportedMove(seat, game.action_json(action), written))
    return after
