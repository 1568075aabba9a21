"""The end: cancelling, scores, ties, ranks, and the match to 100 variant."""

from __future__ import annotations

import random
from typing import Any

import pytest
from slide_helpers import fresh, grid, last_round, random_step

from meeple.games.base import Effect
from meeple.games.slide import GAME, State, Take
from meeple.games.slide.grid import final_tally
from meeple.games.slide.state import deal_grids, parse_options

# Before the last take of 9 from the right: rows 1-3 are already final.
# After it, TWELVE_IN_3 keeps 2 4 6 (12 points, 3 cards),
# TWELVE_IN_4 keeps 1 2 4 5 (12 points, 4 cards), FOURTEEN keeps 1 2 4 7.
TWELVE_IN_3 = "8 8 _ 2  7 7 4 9  5 5 6 10  3 3 3 10"
TWELVE_IN_4 = "8 8 _ 1  7 7 2 9  6 6 4 10  3 3 5 10"
FOURTEEN = "8 8 _ 1  7 7 2 9  6 6 4 10  3 3 7 10"


def finish(pre_grids: list[str], first: int = 0, **fields: Any) -> tuple[State, list[Effect]]:
    """Play round 16's takes (every seat takes a 9 from the right); the state and events."""
    state = last_round(pre_grids, [9] * len(pre_grids), first, **fields)
    events: list[Effect] = []
    for i in range(len(pre_grids)):
        state, new_events = GAME.apply(state, (first + i) % len(pre_grids), Take(9, "right"))
        events.extend(new_events)
    return state, events


def after_last_take(text: str) -> str:
    """The final grid: the card right of the hole moves into it, the 9 lands at (0,3)."""
    tokens = text.split()
    return " ".join([*tokens[:2], tokens[3], "9", *tokens[4:]])


@pytest.mark.parametrize(
    ("text", "points", "cards"), [(TWELVE_IN_3, 12, 3), (TWELVE_IN_4, 12, 4), (FOURTEEN, 14, 4)]
)
def test_the_prepared_grids_score_as_described(text: str, points: int, cards: int) -> None:
    assert final_tally(grid(after_last_take(text)))[:2] == (points, cards)


@pytest.mark.parametrize(
    ("grids", "scores", "cards", "ranks"),
    [
        # Two players tied on 12 points with 3 and 4 cards left: the one with 3 wins.
        ([TWELVE_IN_4, TWELVE_IN_3], (12, 12), (4, 3), (2, 1)),
        # Lowest score wins.
        ([FOURTEEN, TWELVE_IN_4], (14, 12), (4, 4), (2, 1)),
        # Same points and cards: a shared victory.
        ([TWELVE_IN_4, TWELVE_IN_4], (12, 12), (4, 4), (1, 1)),
        # Equal players share a rank: 1, 1, 3.
        ([TWELVE_IN_3, TWELVE_IN_3, TWELVE_IN_4], (12, 12, 12), (3, 3, 4), (1, 1, 3)),
        (
            [FOURTEEN, TWELVE_IN_4, TWELVE_IN_3, TWELVE_IN_4],
            (14, 12, 12, 12),
            (4, 4, 3, 4),
            (4, 2, 1, 2),
        ),
    ],
)
def test_scores_ties_and_ranks(
    grids: list[str], scores: tuple[int, ...], cards: tuple[int, ...], ranks: tuple[int, ...]
) -> None:
    state, events = finish(grids)
    result = GAME.result(state)
    assert result is not None
    assert (result.scores, result.ranks) == (scores, ranks)
    assert result.winners == tuple(s for s, r in enumerate(ranks) if r == 1)
    assert result.details["cards_left"] == list(cards)
    assert result.details["running_totals"] == list(scores)
    assert events[-1] == {"type": "game_over", "result": result.to_json()}
    assert state.phase == "over" and GAME.to_act(state) == frozenset()


