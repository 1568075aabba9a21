"""Standings (Swiss and arena tie-breaks) and the round deadline's rule."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from meeple.games.base import Result
from meeple.games.slide import GAME as SLIDE
from meeple.games.summy import GAME as SUMMY
from meeple.tables.tournaments.deadline import DeadlineOutcome, deadline_outcome
from meeple.tables.tournaments.model import Bye, Entrant, Finish
from meeple.tables.tournaments.standings import arena_standings, swiss_standings


def test_swiss_ranks_by_points_then_buchholz_with_byes_counting_the_players_own_points() -> None:
    entrants = [Entrant(player, 1500) for player in range(1, 6)]
    finishes = [
        Finish(1, (1, 2), (1, 2)),
        Finish(1, (3, 4), (1, 2)),
        Finish(2, (1, 3), (1, 2)),
        Finish(2, (5, 2), (1, 1)),
    ]
    byes = [Bye(1, 5), Bye(2, 4)]
    rows = swiss_standings(entrants, finishes, byes)
    assert [row.player for row in rows] == [1, 5, 3, 4, 2]
    by_player = {row.player: row for row in rows}
    assert {p: r.points for p, r in by_player.items()} == {1: 4, 2: 1, 3: 2, 4: 2, 5: 3}
    assert {p: r.buchholz for p, r in by_player.items()} == {1: 3, 2: 7, 3: 6, 4: 4, 5: 4}
    assert {p: r.sonneborn_berger for p, r in by_player.items()} == {
        1: 3,
        2: Fraction(3, 2),
        3: 2,
        4: 2,
        5: Fraction(7, 2),
    }
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5]


def test_swiss_sonneborn_berger_settles_an_equal_buchholz_before_the_rating() -> None:
    entrants = [Entrant(1, 1500), Entrant(2, 1900), Entrant(3, 1400), Entrant(4, 1500)]
    finishes = [
        Finish(1, (1, 2), (1, 2)),
        Finish(1, (3, 4), (1, 1)),
        Finish(2, (1, 3), (1, 1)),
        Finish(2, (2, 4), (1, 2)),
    ]
    rows = swiss_standings(entrants, finishes, [])
    assert all(row.buchholz == 4 for row in rows)
    assert [row.player for row in rows] == [1, 3, 2, 4]


def test_swiss_tie_breaks_at_a_table_of_three_take_the_mean_of_the_opponents() -> None:
    entrants = [Entrant(player, 1500) for player in (1, 2, 3)]
    rows = swiss_standings(entrants, [Finish(1, (1, 2, 3), (1, 2, 3))], [], bye_points=4)
    by_player = {row.player: row for row in rows}
    assert [by_player[p].points for p in (1, 2, 3)] == [4, 2, 0]
    assert [by_player[p].buchholz for p in (1, 2, 3)] == [1, 2, 3]
    assert [by_player[p].sonneborn_berger for p in (1, 2, 3)] == [1, 0, 0]


def test_withdrawn_players_stay_in_the_standings_marked() -> None:
    entrants = [Entrant(1, 1500), Entrant(2, 1500, withdrawn=True)]
    rows = swiss_standings(entrants, [Finish(1, (1, 2), (2, 1))], [])
    assert [(row.player, row.withdrawn) for row in rows] == [(2, True), (1, False)]
    arena = arena_standings(entrants, [Finish(1, (1, 2), (2, 1))])
    assert [(row.player, row.withdrawn) for row in arena] == [(2, True), (1, False)]


def test_arena_ranks_by_points_then_wins_then_performance_then_rating() -> None:
    ratings = {1: 1500, 2: 2000, 5: 1800, 6: 1400, 8: 2500, 9: 1600, 10: 1600, 11: 1700}
    entrants = [Entrant(player, rating) for player, rating in ratings.items()]
    finishes = [
        Finish(1, (1, 5), (1, 2)),
        Finish(2, (2, 6), (1, 2)),
        Finish(3, (8, 9), (1, 1)),
        Finish(4, (8, 10), (1, 1)),
    ]
    rows = arena_standings(entrants, finishes)
    assert [row.player for row in rows] == [1, 2, 8, 9, 10, 11, 6, 5]
    by_player = {row.player: row for row in rows}
    assert by_player[1].performance == 2300 and by_player[2].performance == 1900
    assert by_player[11].performance == 1700 and by_player[11].games == 0


def test_arena_standings_show_who_is_on_a_streak() -> None:
    entrants = [Entrant(1, 1500), Entrant(2, 1500)]
    finishes = [Finish(n, (1, 2), (1, 2)) for n in (1, 2)]
    rows = arena_standings(entrants, finishes)
    assert [(row.player, row.points, row.on_fire) for row in rows] == [(1, 4, True), (2, 0, False)]


def test_at_the_deadline_the_player_on_turn_loses() -> None:
    state = SUMMY.setup(SUMMY.default_options(2), 1)
    assert SUMMY.to_act(state) == frozenset({0})
    assert deadline_outcome(SUMMY, state, 2) == DeadlineOutcome((2, 1), frozenset({0}))


def test_at_the_deadline_the_seats_still_to_play_a_simultaneous_step_share_the_last_place() -> None:
    state = SLIDE.setup(SLIDE.default_options(4), 1)
    assert deadline_outcome(SLIDE, state, 4).ranks == (1, 1, 1, 1)
    action = next(iter(SLIDE.legal_actions(state, 0)))
    state, _events = SLIDE.apply(state, 0, action)
    assert deadline_outcome(SLIDE, state, 4) == DeadlineOutcome((1, 2, 2, 2), frozenset({1, 2, 3}))


class FinishedGame:
    """A game whose every state is over, with a fixed result."""

    def result(self, _state: Any) -> Result:
        """The fixed result."""
        return Result(scores=(3, 9), ranks=(2, 1), reason="over")

    def to_act(self, _state: Any) -> frozenset[int]:
        """Nobody acts in a finished game."""
        return frozenset()


def test_a_game_over_by_the_deadline_keeps_its_result() -> None:
    outcome = deadline_outcome(FinishedGame(), None, 2)  # type: ignore[arg-type]
    assert outcome == DeadlineOutcome((2, 1), frozenset())
