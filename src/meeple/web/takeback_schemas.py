"""What a table's summary says of takebacks (docs/server.md, "Takebacks"); kept apart from
:mod:`meeple.web.schemas`, which imports it, so that module stays one screenful shorter."""

from __future__ import annotations

from pydantic import BaseModel, Field


class TakebackAskOut(BaseModel):
    """A takeback asked of the people at the table, awaiting their answers."""

    seat: int = Field(description="who asked: the seat whose last move it takes back")
    count: int = Field(description="how many actions it undoes (that move, the bots' after it)")
    waiting: list[int] = Field(description="the seats whose players have not accepted yet")


class TakebackOut(BaseModel):
    """Whether takebacks may be asked at this table, and the ask awaiting answers."""

    allowed: bool = Field(
        True, description="false at a table asked rated and in a tournament's game: never there"
    )
    asked: TakebackAskOut | None = Field(None, description="lapses when a move is made")
