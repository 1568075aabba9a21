"""Seats rotate over shared deals; lineups are read like ``expert,greedy*3``."""

from __future__ import annotations

import pytest

from meeple.arena.schedule import LineupError, build_schedule, parse_lineup


@pytest.mark.parametrize(
    ("text", "lineup"),
    [
        ("expert,greedy", ("expert", "greedy")),
        ("expert, greedy*3", ("expert", "greedy", "greedy", "greedy")),
        ("random*2", ("random", "random")),
    ],
)
def test_parse_lineup(text: str, lineup: tuple[str, ...]) -> None:
    assert parse_lineup(text) == lineup


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("expert,wizard", "unknown bot level 'wizard'"),
        ("greedy*x", "repeat count must be a number"),
        ("greedy*0", "at least 1"),
    ],
)
def test_bad_lineups_are_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(LineupError, match=message):
        parse_lineup(text)


def test_two_seats_swap_on_each_deal() -> None:
    specs = build_schedule("summy", ("strong", "greedy"), 2, 6, 100, 0.5, {"players": 2})
    assert [(s.seed, s.seats) for s in specs] == [
        (100, ("strong", "greedy")),
        (100, ("greedy", "strong")),
        (101, ("strong", "greedy")),
        (101, ("greedy", "strong")),
        (102, ("strong", "greedy")),
        (102, ("greedy", "strong")),
    ]
    assert [s.index for s in specs] == list(range(6))
    assert {s.budget_s for s in specs} == {0.5}


def test_four_seats_put_the_expert_in_every_seat_of_every_deal() -> None:
    lineup = ("expert", "greedy", "greedy", "greedy")
    specs = build_schedule("slide", lineup, 4, 8, 1, 1.0, {"players": 4})
    for deal in (1, 2):
        seats = [s.seats.index("expert") for s in specs if s.seed == deal]
        assert sorted(seats) == [0, 1, 2, 3]


def test_solo_every_bot_plays_every_deal_alone() -> None:
    specs = build_schedule("summy", ("expert", "greedy"), 1, 4, 5, 1.0, {"players": 1})
    assert [(s.seed, s.seats) for s in specs] == [
        (5, ("expert",)),
        (5, ("greedy",)),
        (6, ("expert",)),
        (6, ("greedy",)),
    ]


def test_a_lineup_must_fill_the_seats() -> None:
    with pytest.raises(LineupError, match="one bot per seat"):
        build_schedule("slide", ("expert", "greedy"), 4, 4, 1, 1.0, {"players": 4})
