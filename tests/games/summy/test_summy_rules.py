"""Placement rules 1-7: every placement example of the rules file, and one case per message."""

from __future__ import annotations

import pytest

from meeple.games.base import IllegalAction
from meeple.games.summy.rules import check_move, check_placement, is_legal, run_cells
from meeple.games.summy.tiles import Cell, Direction, Equation, Move, Placement, Position

START: dict[Cell, str] = {(0, 0): "="}
Table = tuple[dict[Cell, str], tuple[Equation, ...]]


def place(direction: Direction, *cells_and_tiles: tuple[int, int, str]) -> Placement:
    """A placement from ``(row, col, tile)`` triples."""
    return Placement(direction, tuple(((r, c), t) for r, c, t in cells_and_tiles))


def tiles_of(placement: Placement) -> list[str]:
    """Exactly the tiles a placement needs from the hand."""
    return [tile for _, tile in placement.tiles]


def play(table: Table, placement: Placement) -> tuple[Table, Move]:
    """The table after a legal placement (with a hand holding just its tiles), and the move."""
    tiles, equations = table
    move = check_placement(tiles, equations, tiles_of(placement), placement)
    after = dict(tiles)
    after.update(placement.tiles)
    return (after, (*equations, move.equation)), move


def refused(table: Table, placement: Placement, hand: list[str] | None = None) -> str:
    """The message with which the placement is refused."""
    tiles, equations = table
    with pytest.raises(IllegalAction) as caught:
        check_placement(tiles, equations, tiles_of(placement) if hand is None else hand, placement)
    return str(caught.value)


# The rules file's examples, on a table holding only the start = at (0,0).
ONE_PLUS_ONE = place("H", (0, -3, "1"), (0, -2, "+"), (0, -1, "1"), (0, 1, "2"))
CROSSING = place("V", (-2, -3, "2"), (-1, -3, "x"), (1, -3, "="), (2, -3, "2"))
PARALLEL = place(  # row 1, = at (1,-3) is the crossing's; 100 lies under + 1 = of row 0
    "H",
    (1, -8, "5"), (1, -7, "x"), (1, -6, "4"), (1, -5, "x"), (1, -4, "5"),
    (1, -2, "1"), (1, -1, "0"), (1, 0, "0"),
)  # fmt: skip
BASE: Table = (START, ())
AFTER_ONE_PLUS_ONE, FIRST_MOVE = play(BASE, ONE_PLUS_ONE)
AFTER_CROSSING, CROSSING_MOVE = play(AFTER_ONE_PLUS_ONE, CROSSING)


def test_one_plus_one_is_legal_scores_4_and_seals_its_ends() -> None:
    assert FIRST_MOVE.score == 4
    assert FIRST_MOVE.equation_text == "1+1=2"
    assert FIRST_MOVE.equation == Equation(0, -3, "H", 5)
    assert set(FIRST_MOVE.equation.sealed_cells()) == {(0, -4), (0, 2)}


def test_the_same_tiles_touching_nothing_old_are_illegal() -> None:
    away = place("H", (5, -3, "1"), (5, -2, "+"), (5, -1, "1"), (5, 0, "="), (5, 1, "2"))
    assert refused(BASE, away) == "the equation must use at least one tile already on the table"


@pytest.mark.parametrize(
    ("placement", "message"),
    [
        (place("H", (0, 2, "2")), "the cell (0,2) is sealed: it is just after the equation 1+1=2"),
        (
            place("H", (0, -4, "1")),
            "the cell (0,-4) is sealed: it is just before the equation 1+1=2",
        ),
        (
            place("V", (-1, 2, "1"), (0, 2, "="), (1, 2, "1")),
            "the cell (0,2) is sealed: it is just after the equation 1+1=2",
        ),
    ],
)
def test_no_tile_on_a_sealed_cell(placement: Placement, message: str) -> None:
    assert refused(AFTER_ONE_PLUS_ONE, placement) == message


def test_crossing_through_an_equation_tile_is_legal() -> None:
    assert CROSSING_MOVE.equation_text == "2x1=2"
    assert CROSSING_MOVE.equation == Equation(-2, -3, "V", 5)
    assert CROSSING_MOVE.score == 5


