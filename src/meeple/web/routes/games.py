"""The games the server offers, from the registry: seats, quick play, options, bot levels.

Generic code (routes, pages, scripts) asks here rather than naming a game.
"""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter, Request

from meeple.analysis.features import no_feature
from meeple.bots import levels_for
from meeple.errors import Code, TableError
from meeple.games import GAME_NAMES, get_game
from meeple.games.base import Previews
from meeple.i18n.messages import translate
from meeple.web.pages.render import request_language
from meeple.web.schemas import ERRORS, GameOut, PreviewIn, PreviewOut

router = APIRouter(prefix="/api", tags=["games"], responses=ERRORS)


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


@router.post(
    "/games/{game}/preview",
    response_model=PreviewOut,
    response_model_exclude_none=True,
    responses={404: {"description": "no such game, or one without previews"}},
)
def preview(game: str, body: PreviewIn, request: Request) -> PreviewOut:
    """Whether a staged action is legal in the position its player sees, before sending it.

    Nothing reaches any table: this is a pure function of what the client sent
    (built from its own view). The refusal comes in the page's language.
    """
    rules = get_game(game) if game in GAME_NAMES else None
    if not isinstance(rules, Previews):
        raise no_feature(game[:20], "preview", "move preview")
    try:
        verdict = rules.preview(body.position, body.action)
    except ValueError as exc:
        raise TableError(Code.INVALID, f"the position is malformed: {exc}") from None
    if verdict.legal:
        return PreviewOut(legal=True, score=verdict.score, text=verdict.text)
    english = verdict.message or ""
    message = translate(request_language(request), verdict.code, verdict.params, english)
    return PreviewOut(
        legal=False,
        message=message,
        message_en=english,
        reason=verdict.code,
        params=dict(verdict.params),
    )
