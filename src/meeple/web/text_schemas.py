"""Request and response bodies of the game text routes (docs/notation.md)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from meeple.web.schemas import Input, RecordOut, ResultOut

MAX_TEXT = 16_000
"""The most characters a game text to import may have (the server's body limit,
``MEEPLE_MAX_MESSAGE_BYTES``, 16 KiB by default, bounds it too)."""


class GameTextIn(Input):
    """A game text to read (docs/notation.md): pasted, or a file's content."""

    text: str = Field(max_length=MAX_TEXT, description="the whole text, line breaks included")


class ImportedMoveOut(BaseModel):
    """One move of the text, read and checked by the game's engine."""

    seat: int = Field(description="the mover's seat, from 0 (the text numbers seats from 1)")
    action: Any = Field(description="the move in the game's action JSON")
    text: str = Field(description="the move as the text writes it, comment left out")


class ImportedGameOut(BaseModel):
    """A game text read and replayed: the record, every move and the position before each."""

    game: str
    record: RecordOut = Field(description="what the text describes, as GET .../record gives it")
    names: list[str | None] = Field(description="per seat, the name the text gives, or null")
    moves: list[ImportedMoveOut]
    views: list[dict[str, Any]] = Field(
        description="views[i]: the position before move i+1, the game's view for its mover's"
        " seat; the last one: after every move, for the first seat to act then (a spectator's"
        " once the game is over)"
    )
    result: ResultOut | None = Field(description="how the game ended, if the text ends it")
