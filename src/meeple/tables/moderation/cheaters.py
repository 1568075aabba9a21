"""A cheater's rated games made unrated after the fact, and their opponents' ratings restored
as if those games had never been rated (docs/moderation.md, "Mark as cheater").

What is done, in one transaction (:func:`void_rated_games`):

1. Every table the cheater has a rating history point at is *voided*: its ``rated`` flag
   becomes false and every history point of it (everyone's) is deleted.
2. The cheater's ratings are deleted: they have no rated game left.
3. For each game, each *opponent* (anyone who had a history point at a voided table) has
   their rating history replayed from the model's first rating over their rated games
   left, in the order they were rated. Each game is rated again with the rating model
   (:func:`meeple.tables.core.ratings.new_ratings`) from the opponent's replayed rating and
   the other players' ratings before that game as recorded (an opponent's as replayed), and
   the ranks recorded. The opponent's history points and current rating are rewritten, and
   their games and wins counted again; an opponent with no rated game left loses the rating.

Only opponents are replayed: a third player's rating, which moved against an opponent's
rating in a later game, stays as it was rated (as chess sites give points back to a
cheater's opponents and change nobody else). The replay reads the game's history points
of the opponents and of everyone they played in it since.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from meeple.store.models import GameTable, Rating, RatingChange
from meeple.tables.core.ratings import MODEL, RatedSeat, new_ratings


def void_rated_games(session: Session, cheater_id: int) -> tuple[list[str], list[int]]:
    """Make the cheater's rated games unrated and restore their opponents' ratings; the
    tables voided and the opponents whose ratings were replayed (both sorted)."""
    points = session.scalars(select(RatingChange).where(RatingChange.user_id == cheater_id))
    by_game: dict[str, set[str]] = {}
    for point in points:
        by_game.setdefault(point.game, set()).add(point.table_id)
    opponents: set[int] = set()
    for game, tables in by_game.items():
        opponents |= replay_opponents(session, game, tables, cheater_id)
    voided = sorted(set().union(*by_game.values()))
    if voided:
        session.execute(delete(RatingChange).where(RatingChange.table_id.in_(voided)))
        session.execute(update(GameTable).where(GameTable.id.in_(voided)).values(rated=False))
    session.execute(delete(Rating).where(Rating.user_id == cheater_id))
    return voided, sorted(opponents)


def replay_opponents(session: Session, game: str, voided: set[str], cheater_id: int) -> set[int]:
    """Replay the ``game`` ratings of everyone who played at a ``voided`` table (but the
    cheater) without those tables; who they are."""
    at_voided = select(RatingChange.user_id).where(
        RatingChange.game == game,
        RatingChange.table_id.in_(voided),
        RatingChange.user_id != cheater_id,
    )
    opponents = set(session.scalars(at_voided))
    if not opponents:
        return set()
    theirs = select(RatingChange.table_id).where(
        RatingChange.game == game, RatingChange.user_id.in_(opponents)
    )
    kept = set(session.scalars(theirs)) - voided
    met = select(RatingChange.user_id).where(
        RatingChange.game == game, RatingChange.table_id.in_(kept)
    )
    players = opponents | set(session.scalars(met))
    points = list(
        session.scalars(
            select(RatingChange)
            .where(RatingChange.game == game, RatingChange.user_id.in_(players))
            .order_by(RatingChange.id)
        )
    )
    state = _replay(_by_table(points), voided, opponents)
    for user_id in opponents:
        _rewrite_rating(session, user_id, game, points, voided, state.get(user_id))
    return opponents


def _by_table(points: Iterable[RatingChange]) -> list[list[RatingChange]]:
    """The history points grouped by table, the tables in the order they were rated."""
    tables: dict[str, list[RatingChange]] = {}
    for point in points:
        tables.setdefault(point.table_id, []).append(point)
    return list(tables.values())


def _replay(
    tables: list[list[RatingChange]], voided: set[str], opponents: set[int]
) -> dict[int, tuple[float, float]]:
    """Rate the opponents' tables again, in order, skipping the voided ones; each player's
    rating after the last of their tables (an opponent's replayed, anyone else's recorded)."""
    first = MODEL.rating()
    state: dict[int, tuple[float, float]] = {}
    for points in tables:
        if points[0].table_id in voided:
            continue
        if opponents.isdisjoint(point.user_id for point in points):
            state.update({point.user_id: (point.mu, point.sigma) for point in points})
            continue
        seats = [
            RatedSeat(p.user_id, p.rank, *state.get(p.user_id, (first.mu, first.sigma)))
            for p in points
        ]
        after = new_ratings(seats)
        for point in points:
            if point.user_id in opponents and point.user_id in after:
                point.mu, point.sigma = after[point.user_id]
            state[point.user_id] = (point.mu, point.sigma)
    return state


def _rewrite_rating(
    session: Session,
    user_id: int,
    game: str,
    points: list[RatingChange],
    voided: set[str],
    replayed: tuple[float, float] | None,
) -> None:
    """The opponent's current rating in ``game`` after the replay: games and wins counted
    again over the rated games left; none left, no rating."""
    left = [p for p in points if p.user_id == user_id and p.table_id not in voided]
    rating = session.get(Rating, (user_id, game))
    if not left or replayed is None:
        if rating is not None:
            session.delete(rating)
        return
    if rating is None:
        rating = Rating(user_id=user_id, game=game)
        session.add(rating)
    rating.mu, rating.sigma = replayed
    rating.games = len(left)
    rating.wins = sum(1 for p in left if p.rank == 1)
