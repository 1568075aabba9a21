"""Request and response bodies of the tournament routes (docs/tournaments.md, "The API")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from meeple.web.schemas import Input


class TournamentIn(Input):
    """A tournament to create."""

    name: str = Field(min_length=1, max_length=80, examples=["Friday Summy Swiss"])
    game: str = Field(max_length=32, description="the game's name (GET /api/games)")
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's options (players: set per table)"
    )
    format: Literal["swiss", "arena"]
    rounds: int | None = Field(None, description="a Swiss's rounds: 1-20")
    minutes: int | None = Field(None, description="an arena's length: 5-1440 minutes")
    table_size: int | None = Field(
        None, description="players a table: 2 for a two-player game; else 4 unless said"
    )
    pace: Literal["realtime", "turn"] = "realtime"
    move_seconds: int | None = Field(
        None, description="clock per move: realtime 5-3600 s (60), turn 3600 s-14 days (1 day)"
    )
    round_days: int | None = Field(
        None, description="a turn-based Swiss's round length: 1-14 days (7)"
    )
    starts_at: float = Field(description="the start, seconds since the epoch: within 30 days")
    rated: bool = False
    bots_allowed: bool = Field(False, description="bot accounts may join")
    private: bool = Field(False, description="unlisted, joined by its link (its secret)")
    max_players: int = Field(100, ge=2, le=500)


class TournamentJoinIn(Input):
    """A private tournament's link secret."""

    secret: str | None = Field(None, max_length=64)


class BotsIn(Input):
    """Built-in bots to add to a casual (unrated) tournament."""

    level: Literal["random", "greedy", "strong", "expert"] = "greedy"
    count: int = Field(1, ge=1, le=100)


class PauseIn(Input):
    """Pause (true: not paired until resumed) or resume (false)."""

    paused: bool


class TournamentPlayer(BaseModel):
    """An account in a tournament."""

    id: int
    name: str
    bot: bool


class TournamentOut(BaseModel):
    """A tournament's settings and state."""

    id: str
    name: str
    game: str
    options: dict[str, Any]
    format: Literal["swiss", "arena"]
    rounds: int | None
    minutes: int | None
    table_size: int
    pace: str
    move_seconds: int
    round_days: int | None
    starts_at: float
    ends_at: float | None = Field(description="an arena's end")
    rated: bool
    bots_allowed: bool
    private: bool
    max_players: int
    creator_id: int | None = Field(description="None: the site's (a recurring one)")
    status: Literal["scheduled", "running", "finished", "cancelled"]
    round: int = Field(description="the last round paired (an arena: pairing passes)")
    players: int = Field(description="entrants not withdrawn")
    created_at: float
    finished_at: float | None


class StandingOut(BaseModel):
    """A line of the standings: Swiss lines carry buchholz, sonneborn_berger and byes;
    arena lines wins, performance and on_fire."""

    rank: int
    player: TournamentPlayer
    points: int
    rating: int
    games: int
    withdrawn: bool
    paused: bool = Field(False, description="paused: not paired until they resume")
    buchholz: float | None = None
    sonneborn_berger: float | None = None
    byes: int | None = None
    wins: int | None = None
    performance: int | None = None
    on_fire: bool | None = None


class TournamentDetailOut(TournamentOut):
    """A tournament with its standings."""

    standings: list[StandingOut]
    secret: str | None = Field(description="a private tournament's link secret, to its creator")


class TournamentGameOut(BaseModel):
    """A game a round opened."""

    table_id: str
    board: int
    players: list[TournamentPlayer] = Field(description="in seat order, seat 0 first")
    status: Literal["pending", "playing", "finished"]
    ranks: list[int] | None = Field(description="by seat, once finished")
    how: Literal["played", "deadline", "aborted"] | None


class RoundOut(BaseModel):
    """A round paired (an arena: a pairing pass), its games and byes."""

    round: int
    deadline: float | None = Field(description="a turn-based round's deadline")
    games: list[TournamentGameOut]
    byes: list[TournamentPlayer]
