"""A whole game as text (docs/notation.md): a finished game's text to download, and a text read
back for the analysis board. Generic: the registry says which games write their moves as text
(:func:`meeple.games.kit.notation.notation_of`); any other answers 404 ``no_feature``."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from meeple.analysis.features import no_feature
from meeple.errors import Code, TableError
from meeple.games import get_game
from meeple.games.kit.notation import ImportedGame, TextError, notation_of, read_text, write_text
from meeple.i18n import catalog
from meeple.tables.facade import Table
from meeple.web.deps import OptionalUser, ServicesDep, client_address
from meeple.web.routes.tables import find
from meeple.web.schemas import ERRORS, RecordOut, ResultOut
from meeple.web.text_schemas import GameTextIn, ImportedGameOut, ImportedMoveOut

router = APIRouter(prefix="/api", tags=["records"], responses=ERRORS)

TEXT_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the game text, as a file to save (docs/notation.md)",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    }
}


def seat_names(table: Table) -> list[str | None]:
    """Each seat's name as the pages show it, in English: the player's, or the bot's level
    (``strong bot``, ``strong bot 2`` for a second one at the table)."""
    english = catalog("en")
    names: list[str | None] = []
    for index, seat in enumerate(table.snap.seats):
        if seat.bot_level is None:
            names.append(seat.name)
            continue
        level = english.gettext(f"bot.{seat.bot_level}")
        before = sum(other.bot_level == seat.bot_level for other in table.snap.seats[:index])
        names.append(level if before == 0 else f"{level} {before + 1}")
    return names


# The route class has no media type, so its refusals stay documented as JSON, the 200 as text.
@router.get("/tables/{table_id}/text", response_class=Response, responses=TEXT_ANSWER)
async def game_text(
    table_id: str, services: ServicesDep, user: OptionalUser, invite: str | None = None
) -> PlainTextResponse:
    """The finished game's text (docs/notation.md), as a file: a header (game, options,
    seed, the players' names, the scores) and one line per move in the game's notation.

    Whoever may read the game's record may read it, once the game is over (``not_over``,
    409, before: the seed and the moves hold what no player could see yet)."""
    table = await find(services, table_id, user, invite)
    if notation_of(table.info.game) is None:
        raise no_feature(table.info.game, "notation", "game text")
    record = await services.tables.record(table_id)
    text = write_text(get_game(record.game), record, seat_names(table))
    filename = re.sub(r"[^A-Za-z0-9_-]", "", f"{record.game}-{table_id}")[:60] + ".txt"
    disposition = f'attachment; filename="{filename}"'
    return PlainTextResponse(text, headers={"Content-Disposition": disposition})


def imported_out(game: str, imported: ImportedGame) -> ImportedGameOut:
    """The answer for a text read: its record, moves and the position before each move."""
    rules = get_game(game)
    states = imported.states
    views = [
        dict(rules.view(state, move.seat))
        for state, move in zip(states, imported.moves, strict=False)
    ]
    to_act = sorted(rules.to_act(states[-1]))
    views.append(dict(rules.view(states[-1], to_act[0] if to_act else None)))
    result = rules.result(states[-1])
    return ImportedGameOut(
        game=game,
        record=RecordOut.model_validate(imported.record.to_json()),
        names=list(imported.names),
        moves=[ImportedMoveOut(seat=m.seat, action=m.action, text=m.text) for m in imported.moves],
        views=views,
        result=ResultOut.model_validate(result.to_json()) if result else None,
    )


def _read(game: str, text: str) -> ImportedGameOut:
    """Read and replay the text (in a worker thread: a long text is some milliseconds)."""
    try:
        return imported_out(game, read_text(get_game(game), text))
    except TextError as exc:
        params = {**exc.params, "line": exc.line, "why": exc.why}
        raise TableError(Code.BAD_NOTATION, str(exc), reason=exc.code, params=params) from None


@router.post(
    "/games/{game}/import",
    response_model=ImportedGameOut,
    responses={404: {"description": "no such game, or one without a game text"}},
)
async def import_text(
    game: str, body: GameTextIn, request: Request, services: ServicesDep
) -> ImportedGameOut:
    """Read a game text (docs/notation.md) and replay it through the game's rules: the record,
    each move, and the position before each move as its mover saw it (the analysis board
    steps through them). Open to anyone, counted against ``MEEPLE_LIMIT_ANALYSIS``; nothing
    is stored.

    A text that does not read or does not replay is refused: 422 ``bad_notation``, its
    ``reason`` the first wrong line's own code (``notation_*``, or the engine's for a move
    the rules refuse) and ``params`` its ``line``, the English ``why`` and the reason's own.
    """
    if notation_of(game) is None:
        raise no_feature(game[:20], "notation", "game text")
    await services.limits.hit("analysis", client_address(request))
    return await run_in_threadpool(_read, game, body.text)
