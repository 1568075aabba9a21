"""The games the server offers, from the registry: seats, quick play, options, bot levels.

Generic code (routes, pages, scripts) asks here rather than naming a game.
"""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter

from meeple.bots import levels_for
from meeple.games import GAME_NAMES, get_game
from meeple.web.schemas import GameOut

router = APIRouter(prefix="/api", tags=["games"])


@cache
def describe_game(name: str) -> GameOut:
    """What the registry says of one game (``KeyError`` if there is none)."""
    game = get_game(name)
    return GameOut(
        name=game.name,
        min_players=game.min_players,
        max_players=game.max_players,
        quick_play_seats=game.quick_play_seats,
        options=game.options_model.model_json_schema(),
        option_defaults=game.options_model().model_dump(),
        bot_levels=list(levels_for(game.name)),
    )


@router.get("/games", response_model=list[GameOut])
async def games() -> list[GameOut]:
    """Every game: players allowed, quick-play seats, table options, bot levels."""
    return [describe_game(name) for name in GAME_NAMES]
