"""The move generator on the rules file's placement examples: crossing, parallel, sealed."""

from __future__ import annotations

import pytest

from meeple.games.summy.movegen import best_moves, legal_moves
from meeple.games.summy.movegen.solve import _search, solve
from meeple.games.summy.tiles import Cell, Equation, Placement, Position

pytestmark = pytest.mark.usefixtures("summy_engine")

START: dict[Cell, str] = {(0, 0): "="}


def place(direction: str, *cells_and_tiles: tuple[int, int, str]) -> Placement:
    """A placement from ``(row, col, tile)`` triples."""
    return Placement(direction, tuple(((r, c), t) for r, c, t in cells_and_tiles))  # type: ignore[arg-type]


ONE_PLUS_ONE = place("H", (0, -3, "1"), (0, -2, "+"), (0, -1, "1"), (0, 1, "2"))
AFTER_ONE_PLUS_ONE = {**START, (0, -3): "1", (0, -2): "+", (0, -1): "1", (0, 1): "2"}
ONE_PLUS_ONE_EQ = Equation(0, -3, "H", 5)
CROSSING = place("V", (-2, -3, "2"), (-1, -3, "x"), (1, -3, "="), (2, -3, "2"))
AFTER_CROSSING = {**AFTER_ONE_PLUS_ONE, (-2, -3): "2", (-1, -3): "x", (1, -3): "=", (2, -3): "2"}
CROSSING_EQ = Equation(-2, -3, "V", 5)
# Row 1, lying under 1+1=2 and ending on the crossing's "=" at (1,-3)... then 6 after it.
PARALLEL = place("H", (1, -6, "2"), (1, -5, "x"), (1, -4, "3"), (1, -2, "6"))


@pytest.mark.parametrize(
    ("tiles", "equations", "hand", "placement", "legal"),
    [
        # The first example: 1+1=2 through the start "=".
        (START, (), "11+2", ONE_PLUS_ONE, True),
        # The same tiles with nothing touching the "=": no old tile in the run.
        (START, (), "11+2", place("H", (0, 3, "1"), (0, 4, "+"), (0, 5, "1"), (0, 6, "2")), False),
        # Sealed: (0,2) is just after 1+1=2; nothing may go there, in either direction.
        (AFTER_ONE_PLUS_ONE, (ONE_PLUS_ONE_EQ,), "1x2=", place("V", (0, 2, "2")), False),
        (AFTER_ONE_PLUS_ONE, (ONE_PLUS_ONE_EQ,), "1x2=", place("H", (0, 2, "2")), False),
        # Crossing: a vertical equation through the 1 at (0,-3).
        (AFTER_ONE_PLUS_ONE, (ONE_PLUS_ONE_EQ,), "2x=2", CROSSING, True),
        # Parallel: row 1 under 1+1=2 through the crossing's "=" at (1,-3).
        (AFTER_CROSSING, (ONE_PLUS_ONE_EQ, CROSSING_EQ), "2x36", PARALLEL, True),
        # Before the crossing row 1 holds no old tile: no equation there.
        (AFTER_ONE_PLUS_ONE, (ONE_PLUS_ONE_EQ,), "2x36=", PARALLEL, False),
    ],
)
def test_rules_file_examples(
    tiles: dict[Cell, str],
    equations: tuple[Equation, ...],
    hand: str,
    placement: Placement,
    legal: bool,
) -> None:
    position = Position(tiles, equations, tuple(hand))
    listed = {move.placement for move in legal_moves(position)}
    assert (placement in listed) is legal
    assert (placement in legal_moves(position)) is legal


def test_no_listed_move_touches_a_sealed_cell() -> None:
    position = Position(AFTER_CROSSING, (ONE_PLUS_ONE_EQ, CROSSING_EQ), tuple("123456=+"))
    sealed = position.sealed()
    moves = list(legal_moves(position))
    assert moves
    assert not any(cell in sealed for move in moves for cell in move.placement.cells)


def test_a_single_tile_counts_once_per_direction() -> None:
    # "2" at (0,1) completes 1+1=2 across; below the "=" nothing reads down.
    position = Position({**START, (0, -3): "1", (0, -2): "+", (0, -1): "1"}, (), ("2",))
    moves = list(legal_moves(position))
    assert [(m.placement.dir, m.equation_text, m.score) for m in moves] == [("H", "1+1=2", 4)]
    both = Position(
        {
            (0, 0): "=",
            (0, -3): "1",
            (0, -2): "+",
            (0, -1): "1",
            (-4, 1): "3",
            (-3, 1): "-",
            (-2, 1): "1",
            (-1, 1): "=",
        },
        (),
        ("2",),
    )
    assert sorted((m.placement.dir, m.equation_text) for m in legal_moves(both)) == [
        ("H", "1+1=2"),
        ("V", "3-1=2"),
    ]


