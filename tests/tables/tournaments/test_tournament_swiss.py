"""A Swiss round of a two-player game: byes, rematches, absent and withdrawn players, seats."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from meeple.tables.tournaments.model import Bye, Entrant, Finish, PlayerId
from meeple.tables.tournaments.pairing.swiss import FULL_FIELD, SwissRound, pair_swiss, round_cost
from meeple.tables.tournaments.records import player_records

Outcome = Callable[[Entrant, Entrant, int], tuple[int, int]]


def higher_rated_wins(a: Entrant, b: Entrant, _round: int) -> tuple[int, int]:
    """Ranks of a board (seat 0 first) when the higher rating wins."""
    return (1, 2) if a.rating > b.rating else (2, 1)


def lower_rated_wins(a: Entrant, b: Entrant, _round: int) -> tuple[int, int]:
    """Ranks of a board when the lower rating wins (upsets all along)."""
    return (2, 1) if a.rating > b.rating else (1, 2)


def all_draws(_a: Entrant, _b: Entrant, _round: int) -> tuple[int, int]:
    """Ranks of a drawn board."""
    return (1, 1)


def seat_zero_wins_odd_rounds(_a: Entrant, _b: Entrant, round_: int) -> tuple[int, int]:
    """Seat 0 wins in odd rounds, seat 1 in even ones."""
    return (1, 2) if round_ % 2 else (2, 1)


def field(size: int) -> list[Entrant]:
    """``size`` players, ids 1.., ratings spread and all different."""
    return [Entrant(i, 1500 + (i * 137) % 401) for i in range(1, size + 1)]


def play(
    entrants: list[Entrant], rounds: int, outcome: Outcome
) -> tuple[list[SwissRound], list[Finish], list[Bye]]:
    """Pair and play ``rounds`` rounds, each board ending as ``outcome`` says."""
    by_id = {entrant.id: entrant for entrant in entrants}
    finishes: list[Finish] = []
    byes: list[Bye] = []
    played: list[SwissRound] = []
    for number in range(1, rounds + 1):
        round_ = pair_swiss(entrants, finishes, byes)
        played.append(round_)
        for a, b in round_.boards:
            finishes.append(Finish(number, (a, b), outcome(by_id[a], by_id[b], number)))
        if round_.bye is not None:
            byes.append(Bye(number, round_.bye))
    return played, finishes, byes


@pytest.mark.parametrize(
    "outcome", [higher_rated_wins, lower_rated_wins, all_draws, seat_zero_wins_odd_rounds]
)
def test_nine_players_four_rounds_one_bye_each_round_no_rematch_no_second_bye(
    outcome: Outcome,
) -> None:
    entrants = field(9)
    played, finishes, byes = play(entrants, 4, outcome)
    for round_ in played:
        assert round_.bye is not None
        seated = [player for board in round_.boards for player in board] + [round_.bye]
        assert sorted(seated) == [entrant.id for entrant in entrants]
    meetings = Counter(frozenset(finish.players) for finish in finishes)
    assert max(meetings.values()) == 1
    assert len({bye.player for bye in byes}) == 4


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    entrants = field(5)
    round_ = pair_swiss(entrants, [], [])
    lowest = min(entrants, key=lambda entrant: entrant.rating)
    assert round_.bye == lowest.id
    second = pair_swiss(entrants, [], [Bye(1, lowest.id)])
    next_lowest = sorted(entrants, key=lambda entrant: entrant.rating)[1]
    assert second.bye == next_lowest.id


def test_a_bye_scores_a_win() -> None:
    records = player_records([Finish(1, (1, 2), (1, 2))], [Bye(1, 3)], bye_points=2)
    assert records[3].points == records[1].points == 2


def test_players_absent_are_left_out_without_a_bye_or_a_loss() -> None:
    entrants = field(8)
    absent = {3, 6}
    round_ = pair_swiss([e for e in entrants if e.id not in absent], [], [])
    seated = {player for board in round_.boards for player in board}
    assert seated == {entrant.id for entrant in entrants} - absent
    assert round_.bye is None


def test_withdrawn_players_are_not_paired() -> None:
    entrants = [*field(6), Entrant(7, 1900, withdrawn=True)]
    round_ = pair_swiss(entrants, [], [])
    assert all(7 not in board for board in round_.boards)
    assert round_.bye is None


def test_equal_scores_meet() -> None:
    entrants = field(8)
    played, finishes, byes = play(entrants, 2, higher_rated_wins)
    points = player_records(finishes, byes, 2)
    third = pair_swiss(entrants, finishes, byes)
    assert all(points[a].points == points[b].points for a, b in third.boards)
    assert played[0].boards != third.boards


def test_rounds_are_the_same_every_time() -> None:
    entrants = field(11)
    first = play(entrants, 4, lower_rated_wins)
    again = play(list(reversed(entrants)), 4, lower_rated_wins)
    assert first == again


def seat_history(finishes: list[Finish]) -> dict[PlayerId, list[int]]:
    """Each player's seats in round order."""
    seats: dict[PlayerId, list[int]] = {}
    for finish in sorted(finishes, key=lambda finish: finish.round):
        for seat, player in enumerate(finish.players):
            seats.setdefault(player, []).append(seat)
    return seats


@pytest.mark.parametrize("outcome", [all_draws, higher_rated_wins])
def test_seats_alternate_so_nobody_starts_much_more_than_they_follow(outcome: Outcome) -> None:
    _played, finishes, _byes = play(field(8), 6, outcome)
    for seats in seat_history(finishes).values():
        assert seats.count(0) == seats.count(1) == 3
        shown = "".join(map(str, seats))
        assert "000" not in shown and "111" not in shown


def test_a_large_field_is_paired_in_blocks_by_score() -> None:
    entrants = field(2 * FULL_FIELD + 11)
    played, finishes, byes = play(entrants, 3, higher_rated_wins)
    meetings = Counter(frozenset(finish.players) for finish in finishes)
    assert max(meetings.values()) == 1
    assert len({bye.player for bye in byes}) == 3
    records = player_records(finishes[: len(played[0].boards)], byes[:1], 2)
    second = played[1]
    mixed = sum(1 for a, b in second.boards if records[a].points != records[b].points)
    assert mixed <= 1
    assert round_cost(second, entrants, finishes[: len(played[0].boards)], byes[:1])[:3] == (
        0,
        0,
        0,
    )
