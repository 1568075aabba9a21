"""What a new tournament asks for, checked before it exists, and the tables it opens.

Pure: the checks read the game registry and the time they are given, nothing else.
docs/tournaments.md ("Creating a tournament") states the limits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple.errors import Code
from meeple.games.base import JSON, AnyGame
from meeple.tables.core.spec import TableSpec, check_game, check_spec
from meeple.tables.tournaments.model import win_points

FORMATS = ("swiss", "arena")
ROUNDS = (1, 20)
"""A Swiss's fewest and most rounds."""
ARENA_MINUTES = (5, 24 * 60)
"""An arena's shortest and longest duration, in minutes."""
ROUND_DAYS = (1, 14)
"""A turn-based round's shortest and longest length, in days."""
START_WITHIN_DAYS = 30
"""How far ahead a start may be."""
MAX_PLAYERS = 500
"""The largest field a tournament may ask for."""
DAY_S = 86400


@dataclass(frozen=True)
class TournamentAsk:
    """A tournament to create, as asked (``starts_at`` in seconds since the epoch)."""

    name: str
    game: str
    format: str
    starts_at: float
    options: dict[str, JSON] = field(default_factory=dict)
    rounds: int | None = None
    minutes: int | None = None
    table_size: int | None = None
    pace: str = "realtime"
    move_seconds: int | None = None
    round_days: int | None = None
    rated: bool = False
    bots_allowed: bool = False
    private: bool = False
    max_players: int = 100


@dataclass(frozen=True)
class Sizes:
    """The players a table: as asked, and the fewest and most a table may take."""

    size: int
    least: int
    most: int

    @property
    def bye_points(self) -> int:
        """What a bye scores: a win at a table of the asked size."""
        return win_points(self.size)


@dataclass(frozen=True)
class TournamentPlan:
    """A tournament that passed every check: the columns to store."""

    ask: TournamentAsk
    options: dict[str, JSON]
    sizes: Sizes
    move_seconds: int
    duration_s: int | None
    round_s: int | None


def tournament_row(
    plan: TournamentPlan, tournament_id: str, creator_id: int | None, secret: str | None, now: float
) -> dict[str, Any]:
    """The stored columns of a new tournament of ``plan`` (``creator_id`` ``None``: the
    site's)."""
    ask = plan.ask
    return {
        "id": tournament_id,
        "name": ask.name,
        "game": ask.game,
        "options": plan.options,
        "format": ask.format,
        "rounds": ask.rounds if ask.format == "swiss" else None,
        "duration_s": plan.duration_s,
        "table_size": plan.sizes.size,
        "pace": ask.pace,
        "move_seconds": plan.move_seconds,
        "round_s": plan.round_s,
        "starts_at": ask.starts_at,
        "rated": ask.rated,
        "bots_allowed": ask.bots_allowed,
        "private": ask.private,
        "secret": secret,
        "max_players": ask.max_players,
        "creator_id": creator_id,
        "status": "scheduled",
        "round": 0,
        "created_at": now,
        "finished_at": None,
    }


def table_sizes_of(game: AnyGame, asked: int | None) -> Sizes:
    """The table sizes for ``game``: two for a two-player game, else ``asked`` (4 unless
    said) with one fewer or one more allowed, never under 3 nor beyond the game's range."""
    size = (
        asked if asked is not None else (2 if game.max_players <= 2 else min(4, game.max_players))
    )
    if not (max(2, game.min_players) <= size <= game.max_players):
        least, most = max(2, game.min_players), game.max_players
        raise Code.BAD_SEATS.error(game=game.name, least=least, most=most, seats=size)
    if size == 2:
        return Sizes(2, 2, 2)
    return Sizes(size, max(3, game.min_players, size - 1), min(game.max_players, size + 1))


def check_ask(ask: TournamentAsk, now: float) -> TournamentPlan:
    """``ask`` checked at ``now``; a refusal naming the first thing wrong."""
    game = check_game(ask.game)
    if not now < ask.starts_at <= now + START_WITHIN_DAYS * DAY_S:
        raise Code.BAD_START.error(days=START_WITHIN_DAYS)
    duration_s = round_s = None
    if ask.format == "swiss":
        if ask.rounds is None or not ROUNDS[0] <= ask.rounds <= ROUNDS[1]:
            raise Code.BAD_ROUNDS.error(least=ROUNDS[0], most=ROUNDS[1])
        if ask.pace == "turn":
            days = ask.round_days if ask.round_days is not None else 7
            if not ROUND_DAYS[0] <= days <= ROUND_DAYS[1]:
                raise Code.BAD_ROUND_DAYS.error(least=ROUND_DAYS[0], most=ROUND_DAYS[1])
            round_s = days * DAY_S
    else:
        if ask.minutes is None or not ARENA_MINUTES[0] <= ask.minutes <= ARENA_MINUTES[1]:
            raise Code.BAD_DURATION.error(least=ARENA_MINUTES[0], most=ARENA_MINUTES[1])
        if ask.pace != "realtime":
            raise Code.BAD_PACE.error("an arena is played in real time (pace realtime)")
        duration_s = ask.minutes * 60
    sizes = table_sizes_of(game, ask.table_size)
    options = {key: value for key, value in ask.options.items() if key != "players"}
    move_seconds = 0
    for seats in range(sizes.least, sizes.most + 1):
        checked = check_spec(table_spec(ask.game, options, seats, ask, ask.move_seconds))
        move_seconds = checked.move_seconds
    return TournamentPlan(ask, options, sizes, move_seconds, duration_s, round_s)


def table_spec(
    game: str,
    options: dict[str, JSON],
    seats: int,
    how: TournamentAsk | TableSettings,
    move_seconds: int | None,
) -> TableSpec:
    """The table of ``seats`` a tournament opens: every seat a player's, started at once."""
    return TableSpec(
        game=game,
        seats=seats,
        options=dict(options),
        private=how.private,
        rated=how.rated,
        pace=how.pace,
        move_seconds=move_seconds,
        sit=False,
        tournament=True,
    )


@dataclass(frozen=True)
class TableSettings:
    """What a stored tournament's tables share."""

    private: bool
    rated: bool
    pace: str


def recurring_ask(entry: dict[str, Any], now: float) -> tuple[TournamentAsk, int]:
    """A recurring tournament of ``MEEPLE_RECURRING_TOURNAMENTS``: its settings (checked as
    a creator's would be, at a start one period from ``now``) and its period in seconds."""
    every_s = int(entry["every_minutes"]) * 60
    fields = {key: value for key, value in entry.items() if key != "every_minutes"}
    ask = TournamentAsk(**fields, starts_at=now + every_s)
    check_ask(ask, now)
    return ask, every_s