def test_details_hold_the_final_grids_after_cancelling() -> None:
    state, events = finish([TWELVE_IN_3, TWELVE_IN_4])
    result = GAME.result(state)
    assert result is not None
    assert result.details["final_grids"][0] == [
        [None, None, 2, None],
        [None, None, 4, None],
        [None, None, 6, None],
        [None, None, None, None],
    ]
    assert result.details["final_grids"][1][3] == [None, None, 5, None]
    deal_over = next(e for e in events if e["type"] == "deal_over")
    assert deal_over["grids"] == result.details["final_grids"]
    assert deal_over["scores"] == [12, 12] and deal_over["cards_left"] == [3, 4]


def test_game_points_match_cancelling_of_the_final_grids() -> None:
    rng = random.Random(4)
    state = fresh(5, seed=4)
    while GAME.result(state) is None:
        state, _seat, _action = random_step(state, rng)
    result = GAME.result(state)
    assert result is not None
    tallies = [final_tally(g) for g in state.grids]
    assert result.scores == tuple(t[0] for t in tallies)
    assert result.details["cards_left"] == [t[1] for t in tallies]


MATCH: dict[str, Any] = {"options": {"match_to_100": True}}


def test_match_deals_again_while_every_total_is_below_100() -> None:
    state, events = finish([TWELVE_IN_3, FOURTEEN], first=1, totals=(80, 85), **MATCH)
    assert GAME.result(state) is None
    assert (state.deal, state.round, state.phase) == (2, 1, "reveal")
    assert state.totals == (92, 99) and state.deal_scores == ((12, 14),)
    grids, first = deal_grids(parse_options({"players": 2, "match_to_100": True}), 1, 2)
    assert state.grids == grids and state.first == first
    assert [e["type"] for e in events][-3:] == ["round_over", "deal_over", "new_deal"]
    assert events[-1] == {"type": "new_deal", "deal": 2, "first_player": first}
    for seat in (0, 1, None):  # the running totals are public, as the scores so far
        view = GAME.view(state, seat)
        assert view["totals"] == [92, 99] and view["deal_scores"] == [[12, 14]]
        assert view["last_deal"]["cards_left"] == [3, 4]
        assert view["last_deal"]["grids"][0][0] == [None, None, 2, None]


@pytest.mark.parametrize(
    ("totals", "grids", "scores", "ranks"),
    [
        # A total reaches 100: lowest running total wins.
        ((88, 80), [TWELVE_IN_3, FOURTEEN], (100, 94), (2, 1)),
        # Equal totals: fewer cards left in the last deal wins.
        ((88, 88), [TWELVE_IN_4, TWELVE_IN_3], (100, 100), (2, 1)),
        # Equal totals and cards: shared victory.
        ((90, 90), [TWELVE_IN_4, TWELVE_IN_4], (102, 102), (1, 1)),
    ],
)
def test_match_ends_once_a_total_reaches_100(
    totals: tuple[int, int], grids: list[str], scores: tuple[int, int], ranks: tuple[int, int]
) -> None:
    state, _events = finish(grids, totals=totals, deal_scores=((50, 50),), deal=3, **MATCH)
    result = GAME.result(state)
    assert result is not None
    assert (result.scores, result.ranks) == (scores, ranks)
    assert result.details["deals"] == 3
    assert len(result.details["deal_scores"]) == 2


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_matches_end_when_a_running_total_reaches_100(players: int) -> None:
    rng = random.Random(players)
    state = fresh(players, seed=players, match_to_100=True)
    deals = {1}
    while GAME.result(state) is None:
        state, _seat, _action = random_step(state, rng)
        deals.add(state.deal)
    result = GAME.result(state)
    assert result is not None
    per_deal = result.details["deal_scores"]
    assert len(per_deal) == result.details["deals"] == max(deals)
    assert list(result.scores) == [sum(d[s] for d in per_deal) for s in range(players)]
    assert max(result.scores) >= 100
    assert all(
        max(sum(d[s] for d in per_deal[:k]) for s in range(players)) < 100
        for k in range(1, len(per_deal))
    )
