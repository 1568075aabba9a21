"""What the move generator refuses to read, and how a caller stops it (issue 27)."""

from __future__ import annotations

import pytest

from meeple.games.base import Refusal
from meeple.games.summy.formats import REACH, FormatError, position_from_json
from meeple.games.summy.movegen import best_moves, legal_moves
from meeple.games.summy.movegen.solve import clear_caches
from meeple.games.summy.movegen.stop import SearchStopped
from meeple.games.summy.movegen.windows import line_stretches, lines, sealed_by_line
from meeple.games.summy.tiles import DIRECTIONS, Position


def long_number(digits: int) -> Position:
    """The start ``=`` followed by a number of ``digits`` ones, and a hand that could extend it."""
    tiles = {(0, 0): "="} | {(0, col): "1" for col in range(1, digits + 1)}
    return Position(tiles, (), ("1", "+", "2", "3"))


@pytest.mark.usefixtures("summy_engine")
@pytest.mark.parametrize("digits", [61, 64, 80])
def test_more_digits_than_the_bag_holds_is_a_refusal_not_a_crash(digits: int) -> None:
    position = long_number(digits)
    for ask in (lambda: legal_moves(position).count(), lambda: best_moves(position, 3)):
        with pytest.raises(Refusal) as refused:
            ask()
        assert refused.value.code == "too_many_digits"
        assert refused.value.params == {"digits": digits + 3, "most": 60}  # and 3 in the hand


@pytest.mark.usefixtures("summy_engine")
def test_as_many_digits_as_the_bag_holds_are_read() -> None:
    position = Position(long_number(59).tiles, (), ("1", "+"))  # 59 on the table, 1 in hand
    assert legal_moves(position).count() == len(list(legal_moves(position)))
    assert len(best_moves(position, 3)) <= 3


@pytest.mark.parametrize("col", [REACH + 1, 10**8, 10**13, 10**39])
def test_a_tile_out_of_reach_of_the_start_is_refused_as_it_is_read(col: int) -> None:
    data = {
        "tiles": [{"row": 0, "col": 0, "tile": "="}, {"row": 0, "col": col, "tile": "1"}],
        "equations": [],
        "hand": ["1", "+", "2", "="],
    }
    with pytest.raises(FormatError) as refused:
        position_from_json(data)
    assert refused.value.code == "out_of_reach"
    assert refused.value.params == {"row": 0, "col": col, "reach": REACH}


def test_the_furthest_tile_a_game_can_have_is_read() -> None:
    data = {
        "tiles": [{"row": 0, "col": 0, "tile": "="}, {"row": -40, "col": REACH - 40, "tile": "1"}],
        "equations": [],
        "hand": [],
    }
    assert position_from_json(data).tiles[(-40, REACH - 40)] == "1"


def busy_position() -> Position:
    """Lone tiles and a full hand: hundreds of moves, from a long search in Python."""
    tiles = {(0, 0): "=", (0, -15): "=", (2, 20): "5", (-2, 20): "8", (-2, -16): "0"}
    return Position(tiles, (), ("+", "-", "1", "3", "4", "7", "8", "="))


@pytest.mark.usefixtures("summy_engine")
def test_a_stop_that_says_so_at_once_ends_the_search() -> None:
    clear_caches()
    with pytest.raises(SearchStopped):
        legal_moves(busy_position(), lambda: True).count()
    with pytest.raises(SearchStopped):
        best_moves(busy_position(), 1, lambda: True)
    # A stopped search cached nothing: asked again without a stop, the answer is whole.
    assert legal_moves(busy_position()).count() == sum(1 for _ in legal_moves(busy_position()))


def test_the_python_search_asks_its_stop_while_it_searches(summy_engine: str) -> None:
    """Asked more often than twice a stretch (before it, and before its search): the
    depth-first search itself asks, so one long search cannot run past the stop."""
    if summy_engine != "python":
        pytest.skip("the compiled core searches a stretch in microseconds: asked between them")
    position = busy_position()
    stretches = 0
    for direction in DIRECTIONS:
        sealed = sealed_by_line(position, direction)
        for line, tiles in lines(position, direction).items():
            stretches += len(list(line_stretches(tiles, sealed.get(line, frozenset()), 8)))
    clear_caches()
    asks = [0]

    def stop() -> bool:
        asks[0] += 1
        return False

    assert legal_moves(position, stop).count() > 400
    assert asks[0] > 2 * stretches
    clear_caches()
    asks[0] = -5  # says to stop at the fifth ask
    with pytest.raises(SearchStopped):
        legal_moves(position, lambda: stop() or asks[0] >= 0).count()
    assert asks[0] == 0
