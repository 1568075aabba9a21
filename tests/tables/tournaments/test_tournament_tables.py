"""A Swiss round of a multi-player game (Slide): table sizes, score groups, repeats, seats."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from meeple.games.slide import GAME as SLIDE
from meeple.tables.tournaments.model import Entrant, Finish, PlayerId, place_points, table_sizes
from meeple.tables.tournaments.pairing.swiss_tables import (
    TablesRound,
    seat_swiss_tables,
    table_cost,
)
from meeple.tables.tournaments.records import player_records


def field(size: int) -> list[Entrant]:
    """``size`` players, ids 1.., ratings spread and all different."""
    return [Entrant(i, 1500 + (i * 137) % 401) for i in range(1, size + 1)]


def partitions(
    players: Sequence[PlayerId], sizes: Sequence[int]
) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (tables unordered)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, sizes[0] - 1):
        table = (first, *others)
        remaining = [player for player in rest if player not in others]
        for seating in partitions(remaining, sizes[1:]):
            yield [table, *seating]


def test_twelve_slide_players_three_rounds_at_tables_of_four() -> None:
    entrants = field(12)
    rng = random.Random(7)
    finishes: list[Finish] = []
    for number in range(1, 4):
        round_ = seat_swiss_tables(entrants, finishes, [], 4, SLIDE.min_players, SLIDE.max_players)
        assert [len(table) for table in round_.tables] == [4, 4, 4]
        assert sorted(p for table in round_.tables for p in table) == list(range(1, 13))
        assert round_.byes == ()
        records = player_records(finishes, [], 6)
        repeats = sum(table_cost(table, records)[0] for table in round_.tables)
        fewest = min(
            sum(table_cost(table, records)[0] for table in seating)
            for seating in partitions(list(range(1, 13)), [4, 4, 4])
        )
        assert repeats == fewest
        for table in round_.tables:
            finishes.append(Finish(number, table, tuple(rng.sample(range(1, 5), 4))))


def test_the_first_round_seats_by_rating_from_the_top() -> None:
    entrants = field(8)
    round_ = seat_swiss_tables(entrants, [], [], 4, 3, 6)
    by_rating = [e.id for e in sorted(entrants, key=lambda e: -e.rating)]
    assert [set(table) for table in round_.tables] == [set(by_rating[:4]), set(by_rating[4:])]


def test_score_groups_sit_together_when_nobody_met() -> None:
    entrants = field(8)
    finishes = [Finish(1, (1, 2), (1, 2)), Finish(1, (3, 4), (1, 2))]
    finishes += [Finish(1, (5, 6), (1, 2)), Finish(1, (7, 8), (1, 2))]
    round_ = seat_swiss_tables(entrants, finishes, [], 4, 2, 4)
    assert [set(table) for table in round_.tables] == [{1, 3, 5, 7}, {2, 4, 6, 8}]


def test_thirteen_players_at_tables_of_four_sit_four_three_three_three() -> None:
    assert table_sizes(13, 4, 3, 6) == [4, 3, 3, 3]
    round_ = seat_swiss_tables(field(13), [], [], 4, 3, 6)
    assert [len(table) for table in round_.tables] == [4, 3, 3, 3]


def test_too_few_players_for_a_table_take_a_bye_each() -> None:
    round_ = seat_swiss_tables(field(2), [], [], 4, 3, 6)
    assert round_ == TablesRound((), (2, 1))


def test_seat_zero_goes_to_who_started_least() -> None:
    entrants = field(4)
    finishes = [Finish(1, (1, 2, 3, 4), (1, 2, 3, 4)), Finish(2, (2, 1, 3, 4), (1, 2, 3, 4))]
    round_ = seat_swiss_tables(entrants, finishes, [], 4, 3, 6)
    assert round_.tables[0][0] in {3, 4}
    assert set(round_.tables[0][2:]) == {1, 2}


def test_places_score_two_a_player_below_and_one_a_player_level() -> None:
    assert place_points((1, 2, 3, 4)) == (6, 4, 2, 0)
    assert place_points((1, 1, 3, 4)) == (5, 5, 2, 0)
    assert place_points((1, 2, 2, 2)) == (6, 2, 2, 2)
    assert place_points((1, 1, 1)) == (2, 2, 2)


def test_no_pair_meets_a_third_time_in_three_rounds_of_twelve_at_tables_of_four() -> None:
    """Round 2 must seat some pairs again (4 players from 3 tables of round 1), but a
    third meeting is always avoidable in round 3, whatever the results."""
    entrants = field(12)
    for seed in range(40):
        rng = random.Random(seed)
        finishes: list[Finish] = []
        for number in range(1, 4):
            round_ = seat_swiss_tables(
                entrants, finishes, [], 4, SLIDE.min_players, SLIDE.max_players
            )
            for table in round_.tables:
                finishes.append(Finish(number, table, tuple(rng.sample(range(1, 5), 4))))
        met = Counter(
            frozenset(pair) for finish in finishes for pair in combinations(finish.players, 2)
        )
        assert max(met.values()) == 2, seed
