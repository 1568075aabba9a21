"""Marking a cheater (docs/moderation.md): their rated games become unrated, their opponents'
ratings are replayed as if those games had never been rated, nobody else's changes, and a
game they finish later rates nobody."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rated_history import GAME, account, rated_game

from meeple.store import moderation as store
from meeple.store.database import Database
from meeple.store.models import GameTable, Rating, RatingChange
from meeple.store.tokens import leaderboard_of
from meeple.tables.core.ratings import MODEL, RatedSeat, new_ratings
from meeple.tables.moderation.cheaters import void_rated_games


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    database = Database(db_url)
    database.migrate()
    yield database
    database.close()


def rating(db: Database, user_id: int) -> tuple[float, float, int, int] | None:
    row = db.call(lambda s: s.get(Rating, (user_id, GAME)))
    return None if row is None else (row.mu, row.sigma, row.games, row.wins)


def points(db: Database, user_id: int) -> list[tuple[str, float, float]]:
    rows = db.call(
        lambda s: s.query(RatingChange).filter_by(user_id=user_id).order_by(RatingChange.id).all()
    )
    return [(r.table_id, r.mu, r.sigma) for r in rows]


def test_the_opponents_are_replayed_without_the_cheaters_games_and_nobody_else_moves(
    db: Database,
) -> None:
    cheat, one, two, pat, quin = (account(db, n) for n in ("cheat", "one", "two", "pat", "quin"))
    rated_game(db, "g1", {cheat: 1, one: 2}, 1.0)
    rated_game(db, "g2", {one: 2, pat: 1}, 2.0)
    rated_game(db, "g3", {cheat: 2, two: 1}, 3.0)
    rated_game(db, "g4", {one: 2, two: 1, pat: 3}, 4.0)
    rated_game(db, "g5", {pat: 1, quin: 2}, 5.0)
    pat_before, quin_before = rating(db, pat), rating(db, quin)
    pat_points, quin_points = points(db, pat), points(db, quin)
    pat_after_g2 = pat_points[0][1:]

    voided, opponents = db.call(void_rated_games, cheat)

    assert (voided, opponents) == (["g1", "g3"], sorted([one, two]))
    # What the opponents would have had: the model run over their games left, each against
    # the others' ratings before it (an opponent's replayed, anyone else's as recorded).
    first = MODEL.rating()
    start = (first.mu, first.sigma)
    after_g2 = new_ratings([RatedSeat(one, 2, *start), RatedSeat(pat, 1, *start)])[one]
    after_g4 = new_ratings(
        [RatedSeat(one, 2, *after_g2), RatedSeat(two, 1, *start), RatedSeat(pat, 3, *pat_after_g2)]
    )
    assert rating(db, one) == pytest.approx((*after_g4[one], 2, 0))
    assert rating(db, two) == pytest.approx((*after_g4[two], 1, 1))
    assert [p[0] for p in points(db, one)] == ["g2", "g4"]
    assert [p[1:] for p in points(db, one)] == [
        pytest.approx(after_g2),
        pytest.approx(after_g4[one]),
    ]
    assert [p[0] for p in points(db, two)] == ["g4"]
    assert (rating(db, pat), points(db, pat)) == (pat_before, pat_points)
    assert (rating(db, quin), points(db, quin)) == (quin_before, quin_points)
    assert rating(db, cheat) is None and points(db, cheat) == []
    rated = db.call(lambda s: {t.id: t.rated for t in s.query(GameTable)})
    assert rated == {"g1": False, "g2": True, "g3": False, "g4": True, "g5": True}


def test_an_opponent_with_no_rated_game_left_loses_the_rating(db: Database) -> None:
    cheat, victim = account(db, "cheat"), account(db, "victim")
    rated_game(db, "g1", {cheat: 1, victim: 2}, 1.0)
    rated_game(db, "g2", {victim: 1, cheat: 2}, 2.0)
    assert db.call(void_rated_games, cheat) == (["g1", "g2"], [victim])
    assert rating(db, victim) is None and points(db, victim) == []


def test_a_marked_cheaters_later_game_rates_nobody_and_they_leave_the_boards(
    db: Database,
) -> None:
    cheat, one, closed = account(db, "cheat"), account(db, "one"), account(db, "closed")
    rated_game(db, "g1", {cheat: 1, one: 2}, 1.0)
    rated_game(db, "g2", {closed: 1, one: 2}, 2.0)
    board = db.call(leaderboard_of, GAME, 10, False)
    assert {name for _r, name, _b in board} == {"cheat", "one", "closed"}
    db.call(store.add_sanction, cheat, store.CHEATER, "engine", 3.0, None, None)
    db.call(store.add_sanction, closed, store.CLOSED_ACCOUNT, "abuse", 3.0, None, None)
    assert [name for _r, name, _b in db.call(leaderboard_of, GAME, 10, False)] == ["one"]
    # A game the cheater was already playing, finished after the mark: nobody is rated.
    before = rating(db, one)
    rated_game(db, "g3", {one: 1, cheat: 2}, 4.0)
    assert rating(db, one) == before
    assert db.call(lambda s: s.get(GameTable, "g3").rated) is False
    # Without a cheater at the table, a game rates as ever.
    rated_game(db, "g4", {one: 1, closed: 2}, 5.0)
    assert rating(db, one) != before
