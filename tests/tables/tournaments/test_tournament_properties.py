"""Properties of the pairings on small fields, checked against every possible pairing."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.tables.tournaments.model import Bye, Entrant, Finish, PlayerId, table_sizes
from meeple.tables.tournaments.pairing.arena import EXACT_POOL, Waiting, pair_arena
from meeple.tables.tournaments.pairing.swiss import SwissRound, pair_swiss, round_cost
from meeple.tables.tournaments.pairing.swiss_tables import seat_swiss_tables, table_cost
from meeple.tables.tournaments.records import player_records

RESULTS = [(1, 2), (2, 1), (1, 1)]


@st.composite
def tournaments(
    draw: st.DrawFn, smallest: int = 1, largest: int = 8, table: int = 2
) -> tuple[list[Entrant], list[Finish], list[Bye]]:
    """A field of ``smallest`` to ``largest`` present players and any past of games and byes."""
    size = draw(st.integers(smallest, largest))
    ratings = draw(st.lists(st.integers(1000, 2000), min_size=size, max_size=size))
    entrants = [Entrant(player, rating) for player, rating in enumerate(ratings, start=1)]
    finishes: list[Finish] = []
    byes: list[Bye] = []
    for number in range(1, draw(st.integers(0, 5)) + 1):
        for _ in range(draw(st.integers(0, 4))):
            seated = draw(st.permutations(range(1, size + 2)))[:table]
            if len(seated) == table:
                ranks = draw(st.lists(st.integers(1, table), min_size=table, max_size=table))
                finishes.append(Finish(number, tuple(seated), tuple(ranks)))
        if draw(st.booleans()):
            byes.append(Bye(number, draw(st.integers(1, size + 1))))
    return entrants, finishes, byes


def every_round(players: Sequence[PlayerId | None]) -> Iterator[SwissRound]:
    """Every way to pair ``players`` (``None`` is the bye), in no particular seat order."""
    if not players:
        yield SwissRound((), None)
        return
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        for round_ in every_round([*rest[:index], *rest[index + 1 :]]):
            if first is None or other is None:
                bye = first if other is None else other
                yield SwissRound(round_.boards, bye)
            else:
                yield SwissRound(((first, other), *round_.boards), round_.bye)


def all_rounds(entrants: list[Entrant]) -> list[SwissRound]:
    """Every possible round of ``entrants``."""
    players: list[PlayerId | None] = [entrant.id for entrant in entrants]
    if len(players) % 2:
        players.append(None)
    return list(every_round(players))


def fewest_byes(entrants: list[Entrant], byes: list[Bye]) -> int:
    """The fewest byes any of ``entrants`` has had."""
    return min(sum(1 for bye in byes if bye.player == entrant.id) for entrant in entrants)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_the_round_costs_no_more_than_the_cheapest_possible(
    tournament: tuple[list[Entrant], list[Finish], list[Bye]],
) -> None:
    entrants, finishes, byes = tournament
    ours = pair_swiss(entrants, finishes, byes)
    paired = [player for board in ours.boards for player in board]
    if ours.bye is not None:
        paired.append(ours.bye)
    assert sorted(paired) == [entrant.id for entrant in entrants]
    cheapest = min(round_cost(r, entrants, finishes, byes) for r in all_rounds(entrants))
    assert round_cost(ours, entrants, finishes, byes) == cheapest


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_no_rematch_while_a_round_without_one_exists(
    tournament: tuple[list[Entrant], list[Finish], list[Bye]],
) -> None:
    entrants, finishes, byes = tournament
    met = {frozenset(finish.players) for finish in finishes}
    least = fewest_byes(entrants, byes)

    def fair_bye(round_: SwissRound) -> bool:
        return round_.bye is None or sum(b.player == round_.bye for b in byes) == least

    def rematches(round_: SwissRound) -> int:
        return sum(1 for board in round_.boards if frozenset(board) in met)

    ours = pair_swiss(entrants, finishes, byes)
    if any(fair_bye(r) and not rematches(r) for r in all_rounds(entrants)):
        assert rematches(ours) == 0


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_a_bye_never_goes_to_a_player_who_had_one_while_another_had_none(
    tournament: tuple[list[Entrant], list[Finish], list[Bye]],
) -> None:
    entrants, finishes, byes = tournament
    ours = pair_swiss(entrants, finishes, byes)
    if ours.bye is not None:
        had = sum(1 for bye in byes if bye.player == ours.bye)
        assert had == fewest_byes(entrants, byes)


def every_seating(
    players: Sequence[PlayerId], sizes: Sequence[int]
) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes``, the first player at the first."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, sizes[0] - 1):
        remaining = [player for player in rest if player not in others]
        for seating in every_seating(remaining, sizes[1:]):
            yield [(first, *others), *seating]


@settings(max_examples=100, deadline=None)
@given(tournaments(smallest=5, largest=9, table=3))
def test_no_repeated_opponent_at_a_table_while_a_seating_without_one_exists(
    tournament: tuple[list[Entrant], list[Finish], list[Bye]],
) -> None:
    entrants, finishes, byes = tournament
    ours = seat_swiss_tables(entrants, finishes, byes, 3, 2, 4)
    records = player_records(finishes, byes, 4)
    sizes = table_sizes(len(entrants), 3, 2, 4)
    assert sorted(len(table) for table in ours.tables) == sorted(sizes)
    players = [entrant.id for entrant in entrants]
    fewest = min(
        sum(table_cost(table, records)[0] for table in seating)
        for order in set(permutations(sizes))
        for seating in every_seating(players, order)
    )
    assert sum(table_cost(table, records)[0] for table in ours.tables) == fewest


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 20), st.integers(1000, 2000), st.booleans()),
        max_size=10,
    ),
    st.data(),
)
def test_an_arena_pass_seats_all_but_one_and_meets_no_last_opponent_while_it_can(
    players: list[tuple[int, int, bool]], data: st.DataObject
) -> None:
    ids = list(range(1, len(players) + 1))
    last = {p: data.draw(st.sampled_from([0, *ids]).filter(lambda o, p=p: o != p)) for p in ids}
    pool = [
        Waiting(player, points, rating, frozenset({last[player]}) - {0}, paused)
        for player, (points, rating, paused) in zip(ids, players, strict=True)
    ]
    result = pair_arena(pool)
    active = [w.id for w in pool if not w.paused]
    seated = [p for table in result.tables for p in table]
    assert sorted(seated + list(result.waiting)) == sorted(active)
    assert len(result.waiting) == len(active) % 2

    def rematches(round_: SwissRound) -> int:
        return sum(1 for a, b in round_.boards if last[a] == b or last[b] == a)

    ours = SwissRound(tuple((a, b) for a, b in result.tables), None)
    everyone = [Entrant(player, 1500) for player in active]
    if any(not rematches(r) for r in all_rounds(everyone)):
        assert rematches(ours) == 0


@settings(max_examples=100, deadline=None)
@given(st.integers(EXACT_POOL + 1, 60), st.randoms(use_true_random=False), st.data())
def test_a_large_arena_pool_meets_no_opponent_of_its_last_game(
    size: int, rng: random.Random, data: st.DataObject
) -> None:
    ids = list(range(1, size + 1))
    rng.shuffle(ids)
    last: dict[PlayerId, frozenset[PlayerId]] = {player: frozenset() for player in ids}
    played = data.draw(st.integers(0, size // 2))
    for index in range(played):
        a, b = ids[2 * index], ids[2 * index + 1]
        last[a], last[b] = frozenset({b}), frozenset({a})
    pool = [
        Waiting(player, rng.randrange(8), rng.randrange(1400, 1600), last[player])
        for player in sorted(ids)
    ]
    result = pair_arena(pool)
    assert len(result.waiting) == size % 2
    for a, b in result.tables:
        assert b not in last[a]
