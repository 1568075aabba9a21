"""Players: profiles (games played and won, ratings), rating history, leaderboards."""

from __future__ import annotations

from fastapi import APIRouter, Query

from meeple.errors import Code, TableError
from meeple.games import GAME_NAMES
from meeple.store import profiles, queries
from meeple.store.models import User
from meeple.store.tokens import bot_flags, leaderboard_of
from meeple.tables.facade import PROVISIONAL_GAMES, shown_rating, starting_rating
from meeple.web.deps import OptionalUser, ServicesDep
from meeple.web.routes.auth import public
from meeple.web.schemas import (
    ERRORS,
    HistoryPoint,
    LeaderboardLine,
    ProfileOut,
    RatingOut,
    RecentPlayer,
    RecentTable,
    ResultOut,
)
from meeple.web.services import Services

router = APIRouter(prefix="/api", tags=["players"], responses=ERRORS)


async def user_named(services: Services, name: str) -> User:
    """The user with this name; 404 if none."""
    user = await services.db.run(queries.user_by_name, name)
    if user is None:
        shown = repr(name[:40])
        raise Code.NO_PLAYER.error(name=shown)
    return user


def check_game(game: str) -> None:
    """404 for a game that does not exist."""
    if game not in GAME_NAMES:
        raise TableError(
            Code.NO_PATH, f"unknown game {game[:20]!r}; choose {', '.join(GAME_NAMES)}"
        )


@router.get("/users/{name}", response_model=ProfileOut)
async def profile(name: str, services: ServicesDep, viewer: OptionalUser) -> ProfileOut:
    """A player's profile: ratings per game, games finished and won per game, recent tables.

    ``finished`` and ``won`` count every finished game, rated or not (a shared
    victory is a win); ``ratings`` hold rated games only. Recent tables are
    the public ones, and for the player themself the private ones too (their
    bot and invite games); each names everyone at it by seat and the player's
    own seat, so a page can say whom they played, the score and how it went.
    """
    user = await user_named(services, name)
    own = viewer is not None and viewer.id == user.id
    ratings = await services.db.run(queries.user_ratings, user.id)
    finished: dict[str, int] = {}
    won: dict[str, int] = {}
    for game, seat, result in await services.db.run(profiles.finished_games, user.id):
        finished[game] = finished.get(game, 0) + 1
        if seat in result.get("winners", []):
            won[game] = won.get(game, 0) + 1
    recent = await services.db.run(profiles.tables_of_user, user.id, 20)
    seated = sorted({s.user_id for _t, seats in recent for s, _n in seats if s.user_id})
    bots = await services.db.run(bot_flags, seated)
    return ProfileOut(
        user=public(user),
        ratings=[
            RatingOut(
                game=r.game,
                rating=shown_rating(r.mu, r.sigma),
                provisional=r.games < PROVISIONAL_GAMES,
                mu=r.mu,
                sigma=r.sigma,
                games=r.games,
                wins=r.wins,
            )
            for r in ratings
        ],
        finished=finished,
        won=won,
        recent_tables=[
            RecentTable(
                id=t.id,
                game=t.game,
                status=t.status,
                rated=t.rated,
                created_at=t.created_at,
                result=ResultOut.model_validate(t.result) if t.result else None,
                aborted=t.aborted,
                private=t.private,
                seat=next((s.seat for s, _ in seats if s.user_id == user.id), None),
                players=[
                    RecentPlayer(
                        seat=s.seat,
                        name=None if s.bot_level else name,
                        bot=s.bot_level,
                        bot_account=s.user_id in bots,
                    )
                    for s, name in seats
                ],
            )
            for t, seats in recent
            if own or not t.private
        ],
    )


@router.get("/users/{name}/history/{game}", response_model=list[HistoryPoint])
async def history(name: str, game: str, services: ServicesDep) -> list[HistoryPoint]:
    """A player's rating after each rated game of ``game``, oldest first."""
    check_game(game)
    user = await user_named(services, name)
    changes = await services.db.run(queries.rating_history, user.id, game)
    points, previous = [], starting_rating()
    for c in changes:
        rating = shown_rating(c.mu, c.sigma)
        points.append(
            HistoryPoint(
                table_id=c.table_id,
                rating=rating,
                previous=previous,
                mu=c.mu,
                sigma=c.sigma,
                rank=c.rank,
                at=c.at,
            )
        )
        previous = rating
    return points


@router.get("/leaderboard/{game}", response_model=list[LeaderboardLine])
async def leaderboard(
    game: str,
    services: ServicesDep,
    limit: int = Query(50, ge=1, le=500),
    bots: bool = Query(False, description="the bot accounts' leaderboard instead of people's"),
) -> list[LeaderboardLine]:
    """The best-rated players of ``game`` by ``mu - 3 sigma`` (accounts and guests alike);
    ``bots=true``: the best-rated bot accounts (the people's board leaves them out)."""
    check_game(game)
    rows = await services.db.run(leaderboard_of, game, limit, bots)
    return [
        LeaderboardLine(
            place=place,
            name=name,
            bot=bot,
            rating=shown_rating(r.mu, r.sigma),
            provisional=r.games < PROVISIONAL_GAMES,
            games=r.games,
            wins=r.wins,
        )
        for place, (r, name, bot) in enumerate(rows, start=1)
    ]
