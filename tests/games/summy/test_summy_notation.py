"""The placement notation ``H 0,-3 1+1[=]2``: examples, refusals and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from summy_helpers import play_random_game

from meeple.games.summy.notation import NotationError, move_text, parse_move
from meeple.games.summy.tiles import DIRECTIONS, TILES, Equation, Move, Placement

EXAMPLES = [
    ("H 0,-3 1+1[=]2", Placement("H", (((0, -3), "1"), ((0, -2), "+"), ((0, -1), "1"),
                                       ((0, 1), "2"))),
     "1+1=2", 4, Equation(0, -3, "H", 5)),
    ("V -2,-3 2x[1]=2", Placement("V", (((-2, -3), "2"), ((-1, -3), "x"), ((1, -3), "="),
                                        ((2, -3), "2"))),
     "2x1=2", 5, Equation(-2, -3, "V", 5)),
    ("V -4,1 [1+1=]2", Placement("V", (((0, 1), "2"),)), "1+1=2", 4, Equation(-4, 1, "V", 5)),
    ("H 1,-8 5x4x5[=]100", Placement("H", tuple(((1, c), t) for c, t in zip(
        [-8, -7, -6, -5, -4, -2, -1, 0], "5x4x5100", strict=True))),
     "5x4x5=100", 15, Equation(1, -8, "H", 9)),
]  # fmt: skip


@pytest.mark.parametrize(("text", "placement", "equation_text", "score", "equation"), EXAMPLES)
def test_examples(
    text: str, placement: Placement, equation_text: str, score: int, equation: Equation
) -> None:
    move = parse_move(text)
    assert move == Move(placement, score, equation_text, equation)
    assert move_text(move) == text


def test_adjacent_bracket_groups_mean_the_same_as_one() -> None:
    assert parse_move("H 0,0 [1][+]2=3") == parse_move("H 0,0 [1+]2=3")
    assert move_text(parse_move("H 0,0 [1][+]2=3")) == "H 0,0 [1+]2=3"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1+1=2", "'1+1=2' is not a move: write it like 'H 0,-3 1+1[=]2'"),
        ("D 0,0 1+1=2", "'D 0,0 1+1=2' is not a move: write it like 'H 0,-3 1+1[=]2'"),
        ("H 0 1+1=2", "'H 0 1+1=2' is not a move: write it like 'H 0,-3 1+1[=]2'"),
        ("H 0,0 [1+1=2]", "'H 0,0 [1+1=2]': the move places no tile (every tile is in brackets)"),
        ("H 0,0 1+[1=2", "'H 0,0 1+[1=2': a [ is never closed"),
        ("H 0,0 1+[]1=2", "'H 0,0 1+[]1=2': empty brackets []"),
        ("H 0,0 1+1]=2", "'H 0,0 1+1]=2': unexpected ']' in the run"),
        ("H 0,0 1*1=1", "'H 0,0 1*1=1': unexpected '*' in the run"),
        ("H 0,0 1+[[1]=2", "'H 0,0 1+[[1]=2': unexpected '[' in the run"),
        # only the digits 0-9 in a cell, not other scripts' digits that int() would accept
        (
            "H \u0661,0 1+[1]=2",
            "'H \u0661,0 1+[1]=2' is not a move: write it like 'H 0,-3 1+1[=]2'",
        ),
        (
            "H 0,\uff13 1+[1]=2",
            "'H 0,\uff13 1+[1]=2' is not a move: write it like 'H 0,-3 1+1[=]2'",
        ),
    ],
)
def test_refusals(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    assert str(caught.value) == message


@st.composite
def moves(draw: st.DrawFn) -> Move:
    """Any run of tiles with at least one placed tile, anywhere, in either direction."""
    run = draw(st.text(alphabet=TILES, min_size=1, max_size=15))
    placed_flags = draw(st.lists(st.booleans(), min_size=len(run), max_size=len(run)))
    placed_flags[draw(st.integers(0, len(run) - 1))] = True
    direction = draw(st.sampled_from(DIRECTIONS))
    row, col = draw(st.integers(-50, 50)), draw(st.integers(-50, 50))
    equation = Equation(row, col, direction, len(run))
    tiles = tuple(
        (cell, tile)
        for cell, tile, placed in zip(equation.cells(), run, placed_flags, strict=True)
        if placed
    )
    score = sum(int(tile) for tile in run if tile.isdigit())
    return Move(Placement(direction, tiles), score, run, equation)


@given(moves())
def test_any_move_round_trips(move: Move) -> None:
    assert parse_move(move_text(move)) == move


def test_every_move_of_random_games_round_trips() -> None:
    count = 0
    for events in play_random_game(2, 2).events:
        for event in events:
            if event["type"] == "place":
                move = parse_move(event["notation"])
                assert move_text(move) == event["notation"]
                assert move.equation_text == event["equation"]
                assert move.score == event["score"]
                count += 1
    assert count > 0
