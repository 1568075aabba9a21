"""Slide grid evaluations and view reading, as tables of grids."""

from __future__ import annotations

import pytest

from meeple.games.slide import GAME
from meeple.games.slide.bots.evaluate import (
    best_take,
    mean_unseen,
    pairing_score,
    unseen_counts,
    visible_score,
)
from meeple.games.slide.bots.seen import legal_takes, read_view
from meeple.games.slide.grid import Grid

D = -1  # a face-down card of unknown value


def grid(*rows: tuple[int, int, int, int]) -> Grid:
    return tuple(card for row in rows for card in row)


PLAIN = (1, 2, 3, 4)


@pytest.mark.parametrize(
    ("cells", "hidden", "expected"),
    [
        (grid((5, 5, 5, 2), (1, 3, 1, 3), (3, 1, 3, 1), (1, 3, 1, 3)), 5.5, 2 + 3 * 8),
        (grid((5, 5, D, D), PLAIN, PLAIN, PLAIN), 5.5, 11.0),  # 5s cancel; columns cancel
        (grid((7, D, 7, 0), (2, 9, 4, 6), (6, 4, 9, 2), (2, 9, 4, 6)), 5.0, 7 + 5 + 7 + 3 * 21),
    ],
)
def test_visible_score(cells: Grid, hidden: float, expected: float) -> None:
    assert visible_score(cells, hidden) == pytest.approx(expected)


def test_a_face_down_neighbour_gives_a_lone_card_a_chance_to_pair() -> None:
    chances = [0.0] * 7 + [0.5] + [0.0] * 3
    alone = grid((7, 2, 9, 4), (2, 9, 4, 6), (6, 4, 9, 2), (2, 9, 4, 6))
    hopeful = grid((7, D, 9, 4), (2, 9, 4, 6), (6, 4, 9, 2), (2, 9, 4, 6))
    assert visible_score(alone, 0.0) - pairing_score(alone, 0.0, chances) == 0
    assert visible_score(hopeful, 0.0) - pairing_score(hopeful, 0.0, chances) == pytest.approx(3.5)


def test_unseen_counts_and_their_mean() -> None:
    counts = unseen_counts([10] * 10 + [1] * 4)
    assert counts[10] == 0 and counts[1] == 6 and sum(counts) == 86
    assert mean_unseen([0] + [10] * 10) == pytest.approx(5.5)
    assert mean_unseen(counts) < 5.5


def test_best_take_makes_a_pair_rather_than_take_the_low_card() -> None:
    holed = grid((9, 0, 2, 3), (4, 5, 6, 7), (2, 3, 4, 5), (6, 7, 8, 1))
    # a 9 entering from the left pushes the 9 to (0,1) and lands beside it
    _score, value, side = best_take(holed, [1, 9], lambda g: visible_score(g, 5.5))
    assert (value, side) == (9, "left")


def test_takes_from_the_view_are_the_engine_takes() -> None:
    state = GAME.setup(GAME.default_options(3), seed=4)
    for seat in range(3):
        state, _ = GAME.apply(state, seat, GAME.parse_action({"type": "reveal", "cell": [1, 1]}))
    seat = next(iter(GAME.to_act(state)))
    seen = read_view(GAME.view(state, seat), seat)
    engine = {(a.value, a.side) for a in GAME.legal_actions(state, seat)}
    assert set(legal_takes(seen)) == engine
