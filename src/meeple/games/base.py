"""The game contract that every meeple game implements.

A game is a set of pure functions over immutable state, in the spirit of
OpenSpiel and boardgame.io: nothing here does I/O, reads a clock or touches
the global random generator. Everything random comes from the seed given to
``setup``, so a game is fully described by its :class:`GameRecord`.

Actions cross every boundary (server, CLI, bots, records) as JSON-able dicts;
each game parses them with ``parse_action`` and writes them with
``action_json``. The effects ``apply`` returns (a table's action event carries
them as its ``events``) are *public*: they never hold a secret (a hand, a drawn
tile, a face-down value, a pending pick), so they may be broadcast to every seat
and spectator as they are. What a seat may know is
only ever given by ``view``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, TypeVar, runtime_checkable

from pydantic import BaseModel

JSON: TypeAlias = Any
"""A value that ``json.dumps`` accepts: dict, list, str, int, float, bool, None."""

Seat: TypeAlias = int
"""A seat number, 0-based, in clockwise order."""

Effect: TypeAlias = dict[str, JSON]
"""A public description of what an action did, e.g. ``{"type": "place", ...}``: the game's
own part of the table's action event (its ``events``), not an event of the table."""


class Refusal(ValueError):
    """Something a game refuses: the English sentence, a stable ``code`` and its ``params``.

    The code names the rule (``"eq_false"``) and the params fill the sentence's
    blanks (``{"left": "2+3x4", "value": "14", "claimed": "20"}``), so a client
    can show the refusal in any language; the English is the fallback.
    """

    default_code = "refused"

    def __init__(self, message: str, code: str | None = None, **params: JSON) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.params: dict[str, JSON] = params


class IllegalAction(Refusal):
    """An action that breaks a rule; the message says which, in plain words."""

    default_code = "illegal"


def refuse_unknown_keys(data: Mapping[str, JSON], allowed: Sequence[str], what: str) -> None:
    """:class:`IllegalAction` if ``data`` has a key beyond ``allowed`` (``what`` names it).

    >>> refuse_unknown_keys({"type": "pass", "junk": 1}, ("type",), "a pass")
    Traceback (most recent call last):
    ...
    meeple.games.base.IllegalAction: a pass takes only 'type', not 'junk'
    """
    extra = [key for key in data if key not in allowed]
    if extra:
        shown = ", ".join(repr(key[:20] + "..." if len(key) > 20 else key) for key in extra[:3])
        takes = ", ".join(repr(key) for key in allowed)
        raise IllegalAction(f"{what} takes only {takes}, not {shown}")


