"""A stored tournament read into the pure core's terms, and shown as JSON.

Pure: these functions read the rows they are given (:mod:`meeple.store.tournament_models`)
and call the core (:mod:`.model`, :mod:`.standings`); they do no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.games import get_game
from meeple.store.models import User
from meeple.store.tournament_models import (
    Tournament,
    TournamentBot,
    TournamentBye,
    TournamentGame,
)
from meeple.store.tournaments import DONE, EntrantRow
from meeple.tables.tournaments.model import Bye, Entrant, Finish
from meeple.tables.tournaments.plan import DAY_S, Sizes, table_sizes_of
from meeple.tables.tournaments.standings import arena_standings, swiss_standings

SWISS, ARENA = "swiss", "arena"


def sizes_of(tournament: Tournament) -> Sizes:
    """The table sizes a stored tournament seats."""
    return table_sizes_of(get_game(tournament.game), tournament.table_size)


def ends_at(tournament: Tournament) -> float | None:
    """When an arena stops pairing."""
    if tournament.duration_s is None:
        return None
    return tournament.starts_at + tournament.duration_s


def entrants(
    rows: Sequence[EntrantRow],
    ratings: Mapping[int, int],
    bots: Sequence[TournamentBot] = (),
    bot_rating: int = 0,
) -> list[Entrant]:
    """Every entrant (withdrawn ones marked) with the rating that orders them; a built-in
    bot plays as ``-number`` with ``bot_rating``."""
    people = [
        Entrant(user.id, ratings[user.id], entrant.withdrawn_at is not None)
        for entrant, user in rows
    ]
    return people + [Entrant(-bot.number, bot_rating) for bot in bots]


def finishes(tournament: Tournament, games: Sequence[TournamentGame]) -> list[Finish]:
    """The finished games: by round for a Swiss, numbered in the order they finished for an
    arena."""
    done = sorted((g for g in games if g.status == DONE and g.ranks), key=lambda g: g.seq or 0)
    return [
        Finish(
            game.round if tournament.format == SWISS else index,
            tuple(game.players),
            tuple(game.ranks or ()),
        )
        for index, game in enumerate(done, start=1)
    ]


def byes(rows: Sequence[TournamentBye]) -> list[Bye]:
    """The byes."""
    return [Bye(row.round, row.user_id) for row in rows]


def person(user: User) -> dict[str, Any]:
    """An account as a tournament shows it."""
    return {"id": user.id, "name": user.name, "bot": bool(user.bot)}


def built_in(bot: TournamentBot) -> dict[str, Any]:
    """A built-in bot as a tournament shows it (its id is minus its number)."""
    return {"id": -bot.number, "name": f"bot ({bot.level}) #{bot.number}", "bot": True}


def who(rows: Sequence[EntrantRow], bots: Sequence[TournamentBot]) -> dict[int, dict[str, Any]]:
    """Every player of a tournament as shown, by player id."""
    shown = {user.id: person(user) for _, user in rows}
    shown.update({-bot.number: built_in(bot) for bot in bots})
    return shown


def tournament_json(tournament: Tournament, players: int) -> dict[str, Any]:
    """A tournament's settings and state (``players``: entrants not withdrawn)."""
    return {
        "id": tournament.id,
        "name": tournament.name,
        "game": tournament.game,
        "options": dict(tournament.options),
        "format": tournament.format,
        "rounds": tournament.rounds,
        "minutes": None if tournament.duration_s is None else tournament.duration_s // 60,
        "table_size": tournament.table_size,
        "pace": tournament.pace,
        "move_seconds": tournament.move_seconds,
        "round_days": None if tournament.round_s is None else tournament.round_s // DAY_S,
        "starts_at": tournament.starts_at,
        "ends_at": ends_at(tournament),
        "rated": tournament.rated,
        "bots_allowed": tournament.bots_allowed,
        "private": tournament.private,
        "max_players": tournament.max_players,
        "creator_id": tournament.creator_id,
        "status": tournament.status,
        "round": tournament.round,
        "players": players,
        "created_at": tournament.created_at,
        "finished_at": tournament.finished_at,
    }


def standings_json(
    tournament: Tournament,
    field: Sequence[Entrant],
    people: Mapping[int, dict[str, Any]],
    games: Sequence[TournamentGame],
    bye_rows: Sequence[TournamentBye],
) -> list[dict[str, Any]]:
    """The standings of ``field``, best first (docs/tournaments.md, Standings)."""
    if tournament.format == ARENA:
        return [
            {
                "rank": row.rank,
                "player": people[row.player],
                "points": row.points,
                "wins": row.wins,
                "performance": row.performance,
                "rating": row.rating,
                "games": row.games,
                "on_fire": row.on_fire,
                "withdrawn": row.withdrawn,
            }
            for row in arena_standings(field, finishes(tournament, games))
        ]
    points = sizes_of(tournament).bye_points
    return [
        {
            "rank": row.rank,
            "player": people[row.player],
            "points": row.points,
            "buchholz": float(row.buchholz),
            "sonneborn_berger": float(row.sonneborn_berger),
            "rating": row.rating,
            "games": row.games,
            "byes": row.byes,
            "withdrawn": row.withdrawn,
        }
        for row in swiss_standings(field, finishes(tournament, games), byes(bye_rows), points)
    ]


def pairings_json(
    rounds: Sequence[tuple[int, float | None]],
    games: Sequence[TournamentGame],
    bye_rows: Sequence[TournamentBye],
    people: Mapping[int, dict[str, Any]],
) -> list[dict[str, Any]]:
    """Each round paired (an arena: each pass), its games and byes, newest first."""
    shown = []
    for number, deadline in sorted(rounds, reverse=True):
        shown.append(
            {
                "round": number,
                "deadline": deadline,
                "games": [
                    {
                        "table_id": game.table_id,
                        "board": game.board,
                        "players": [people[player] for player in game.players],
                        "status": game.status,
                        "ranks": game.ranks,
                        "how": game.how,
                    }
                    for game in games
                    if game.round == number
                ],
                "byes": [people[b.user_id] for b in bye_rows if b.round == number],
            }
        )
    return shown
