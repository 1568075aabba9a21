"""What a new table asks for, checked before the table exists."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple.errors import Code, TableError
from meeple.games import GAME_NAMES, get_game
from meeple.games.base import JSON, AnyGame, BadOptions
from meeple.games.kit.bots import LEVELS

PACES: dict[str, tuple[int, int, int]] = {
    "realtime": (60, 5, 3600),
    "turn": (86400, 3600, 14 * 86400),
}
"""Per pace: default, least and most seconds per move."""


@dataclass(frozen=True)
class TableSpec:
    """A table to create: the game, seats, bots, options and settings.

    ``bots`` maps a seat to a bot level. The creator sits at ``creator_seat``
    (default: the first seat without a bot) unless ``sit`` is false. Quick-play
    tables start by themselves once full (``auto_start``).
    """

    game: str
    seats: int
    bots: dict[int, str] = field(default_factory=dict)
    options: dict[str, JSON] = field(default_factory=dict)
    private: bool = False
    rated: bool = False
    pace: str = "realtime"
    move_seconds: int | None = None
    sit: bool = True
    creator_seat: int | None = None
    auto_start: bool = False
    tournament: bool = False
    """A tournament opens it (its moves are never taken back)."""


@dataclass(frozen=True)
class CheckedSpec:
    """A spec that passed every check, with the full options and clock."""

    spec: TableSpec
    options: dict[str, Any]
    move_seconds: int
    creator_seat: int | None


def check_game(name: str) -> AnyGame:
    """The game registered as ``name``; :class:`TableError` naming the choices if none."""
    if name not in GAME_NAMES:
        shown = name if len(name) <= 20 else name[:20] + "..."
        raise Code.BAD_GAME.error(game=shown, games=", ".join(GAME_NAMES))
    return get_game(name)


def check_spec(spec: TableSpec) -> CheckedSpec:
    """The spec with its options completed; :class:`TableError` naming what is wrong."""
    game = check_game(spec.game)
    if not game.min_players <= spec.seats <= game.max_players:
        least, most = game.min_players, game.max_players
        raise Code.BAD_SEATS.error(game=spec.game, least=least, most=most, seats=spec.seats)
    for seat, level in spec.bots.items():
        if not 0 <= seat < spec.seats:
            raise Code.BAD_SEAT.error(f"there is no seat {seat} for a bot")
        if level not in LEVELS:
            raise Code.BAD_LEVEL.error(level=level, levels=", ".join(LEVELS))
    if spec.pace not in PACES:
        raise Code.BAD_PACE.error(pace=spec.pace, paces=", ".join(PACES))
    default, least, most = PACES[spec.pace]
    move_seconds = spec.move_seconds if spec.move_seconds is not None else default
    if not least <= move_seconds <= most:
        raise Code.BAD_CLOCK.error(pace=spec.pace, least=least, most=most)
    options = dict(game.default_options(spec.seats))
    options.update(spec.options)
    options["players"] = spec.seats
    try:
        game.setup(options, 0)
    except BadOptions as exc:
        raise TableError(Code.BAD_OPTIONS, str(exc), reason=exc.code, params=exc.params) from exc
    creator_seat = None
    if spec.sit:
        free = [s for s in range(spec.seats) if s not in spec.bots]
        creator_seat = spec.creator_seat
        if creator_seat is None and free:
            creator_seat = free[0]
        if creator_seat is None or creator_seat not in free:
            raise Code.BAD_SEAT.error("the creator needs a seat without a bot")
    return CheckedSpec(spec, options, move_seconds, creator_seat)
