"""Who plays a tournament, read once per look or request: its accounts (with their ratings
in its game) and its built-in bots, as the pairing core and the pages see them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meeple.store import queries
from meeple.store import tournaments as store
from meeple.store.database import Database
from meeple.store.tournament_models import Tournament
from meeple.tables.core.ratings import shown_rating, starting_rating
from meeple.tables.tournaments import shown
from meeple.tables.tournaments.model import Entrant


@dataclass(frozen=True)
class Field:
    """Who plays a tournament: its entrants' rows, its built-in bots' levels by player id
    (minus their number), every one as the core sees them, and as the pages show them."""

    rows: list[store.EntrantRow]
    levels: dict[int, str]
    entrants: list[Entrant]
    people: dict[int, dict[str, Any]]


async def ratings(db: Database, game: str, user_ids: Sequence[int]) -> dict[int, int]:
    """Each account's rating in ``game`` as players see it (a newcomer's: the first)."""
    stored = await db.run(queries.ratings_of, list(user_ids), game)
    start = starting_rating()
    return {
        user_id: shown_rating(stored[user_id].mu, stored[user_id].sigma)
        if user_id in stored
        else start
        for user_id in user_ids
    }


async def field_of(db: Database, tournament: Tournament) -> Field:
    """Who plays ``tournament``: its accounts and built-in bots, as the core and the pages
    see them."""
    rows = await db.run(store.entrants_of, tournament.id)
    bots = await db.run(store.bots_of, tournament.id)
    rated = await ratings(db, tournament.game, [user.id for _, user in rows])
    entrants = shown.entrants(rows, rated, bots, starting_rating())
    levels = {-bot.number: bot.level for bot in bots}
    return Field(rows, levels, entrants, shown.who(rows, bots))
