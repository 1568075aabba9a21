"""Checking staged Summy tiles before anything is sent to the game.

The page posts the position its player sees (the table, the equations, their
hand: all from their own view) and the staged placement; the engine's own
``check_placement`` answers with the score or the rule broken, translated.
Nothing reaches the table: this is a pure function of what the client sent.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from meeple.games.base import IllegalAction
from meeple.games.summy.tiles import Equation, Placement
from meeple.i18n.messages import translate


class TileAt(BaseModel):
    """A tile on a cell."""

    row: int
    col: int
    tile: str = Field(min_length=1, max_length=1)


class EquationAt(BaseModel):
    """An equation on the table: first cell, direction, number of tiles."""

    row: int
    col: int
    dir: Literal["H", "V"]
    length: int = Field(ge=1, le=200)


class StagedPlacement(BaseModel):
    """The tiles staged on the table and the direction they are read in."""

    dir: Literal["H", "V"]
    tiles: list[TileAt] = Field(max_length=8)


class CheckRequest(BaseModel):
    """What the player sees and what they staged."""

    tiles: list[TileAt] = Field(max_length=200)
    equations: list[EquationAt] = Field(max_length=100)
    hand: list[str] = Field(max_length=8)
    placement: StagedPlacement


class CheckAnswer(BaseModel):
    """Legal with its score and equation, or refused with the rule's message."""

    legal: bool
    score: int | None = None
    equation: str | None = None
    message: str | None = None
    message_en: str | None = None


def check_staged(request: CheckRequest, lang: str) -> CheckAnswer:
    """The engine's verdict on the staged placement, its message in ``lang``."""
    from meeple.games.summy.rules import check_placement

    table = {(t.row, t.col): t.tile for t in request.tiles}
    equations = [Equation(e.row, e.col, e.dir, e.length) for e in request.equations]
    placement = Placement(
        request.placement.dir, tuple(((t.row, t.col), t.tile) for t in request.placement.tiles)
    )
    try:
        move = check_placement(table, equations, request.hand, placement)
    except IllegalAction as exc:
        return CheckAnswer(legal=False, message=translate(lang, str(exc)), message_en=str(exc))
    return CheckAnswer(legal=True, score=move.score, equation=move.equation_text)


def answer_json(answer: CheckAnswer) -> dict[str, Any]:
    """The answer as JSON, without empty fields."""
    return answer.model_dump(exclude_none=True)