def test_parallel_placement_under_an_equation_is_legal_after_the_crossing() -> None:
    _, move = play(AFTER_CROSSING, PARALLEL)
    assert move.equation_text == "5x4x5=100"
    assert move.equation == Equation(1, -8, "H", 9)
    assert move.score == 15


@pytest.mark.parametrize(("table", "legal"), [(AFTER_ONE_PLUS_ONE, False), (AFTER_CROSSING, True)])
def test_row_1_needs_the_crossing_for_an_old_tile(table: Table, legal: bool) -> None:
    left = place("H", (1, -6, "2"), (1, -5, "x"), (1, -4, "5"), (1, -2, "1"), (1, -1, "0"))
    tiles, _ = table
    whole = left if legal else place("H", *((r, c, t) for (r, c), t in left.tiles), (1, -3, "="))
    if legal:
        assert play(table, whole)[1].equation_text == "2x5=10"
    else:
        assert (1, -3) not in tiles
        assert (
            refused(table, whole) == "the equation must use at least one tile already on the table"
        )


def test_a_run_that_merely_ends_next_to_a_sealed_cell_is_fine() -> None:
    after_parallel, _ = play(AFTER_CROSSING, PARALLEL)
    # column 1, ending on the 2 at (0,1): (0,2) beside it and (1,1) below it are sealed
    assert {(0, 2), (1, 1)} <= {c for eq in after_parallel[1] for c in eq.sealed_cells()}
    _, move = play(
        after_parallel, place("V", (-4, 1, "6"), (-3, 1, ":"), (-2, 1, "3"), (-1, 1, "="))
    )
    assert move.equation_text == "6:3=2"
    assert move.equation == Equation(-4, 1, "V", 5)


def test_a_finished_equation_can_never_be_lengthened() -> None:
    for cell in [(-3, -3), (3, -3)]:
        message = refused(AFTER_CROSSING, place("V", (cell[0], cell[1], "1")), hand=["1"])
        assert message.startswith(f"the cell ({cell[0]},{cell[1]}) is sealed")


def test_only_the_run_in_the_move_direction_counts() -> None:
    # the 2 at (0,1) also completes column 1 (1+1=2 from (-4,1)): the H move records only row 0
    tiles = {(0, -3): "1", (0, -2): "+", (0, -1): "1", (0, 0): "="}
    tiles |= {(-4, 1): "1", (-3, 1): "+", (-2, 1): "1", (-1, 1): "="}
    horizontal = check_placement(tiles, (), ["2"], place("H", (0, 1, "2")))
    vertical = check_placement(tiles, (), ["2"], place("V", (0, 1, "2")))
    assert horizontal.equation == Equation(0, -3, "H", 5)
    assert vertical.equation == Equation(-4, 1, "V", 5)
    assert horizontal != vertical


@pytest.mark.parametrize(
    ("placement", "hand", "message"),
    [
        # rule 1
        (place("H"), [], "a placement puts at least one tile on the table"),
        (
            place("H", *((0, c, "1") for c in range(-9, 0))),
            ["1"] * 9,
            "a placement puts at most 8 tiles; this one puts 9",
        ),
        (place("H", (0, 1, "7")), ["1", "2"], "tile 7 is not in your hand"),
        (place("H", (0, -3, "1"), (0, -2, "+"), (0, -1, "1"), (0, 1, "1")), ["1", "1", "+"],
         "you place 3 tiles 1 but your hand holds only 2"),
        (place("H", (0, 0, "1")), ["1"], "the cell (0,0) already holds ="),
        (place("H", (0, 1, "1"), (0, 1, "2")), ["1", "2"], "the cell (0,1) is given two tiles"),
        (place("H", (0, 1, "a")), ["a"], "'a' is not a Summy tile"),
        # rule 2
        (place("H", (0, 1, "1"), (1, 1, "1")), ["1", "1"],
         "the placed tiles are not all in one row"),
        (place("V", (0, 1, "1"), (0, 2, "1")), ["1", "1"],
         "the placed tiles are not all in one column"),
        # rule 3
        (place("H", (0, -5, "1"), (0, -4, "+"), (0, -3, "1"), (0, 1, "2")), ["1", "+", "1", "2"],
         "there is an empty cell (0,-2) between placed tiles"),
        # rule 4
        (place("V", (2, 0, "1"), (3, 0, "="), (4, 0, "1")), ["1", "=", "1"],
         "the equation must use at least one tile already on the table"),
        # rule 6
        (place("H", (0, -1, "1"), (0, 1, "1")), ["1", "1"],
         "1=1: before the = there must be two or more numbers with an operator between"),
        (place("H", (0, -3, "1"), (0, -2, "+"), (0, -1, "2"), (0, 1, "0"), (0, 2, "3")),
         ["1", "+", "2", "0", "3"], "03 has a leading zero"),
        (place("V", (-1, 0, "1"), (1, 0, "1")), ["1", "1"],
         "1=1: before the = there must be two or more numbers with an operator between"),
        # rule 7
        (place("H", *((0, c, t) for c, t in zip(range(-5, 0), "2+3x4", strict=True)),
               (0, 1, "2"), (0, 2, "0")),
         list("2+3x420"), "2+3x4 is 14, not 20"),
        (place("H", (0, -3, "5"), (0, -2, ":"), (0, -1, "0"), (0, 1, "0")), ["5", ":", "0", "0"],
         "5:0 divides by zero"),
    ],
)  # fmt: skip
def test_each_rule_has_its_own_message(placement: Placement, hand: list[str], message: str) -> None:
    assert refused(BASE, placement, hand) == message


