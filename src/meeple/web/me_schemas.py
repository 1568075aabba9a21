"""The answers of the signed-in account's own routes (``/api/me/...``)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class OpponentOut(BaseModel):
    """Someone else seated at the table."""

    seat: int
    name: str | None
    user_id: int | None
    bot: bool = Field(description="a bot of the server or a bot account")
    left: bool = Field(description="left the game (a bot plays the seat for the rest of it)")


class LastMoveOut(BaseModel):
    """The table's last event that moved the game or its seats (chat left out)."""

    kind: str = Field(description="the event's kind: action, start, join, leave, zombie, ...")
    seat: int | None
    name: str | None = Field(description="the name in that seat")
    by: str | None = Field(description="for an action: player, bot, zombie or timeout")
    at: float = Field(description="when, in seconds since the epoch")


class MyTableOut(BaseModel):
    """One of the account's live tables, as the account sees it."""

    id: str
    game: str
    pace: str
    move_seconds: int
    status: str = Field(description="open (waiting for players) or playing")
    seat: int = Field(description="the account's seat")
    opponents: list[OpponentOut]
    free_seats: int
    to_act: list[int] = Field(description="the seats whose turn it is")
    my_turn: bool
    deadline: float | None = Field(description="when the account's move clock runs out")
    time_left_s: float | None = Field(description="seconds left on the account's clock")
    their_deadline: float | None = Field(description="the soonest clock of the others to act")
    last_move: LastMoveOut | None


class MyTablesOut(BaseModel):
    """The account's live tables: where it is its turn first, soonest clock first."""

    tables: list[MyTableOut]
    my_turns: int = Field(description="how many of them wait for the account's move")
