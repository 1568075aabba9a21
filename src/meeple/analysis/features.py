"""A game's optional analysis features, found through the registry: reviewer, puzzles, board,
hint.

A game declares them in its ``FEATURES`` (:class:`meeple.games.GameFeatures`)
as ``"module:name"``; this module imports the one asked for and says what it
must do (the protocols below). Generic code (the reviews, the puzzle, analysis
and hint routes) asks here and never names a game:

>>> from meeple.games import GAME_NAMES, games_with
>>> all(reviewer_of(game).chunk >= 1 for game in games_with("reviewer"))
True
>>> [game for game in GAME_NAMES if (board_of(game) is None) == (game in games_with("analysis"))]
[]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import Any, Protocol

from meeple.errors import Code, TableError
from meeple.games import features_of
from meeple.games.base import JSON, GameRecord, Seat


class Reviewer(Protocol):
    """Judges each action of a finished game from its mover's seat (docs/analysis.md).

    A line is JSON with at least ``index`` and ``seat``; the rest is the game's
    own (its replay hooks in the browser read it).
    """

    chunk: int
    """Actions reviewed per piece of work in the bot pool (a piece should take well under
    a second, so a live table's bot never waits long behind one)."""

    def review_action(self, index: int, state: Any, seat: Seat, data: JSON) -> dict[str, JSON]:
        """The review line of action ``index`` (``data``, by ``seat``) in ``state``, before it."""
        ...

    def summary(self, lines: Sequence[Mapping[str, Any]], players: int) -> list[dict[str, JSON]]:
        """Each seat's summary (one per seat, in order) from every line of the game."""
        ...


class PuzzleCutter(Protocol):
    """Cuts puzzles from a game and checks a solver's answer.

    A cutter may also name ``bot_levels``, one bot level per seat, for the games the
    server's bots play each other to fill a short pool (:mod:`meeple.analysis.bot_games`;
    without it, the game's strongest bot takes every seat).
    """

    def cut(self, record: GameRecord, states: Sequence[Any]) -> list[dict[str, JSON]]:
        """The puzzles of a record (``states[i]`` is the state before action ``i``), each
        stored as it is: JSON with a short unique ``id``, the ``answer`` and the ``points``
        it scores (the solver's task), without repeats."""
        ...

    def view(self, data: Mapping[str, Any]) -> dict[str, JSON]:
        """What the solver sees of a stored puzzle: a view as the game's table UI reads it."""
        ...

    def is_answer(self, move: JSON, data: Mapping[str, Any]) -> bool:
        """Whether ``move`` solves the stored puzzle; a ``Refusal`` if it is not a move."""
        ...


class AnalysisBoard(Protocol):
    """Ranks every move of a position set up by hand (the analysis board's API)."""

    max_listed: int
    """The most moves one answer lists."""

    def check(self, position: JSON) -> None:
        """A ``Refusal`` (with its code) if the position could not happen in a game; cheap,
        so the server runs it before any worker is asked."""
        ...

    def analyse(self, position: JSON, limit: int, seconds: float | None) -> dict[str, JSON]:
        """``{"count", "moves": [best first, at most limit]}``; ``TimeoutError`` if the
        search runs past ``seconds``."""
        ...


class Hinter(Protocol):
    """Suggests the best move to the seat to move, from that seat's view alone."""

    def hint(self, view: Mapping[str, Any], seconds: float | None) -> dict[str, JSON]:
        """``{"action": the move in the game's action JSON, "text": it in English, "details":
        the game's own facts about it}``; ``TimeoutError`` if the search runs past
        ``seconds``."""
        ...


def _feature(game: str, feature: str) -> Any:
    """The object the game names for ``feature``, or ``None`` (an unknown game offers none)."""
    try:
        where: str | None = getattr(features_of(game), feature)
    except KeyError:
        return None
    if where is None:
        return None
    module, _, name = where.partition(":")
    return getattr(import_module(module), name)


def no_feature(game: str, feature: str, what: str) -> TableError:
    """The refusal (404 ``no_feature``) for a game that does not offer ``feature`` (``what``
    says it in words: "analysis board")."""
    return Code.NO_FEATURE.error(game=game, feature=feature, what=what)


def reviewer_of(game: str) -> Reviewer | None:
    """The game's reviewer, if it has one."""
    reviewer: Reviewer | None = _feature(game, "reviewer")
    return reviewer


def cutter_of(game: str) -> PuzzleCutter | None:
    """The game's puzzle cutter, if it has one."""
    cutter: PuzzleCutter | None = _feature(game, "puzzles")
    return cutter


def board_of(game: str) -> AnalysisBoard | None:
    """The game's analysis board, if it has one."""
    board: AnalysisBoard | None = _feature(game, "analysis")
    return board


def hinter_of(game: str) -> Hinter | None:
    """The game's hint, if it has one."""
    hinter: Hinter | None = _feature(game, "hint")
    return hinter


def hint_for(game: str, view: Mapping[str, Any], seconds: float | None = None) -> dict[str, JSON]:
    """The game's hint for the seat of ``view`` (a bot worker runs it: the game is named, not
    passed, so only text crosses to the worker)."""
    hinter = hinter_of(game)
    if hinter is None:
        raise KeyError(f"{game!r} has no hint")
    return hinter.hint(view, seconds)


def analyse_position(
    game: str, position: JSON, limit: int, seconds: float | None = None
) -> dict[str, JSON]:
    """The game's board's analysis of ``position`` (a bot worker runs it: the game is named,
    not passed, so only text crosses to the worker)."""
    board = board_of(game)
    if board is None:
        raise KeyError(f"{game!r} has no analysis board")
    return board.analyse(position, limit, seconds)
