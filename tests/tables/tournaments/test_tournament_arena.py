"""An arena: points with streaks, and the pass that pairs the waiting pool."""

from __future__ import annotations

from meeple.tables.tournaments.model import Finish
from meeple.tables.tournaments.pairing.arena import Waiting, arena_sheets, pair_arena

WIN, LOSS, DRAW = (1, 2), (2, 1), (1, 1)


def games_of_one(results: list[tuple[int, int]]) -> list[Finish]:
    """Player 1's games against player 2 with these ranks (player 1 in seat 0)."""
    return [Finish(index, (1, 2), ranks) for index, ranks in enumerate(results, start=1)]


def test_two_a_win_one_a_draw_nothing_a_loss() -> None:
    sheet = arena_sheets(games_of_one([WIN, LOSS, DRAW, LOSS]))[1]
    assert [score.points for score in sheet.scores] == [2, 0, 1, 0]
    assert sheet.points == 3 and sheet.wins == 1


def test_two_wins_in_a_row_light_a_streak_that_doubles_until_a_game_is_not_won() -> None:
    sheet = arena_sheets(games_of_one([WIN, WIN, WIN, WIN, LOSS, WIN]))[1]
    assert [score.points for score in sheet.scores] == [2, 2, 4, 4, 0, 2]
    assert [score.doubled for score in sheet.scores] == [False, False, True, True, True, False]
    assert not sheet.on_fire


def test_a_draw_on_a_streak_counts_double_and_puts_it_out() -> None:
    sheet = arena_sheets(games_of_one([WIN, WIN, DRAW, WIN]))[1]
    assert [score.points for score in sheet.scores] == [2, 2, 2, 2]
    assert arena_sheets(games_of_one([WIN, WIN]))[1].on_fire


def test_the_loser_of_each_game_has_no_streak() -> None:
    sheet = arena_sheets(games_of_one([WIN, WIN, WIN]))[2]
    assert sheet.points == 0 and not sheet.on_fire


def test_a_multi_player_win_is_first_place_alone() -> None:
    finishes = [Finish(n, (1, 2, 3), (1, 2, 3)) for n in range(1, 4)]
    finishes.append(Finish(4, (1, 2, 3), (1, 1, 3)))
    sheet = arena_sheets(finishes)[1]
    assert [score.points for score in sheet.scores] == [4, 4, 8, 6]
    assert sheet.wins == 3 and not sheet.on_fire


def test_waiting_players_meet_the_nearest_in_points_then_rating() -> None:
    pool = [
        Waiting(1, 10, 1500),
        Waiting(2, 0, 1500),
        Waiting(3, 10, 1400),
        Waiting(4, 0, 1700),
        Waiting(5, 4, 1500),
        Waiting(6, 4, 1600),
    ]
    pairing = pair_arena(pool)
    assert {frozenset(table) for table in pairing.tables} == {
        frozenset({1, 3}),
        frozenset({6, 5}),
        frozenset({4, 2}),
    }
    assert pairing.waiting == ()


def test_the_last_opponent_is_skipped_while_another_is_waiting() -> None:
    pool = [
        Waiting(1, 10, 1500, last_table=frozenset({2})),
        Waiting(2, 9, 1500, last_table=frozenset({1})),
        Waiting(3, 0, 1500),
    ]
    pairing = pair_arena(pool)
    assert pairing.tables == ((1, 3),)
    assert pairing.waiting == (2,)


def test_the_last_opponent_is_met_again_when_nobody_else_waits() -> None:
    pool = [
        Waiting(1, 10, 1500, last_table=frozenset({2})),
        Waiting(2, 9, 1500, last_table=frozenset({1})),
    ]
    assert pair_arena(pool).tables == ((1, 2),)


def test_a_paused_player_is_not_paired() -> None:
    pool = [Waiting(1, 10, 1500, paused=True), Waiting(2, 9, 1500), Waiting(3, 8, 1500)]
    pairing = pair_arena(pool)
    assert pairing.tables == ((2, 3),)
    assert pairing.waiting == ()


def test_the_odd_player_out_waits() -> None:
    pool = [Waiting(player, 10 - player, 1500) for player in range(1, 6)]
    pairing = pair_arena(pool)
    assert len(pairing.tables) == 2
    assert pairing.waiting == (5,)


def test_seat_zero_goes_to_who_started_the_smaller_share() -> None:
    pool = [
        Waiting(1, 10, 1500, firsts=3, games=4),
        Waiting(2, 9, 1500, firsts=1, games=4),
    ]
    assert pair_arena(pool).tables == ((2, 1),)


def test_a_multi_player_arena_seats_tables_by_the_same_rule() -> None:
    pool = [Waiting(player, 20 - player, 1500) for player in range(1, 11)]
    pool[1] = Waiting(2, 18, 1500, last_table=frozenset({1, 7}))
    pairing = pair_arena(pool, size=4, min_size=3, max_size=6)
    assert [len(table) for table in pairing.tables] == [4, 3, 3]
    assert set(pairing.tables[0]) == {1, 3, 4, 5}
    assert 2 in pairing.tables[1]
    assert pairing.waiting == ()
