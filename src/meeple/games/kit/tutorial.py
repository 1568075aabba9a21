"""A game's tutorial: a few scripted positions, each asking for one kind of move.

A game offers one by naming a :class:`Tutorial` in its ``FEATURES``
(``tutorial="meeple.games.summy.tutorial:TUTORIAL"``); the pages serve it at
``/learn/<game>`` and ``/api/tutorials/<game>`` without naming the game.

Each :class:`Step` is a real position of the game (a state its engine built,
or one made by hand) with the learner's seat to act. A move is judged twice,
both times by the game's own code: first the engine (``parse_action`` and
``apply``, whose :class:`~meeple.games.base.IllegalAction` names the rule
broken), then the step's :attr:`Step.goal`, which refuses a legal move that is
not the one the step teaches ("this step asks you to pass"), with a code of
its own. Pure, like the rest of :mod:`meeple.games`: no I/O, no clock, no
global random.

Texts are the game's (its ``messages`` catalogs): a step's title, what it asks
and what it taught are ``learn.<game>.<key>.title``, ``.text`` and ``.done``,
filled with the step's :attr:`Step.params`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol

from meeple.games import features_of
from meeple.games.base import JSON, AnyGame, Effect, Seat

TEXTS = ("title", "text", "done")
"""The texts of each step, by the last part of their catalog key."""


class Goal(Protocol):
    """What a step asks of a legal move: ``None`` if it does it, else an ``IllegalAction``
    raised with a code naming what the step asks for."""

    def __call__(self, before: Any, action: Any, after: Any) -> None:
        """Check the move ``action`` that took ``before`` to ``after`` (both legal states)."""
        ...


def any_move(before: Any, action: Any, after: Any) -> None:
    """Every legal move does what the step asks."""


@dataclass(frozen=True)
class Step:
    """One position to play and what to do in it."""

    key: str
    """Names the step and its texts (``learn.<game>.<key>.title``...)."""
    state: Any
    """The position: a state of the game with :attr:`seat` to act."""
    seat: Seat
    """The learner's seat."""
    example: JSON
    """One move (the game's action JSON) that completes the step: the tests play it."""
    goal: Goal = any_move
    """Refuses a legal move that is not the one the step teaches."""
    params: Mapping[str, JSON] = field(default_factory=dict)
    """The blanks of the step's texts (``{least}`` points...)."""

    def text_key(self, game: str, part: str) -> str:
        """The catalog key of one of its :data:`TEXTS`."""
        return f"learn.{game}.{self.key}.{part}"


@dataclass(frozen=True)
class Tutorial:
    """A game's steps, in order, and the engine that judges them."""

    game: AnyGame
    steps: tuple[Step, ...]

    def attempt(self, index: int, data: JSON) -> tuple[Any, list[Effect]]:
        """The state after the learner plays ``data`` (action JSON) at step ``index``, and the
        move's public effects; the engine's ``IllegalAction`` if the rules refuse it, the
        step's if it is legal but not what the step asks. ``IndexError`` for no such step."""
        if not 0 <= index < len(self.steps):
            raise IndexError(f"there is no step {index}")
        step = self.steps[index]
        action = self.game.parse_action(data)
        after, effects = self.game.apply(step.state, step.seat, action)
        step.goal(step.state, action, after)
        return after, effects


def tutorial_of(game: str) -> Tutorial | None:
    """The tutorial the game ``game`` declares, if any (``None`` for an unknown game too)."""
    try:
        where = features_of(game).tutorial
    except KeyError:
        return None
    if where is None:
        return None
    module, _, name = where.partition(":")
    tutorial: Tutorial = getattr(import_module(module), name)
    return tutorial