class BadOptions(Refusal):
    """Table options or a player count that the game does not accept."""

    default_code = "bad_options"


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``scores[s]`` and ``ranks[s]`` are for seat ``s``; rank 1 is first and
    equal players share a rank (1, 1, 3). ``winners`` are the seats ranked 1
    (more than one for a shared victory). ``reason`` is a short plain-words
    explanation, e.g. "stock empty and a full round without an equation".
    ``details`` holds game-specific figures (cards left, running totals).
    ``reason_code`` and ``reason_params`` name the reason for translations
    (like a :class:`Refusal`'s code and params).
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    reason: str
    details: Mapping[str, JSON] = field(default_factory=dict)
    reason_code: str = ""
    reason_params: Mapping[str, JSON] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[Seat, ...]:
        """The seats that share first place."""
        return tuple(s for s, r in enumerate(self.ranks) if r == 1)

    def to_json(self) -> dict[str, JSON]:
        """This result as a JSON-able dict."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "reason": self.reason,
            "reason_code": self.reason_code,
            "reason_params": dict(self.reason_params),
            "details": dict(self.details),
        }


def ranks_from_keys(keys: Sequence[tuple[Any, ...]]) -> tuple[int, ...]:
    """Competition ranks (1, 1, 3) from per-seat sort keys, lower key = better.

    >>> ranks_from_keys([(12, 3), (12, 4), (9, 5), (12, 3)])
    (2, 4, 1, 2)
    """
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class Game(Protocol[StateT, ActionT]):
    """What every game module provides (see ``summy.GAME`` and ``slide.GAME``).

    Generic over the game's own state and action types: ``SummyGame`` is a
    ``Game[SummyState, Action]``. A state is immutable; code outside the game
    treats it as opaque and only passes it back to these functions. Actions
    cross every boundary as JSON (:meth:`parse_action`, :meth:`action_json`);
    views are JSON objects whose keys each game documents as a ``TypedDict``.
    Code that holds any game uses :data:`AnyGame`.
    """

    name: str
    min_players: int
    max_players: int
    quick_play_seats: int
    """How many seats a quick-play table of this game has."""
    options_model: type[BaseModel]
    """The table options besides ``players``: types, defaults and descriptions.

    The REST schema and the create-table form are made from it; its defaults
    are :meth:`default_options` less ``players``.
    """

    def default_options(self, players: int) -> dict[str, JSON]:
        """The options of a new table with this many players."""
        ...

    def setup(self, options: Mapping[str, JSON], seed: int) -> StateT:
        """A new game. ``options["players"]`` is the number of seats.

        Raises :class:`BadOptions` for options the game does not accept.
        """
        ...

    def to_act(self, state: StateT) -> frozenset[Seat]:
        """The seats that may act now (several during a simultaneous step)."""
        ...

    def legal_actions(self, state: StateT, seat: Seat) -> Iterable[ActionT]:
        """Every action ``seat`` may take now, each exactly once."""
        ...

    def apply(self, state: StateT, seat: Seat, action: ActionT) -> tuple[StateT, list[Effect]]:
        """The state after ``seat`` takes ``action``, and its public effects.

        Raises :class:`IllegalAction` with a plain-words message naming the
        rule broken; the given state is never changed.
        """
        ...

    def view(self, state: StateT, seat: Seat | None) -> Mapping[str, JSON]:
        """What ``seat`` may know (``None``: a spectator), as a JSON object."""
        ...

    def result(self, state: StateT) -> Result | None:
        """The result once the game is over, else ``None``."""
        ...

    def resample_hidden(self, state: StateT, seat: Seat | None, rng: random.Random) -> StateT:
        """A state ``seat`` cannot tell from ``state``: all it may not see, redrawn.

        Hands, the stock, face-down values and others' pending picks are dealt
        again from what is unseen by ``seat`` (``None``: a spectator), using
        only ``rng``. ``view(result, seat)`` equals ``view(state, seat)``.
        Bots use it to sample possible worlds; tests use it to prove that
        views leak nothing.
        """
        ...

    def parse_action(self, data: JSON) -> ActionT:
        """An action from its JSON form; :class:`IllegalAction` if malformed."""
        ...

    def action_json(self, action: ActionT) -> JSON:
        """The JSON form of an action (``parse_action`` reads it back)."""
        ...


@dataclass(frozen=True)
class Preview:
    """What an action would do in a position a player sees, before it is sent.

    Legal with its score and a short text (Summy: the equation made), or
    refused with the engine's message naming the rule.
    """

    legal: bool
    score: int | None = None
    text: str | None = None
    message: str | None = None
    code: str | None = None
    """The refusal's code (see :class:`Refusal`), for translations."""
    params: Mapping[str, JSON] = field(default_factory=dict)


@runtime_checkable
class Previews(Protocol):
    """A game that can judge a staged action from what its player sees (optional).

    ``position`` is built from the seat's own view (nothing hidden is needed);
    ``ValueError`` if it is malformed. The pages call it while the player
    stages a move, through ``POST /api/games/{game}/preview``.
    """

    def preview(self, position: JSON, action: JSON) -> Preview:
        """The verdict on ``action`` in ``position``."""
        ...


AnyGame: TypeAlias = Game[Any, Any]
"""A game of any kind, as the registry, the tables and the replay hold it."""


@runtime_checkable
class CountsMoves(Protocol):
    """A game that says which of its actions are a player's moves (optional).

    The tables count each player's first moves with it: a game a player left (or
    lost on time) before making them is aborted and rates nobody
    (:data:`meeple.tables.core.ratings.FIRST_MOVES`). In a game that does not say, every
    action is a move.
    """

    def is_move(self, action: JSON) -> bool:
        """Whether ``action`` (its JSON form, as :meth:`Game.action_json` wrote it) is a move."""
        ...


def is_move(game: AnyGame, action: JSON) -> bool:
    """Whether ``action`` is one of a player's moves in ``game`` (:class:`CountsMoves`)."""
    return game.is_move(action) if isinstance(game, CountsMoves) else True


@dataclass(frozen=True)
class GameFeatures:
    """What a game offers beyond the contract: code as ``"module:name"``, pages' files by name.

    The code (``bots`` to ``notation``) is imported when asked; its modules
    live with the game, in its own package (what they share with meeple's
    generic layers is in :mod:`meeple.games.kit`). The rest (``stylesheet``
    to ``analysis_page``) are files in the game's browser folder
    (:func:`meeple.games.browser_folder`), read by the pages. ``None`` (the
    default) means the game does not offer it; its browser side is optional
    exports of the game's ``ui.js`` (docs/adding-a-game.md).
    """

    bots: Mapping[str, str] = field(default_factory=dict)
    """Its bots by level (``meeple.games.kit.bots.LEVELS``), each a class ``"module:Class"``
    made as ``Class(seed)`` (a ``meeple.games.kit.bots.Bot``); ``meeple.bots.get_bot``
    makes them. At least ``greedy``: the server has a greedy bot move for a player whose
    clock runs out, and for a seat left."""
    reviewer: str | None = None
    """Reviews a finished game action by action (``meeple.analysis.features.Reviewer``);
    the replay page shows its lines."""
    puzzles: str | None = None
    """Cuts puzzles from reviewed public games and checks answers
    (``meeple.analysis.features.PuzzleCutter``); ``/puzzles/<game>``."""
    analysis: str | None = None
    """Ranks every move of a position set up by hand
    (``meeple.analysis.features.AnalysisBoard``); ``/analysis/<game>``."""
    hint: str | None = None
    """Suggests the best move to a seat from its own view (``meeple.analysis.features.Hinter``):
    ``POST /api/tables/{id}/hint``, in unrated games against built-in bots."""
    commands: str | None = None
    """A module with ``register(subparsers)``: the game's ``meeple <game> ...`` commands."""
    tutorial: str | None = None
    """A guided first game (``meeple.games.kit.tutorial.Tutorial``): a few scripted positions,
    each asking for one kind of move, checked by the game's own ``apply``;
    ``/learn/<game>`` and ``/api/tutorials/<game>``."""
    notation: str | None = None
    """Its moves as text (``meeple.games.kit.notation.MoveNotation``), one move at a time: a
    whole game's text (docs/notation.md) is ``GET /api/tables/{id}/text``, downloaded from the
    replay, and read back by ``POST /api/games/<game>/import`` (the analysis board's import)."""
    stylesheet: str | None = None
    """Its CSS (``"game.css"``), linked on every page after meeple's own stylesheet."""
    messages: str | None = None
    """A folder of ``<lang>.po`` files (``"messages"``): the game's texts, added to meeple's
    catalogs (``meeple.i18n.game_catalog``); meeple's own keys keep their texts on a clash."""
    rules_page: str | None = None
    """A Jinja template extending ``base.html`` (``"rules.html"``): ``/rules/<game>``."""
    picture: str | None = None
    """An image (``"picture.svg"``, 320 by 180): the game's card on the home page."""
    analysis_page: str | None = None
    """A Jinja template (``"analysis.html"``) loading the game's board script:
    ``/analysis/<game>``, shown when ``analysis`` is declared too."""


NO_FEATURES = GameFeatures()
"""A game that offers nothing beyond the contract."""


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game: ``(game, options, seed, actions)``.

    ``actions`` is the list of ``(seat, action_json)`` in the order applied.
    """

    game: str
    options: Mapping[str, JSON]
    seed: int
    actions: tuple[tuple[Seat, JSON], ...] = ()

    def to_json(self) -> dict[str, JSON]:
        """The record as a JSON-able dict (the file format the CLI replays)."""
        return {
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [[seat, action] for seat, action in self.actions],
        }

    @classmethod
    def from_json(cls, data: JSON) -> GameRecord:
        """Read a record written by :meth:`to_json`; :class:`RecordError` if malformed."""
        if not isinstance(data, dict):
            raise RecordError(None, "a game record must be a JSON object")
        for key in ("game", "options", "seed", "actions"):
            if key not in data:
                raise RecordError(None, f"the record has no {key!r}")
        if not isinstance(data["game"], str):
            raise RecordError(None, "'game' must be a string")
        if not isinstance(data["options"], dict):
            raise RecordError(None, "'options' must be an object")
        if not isinstance(data["seed"], int) or isinstance(data["seed"], bool):
            raise RecordError(None, "'seed' must be an integer")
        if not isinstance(data["actions"], list):
            raise RecordError(None, "'actions' must be a list")
        actions: list[tuple[Seat, JSON]] = []
        for index, item in enumerate(data["actions"]):
            if (
                not isinstance(item, list | tuple)
                or len(item) != 2
                or not isinstance(item[0], int)
                or isinstance(item[0], bool)
            ):
                raise RecordError(index, "each action must be a pair [seat, action]")
            actions.append((item[0], item[1]))
        return cls(data["game"], dict(data["options"]), data["seed"], tuple(actions))


class RecordError(ValueError):
    """A record that does not replay: ``index`` is the bad action (or None)."""

    def __init__(self, index: int | None, reason: str) -> None:
        self.index = index
        self.reason = reason
        where = "record" if index is None else f"action {index}"
        super().__init__(f"{where}: {reason}")


def replay(game: AnyGame, record: GameRecord) -> list[Any]:
    """Every state of a recorded game, the initial one first.

    Raises :class:`RecordError` naming the first action that does not apply
    (wrong seat, not that seat's turn, malformed or illegal) and why.
    """
    if record.game != game.name:
        raise RecordError(None, f"this is a {record.game!r} record, not {game.name!r}")
    try:
        state = game.setup(record.options, record.seed)
    except BadOptions as exc:
        raise RecordError(None, f"bad options: {exc}") from exc
    states = [state]
    for index, (seat, data) in enumerate(record.actions):
        if game.result(state) is not None:
            raise RecordError(index, "the game is already over")
        if seat not in game.to_act(state):
            raise RecordError(index, f"seat {seat} may not act now")
        try:
            state, _events = game.apply(state, seat, game.parse_action(data))
        except IllegalAction as exc:
            raise RecordError(index, str(exc)) from exc
        states.append(state)
    return states