def test_the_hand_is_a_multiset_in_any_order() -> None:
    hand = ["2", "1", "x", "1", "+", "="]
    assert check_placement(START, (), hand, ONE_PLUS_ONE).score == 4


def test_score_counts_old_digits_too() -> None:
    tiles = {(0, 0): "=", (0, 1): "1", (0, 2): "2", (0, 3): "0"}
    move = check_placement(
        tiles, (), list("8x15"), place("H", (0, -4, "8"), (0, -3, "x"), (0, -2, "1"), (0, -1, "5"))
    )
    assert move.equation_text == "8x15=120"
    assert move.score == 17


def test_position_level_helpers() -> None:
    position = Position(dict(START), (), ("1", "+", "1", "2", "x", "3", "7", "="))
    assert check_move(position, ONE_PLUS_ONE) == FIRST_MOVE
    assert is_legal(position, ONE_PLUS_ONE)
    assert not is_legal(position, place("H", (0, 1, "9")))


def test_run_cells_is_the_longest_unbroken_line() -> None:
    tiles = {(0, -1): "1", (0, 0): "=", (0, 1): "1", (0, 3): "2", (1, 0): "3"}
    assert run_cells(tiles, (0, 0), "H") == [(0, -1), (0, 0), (0, 1)]
    assert run_cells(tiles, (0, 0), "V") == [(0, 0), (1, 0)]


def test_a_tile_in_a_horizontal_and_a_vertical_equation_joins_no_third() -> None:
    # the 1 at (0,-3) is in 1+1=2 (row 0) and 2x1=2 (column -3): every cell that could
    # extend either line through it is sealed or taken
    tiles, equations = AFTER_CROSSING
    ends: list[tuple[Direction, Cell]] = [
        ("H", (0, -4)),
        ("H", (0, 2)),
        ("V", (-3, -3)),
        ("V", (3, -3)),
    ]
    for direction, cell in ends:
        placement = place(direction, (cell[0], cell[1], "1"))
        with pytest.raises(IllegalAction, match="is sealed"):
            check_placement(tiles, equations, ["1"], placement)


def test_the_japanese_sources_parallel_example() -> None:
    # 001 (Japanese): vertical 9-6=3 and 2x4=8 side by side, the 3 touching the x: legal,
    # and the pairs they make across (=2, 3x) need not be anything
    column_0 = {(r, 0): t for r, t in zip(range(5), "9-6=3", strict=True)}
    row_7 = {(7, c): t for c, t in zip(range(-3, 2), "1+7=8", strict=True)}  # gives the old 8
    table: Table = (
        {**column_0, **row_7},
        (Equation(0, 0, "V", 5), Equation(7, -3, "H", 5)),
    )
    placement = place("V", (3, 1, "2"), (4, 1, "x"), (5, 1, "4"), (6, 1, "="))
    after, move = play(table, placement)
    assert (move.equation_text, move.score) == ("2x4=8", 14)
    assert (after[0][(4, 0)], after[0][(4, 1)]) == ("3", "x")