@pytest.mark.parametrize(
    ("hand", "count"),
    [
        ("", 0),  # nothing to place
        ("++x:", 0),  # no digit
        ("1+1", 0),  # 1+1= needs a 2 after the "="
        ("11+2", 2),  # 1+1=2 across and down
        ("12+3", 4),  # 1+2=3 and 2+1=3, across and down
    ],
)
def test_counts_on_the_start_table(hand: str, count: int) -> None:
    moves = legal_moves(Position(START, (), tuple(hand)))
    listed = list(moves)
    assert len(listed) == count == moves.count() == len(moves)
    assert bool(moves) is (count > 0)


def test_order_is_across_then_down_by_line_then_start() -> None:
    moves = list(legal_moves(Position(START, (), tuple("1234+-=x"))))
    keys = [
        (
            m.placement.dir,
            m.equation.row if m.placement.dir == "H" else m.equation.col,
            m.equation.col if m.placement.dir == "H" else m.equation.row,
            m.equation.length,
        )
        for m in moves
    ]
    assert keys == sorted(keys)
    assert len(moves) == len(set(moves))


def test_a_move_is_in_the_view_only_with_its_exact_score_and_text() -> None:
    position = Position(START, (), tuple("11+2"))
    move = next(iter(legal_moves(position)))
    assert move in legal_moves(position)
    assert type(move)(move.placement, move.score + 1, move.equation_text, move.equation) not in (
        legal_moves(position)
    )


@pytest.mark.parametrize("n", [0, 1, 2, 5, 50])
def test_best_moves_break_ties_by_the_listing_order(n: int) -> None:
    position = Position(START, (), tuple("1234+-=x"))
    ranked = sorted(legal_moves(position), key=lambda m: -m.score)
    assert best_moves(position, n) == ranked[:n]


@pytest.mark.parametrize(
    ("pattern", "hand", "fillings"),
    [
        ("?+?=2", "1128", ((4, "11"),)),
        ("???=?", "236x", ((4, "2x36"), (4, "3x26"))),
        ("7:2=?", "4", ()),  # 7:2 is 3.5
        ("?:0=0", "5", ()),  # division by zero is false
        ("0?+1=8", "7", ()),  # 07 has a leading zero
        ("1-5=?", "4", ()),  # negative: no number is -4
        ("??=?", "1+1=2", ()),  # too short for an equation
        ("1+1=2", "3", ()),  # nothing placed
        ("??:??=?", "84127", ((6, "72184"), (6, "84127"))),  # 72:18=4, 84:12=7
        # A zero numerator over a divisor of any length; 1:2, 2:13 and the like are fractions.
        (
            "?:????",
            "00123=",
            (
                *((4, "01=0"), (4, "02=0"), (4, "03=0")),
                *((5, "012=0"), (5, "013=0"), (5, "021=0"), (5, "023=0"), (5, "031=0")),
                (5, "032=0"),
            ),
        ),
    ],
)
def test_solver_cases(pattern: str, hand: str, fillings: tuple[tuple[int, str], ...]) -> None:
    assert solve(pattern, "".join(sorted(hand))) == fillings


LONE_TILE_HANDS = [
    "1+=2",
    "=12+3",
    "0:=x5",
    "-01349:=",
    "11359:=x",
    "2x3=6-",
    "+-24457:",
    "0134568=",
]
LONE_TILE_PATTERNS = [
    "????3???",
    "??3?????",
    "????0???",
    "7????????",
    "????????5",
    "???=????",
    "=????",
    "?9??",
]


@pytest.mark.parametrize("hand", LONE_TILE_HANDS)
def test_the_wildcard_search_agrees_with_the_search_per_stretch(hand: str) -> None:
    """One old digit or "=" in open cells: the shared search finds what each stretch's search finds.

    The hands mix leading zeros (``0``), divisions (by ``0`` too), subtractions
    that go below 0, repeated digits and hands with no ``=``.
    """
    key = "".join(sorted(hand))
    for pattern in LONE_TILE_PATTERNS:
        first_old = next(i for i, cell in enumerate(pattern) if cell != "?")
        assert solve(pattern, key) == _search(pattern, key, first_old), pattern


@pytest.mark.parametrize(
    ("pattern", "hand", "fillings"),
    [
        # Runs that hold the 3 only (13-9=4, 13-4=9) end before the 7.
        ("?3?????7???", "-19=4+", ((5, "1-4=9"), (5, "1-9=4"))),
        # Runs that reach the 7 as well: 73-67=6, 73-27=46, 73-47=26, 634-7=627.
        ("?3??7????", "-24667=", ((6, "7-6=6"), (7, "7-2=46"), (7, "7-4=26"), (8, "64-=627"))),
        ("2?+???8??", "13469:=", ((7, "163=4"), (7, "361=4"))),  # 21+63=84, 23+61=84
    ],
)
def test_runs_before_the_second_block_come_from_the_shorter_stretch(
    pattern: str, hand: str, fillings: tuple[tuple[int, str], ...]
) -> None:
    key = "".join(sorted(hand))
    first_old = next(i for i, cell in enumerate(pattern) if cell != "?")
    assert solve(pattern, key) == _search(pattern, key, first_old) == fillings
