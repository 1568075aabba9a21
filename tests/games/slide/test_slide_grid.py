"""Sliding a card into the hole, and cancelling, as the rules file says."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from slide_helpers import grid

from meeple.games.slide.grid import (
    ENTRIES,
    SIDES,
    Side,
    cancelled,
    cell_index,
    entry_refusal,
    final_tally,
    landing_index,
    slide_in,
    with_hole,
)

# A grid with the hole at (1,1); the values only tell the cards apart.
BASE = grid(
    """
    1 2 3 4
    5 _ 6 7
    8 9 10 1
    2 3 4 5
    """
)


@pytest.mark.parametrize(
    ("hole", "sides"),
    [
        ((1, 1), ("left", "right", "top", "bottom")),  # interior: 4 entries
        ((0, 0), ("right", "bottom")),  # corner: 2
        ((0, 2), ("left", "right", "bottom")),  # edge: 3, not top
        ((0, 3), ("left", "bottom")),
        ((3, 0), ("right", "top")),
        ((3, 3), ("left", "top")),
        ((2, 0), ("right", "top", "bottom")),
        ((1, 3), ("left", "top", "bottom")),
        ((3, 2), ("left", "right", "top")),
        ((2, 2), ("left", "right", "top", "bottom")),
    ],
)
def test_entries_allowed_for_a_hole(hole: tuple[int, int], sides: tuple[str, ...]) -> None:
    assert ENTRIES[cell_index(hole)] == sides


def test_entry_counts_interior_edge_corner() -> None:
    counts = {cell: len(ENTRIES[cell_index(cell)]) for cell in [(1, 1), (0, 2), (0, 0)]}
    assert counts == {(1, 1): 4, (0, 2): 3, (0, 0): 2}


@pytest.mark.parametrize(
    ("side", "after"),
    [
        # left: new card at (1,0), old (1,0) moves to (1,1)
        ("left", "1 2 3 4  9 5 6 7  8 9 10 1  2 3 4 5"),
        # right: new at (1,3), old (1,2),(1,3) move to (1,1),(1,2)
        ("right", "1 2 3 4  5 6 7 9  8 9 10 1  2 3 4 5"),
        # top: new at (0,1), old (0,1) moves down to (1,1)
        ("top", "1 9 3 4  5 2 6 7  8 9 10 1  2 3 4 5"),
        # bottom: new at (3,1), old (2,1),(3,1) move up
        ("bottom", "1 2 3 4  5 9 6 7  8 3 10 1  2 9 4 5"),
    ],
)
def test_slide_from_each_side_of_a_hole_at_1_1(side: str, after: str) -> None:
    assert slide_in(BASE, 9, side) == grid(after)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("hole", "side", "landing"),
    [
        ((1, 1), "left", (1, 0)),
        ((1, 1), "right", (1, 3)),
        ((1, 1), "top", (0, 1)),
        ((1, 1), "bottom", (3, 1)),
        ((0, 0), "right", (0, 3)),
        ((0, 0), "bottom", (3, 0)),
        ((0, 2), "left", (0, 0)),
        ((0, 2), "right", (0, 3)),
        ((0, 2), "bottom", (3, 2)),
    ],
)
def test_new_card_lands_on_the_edge(
    hole: tuple[int, int], side: str, landing: tuple[int, int]
) -> None:
    assert landing_index(cell_index(hole), side) == cell_index(landing)  # type: ignore[arg-type]
    cells = [-5] * 16
    cells[cell_index(hole)] = 0
    after = slide_in(tuple(cells), 9, side)  # type: ignore[arg-type]
    assert after[cell_index(landing)] == 9
    assert 0 not in after


@pytest.mark.parametrize(
    ("hole", "side", "message"),
    [
        ((1, 0), "left", "the hole is in column 0, so the card cannot enter from the left"),
        ((2, 3), "right", "the hole is in column 3, so the card cannot enter from the right"),
        ((0, 2), "top", "the hole is in row 0, so the card cannot enter from the top"),
        ((3, 1), "bottom", "the hole is in row 3, so the card cannot enter from the bottom"),
        ((0, 0), "left", "the hole is in column 0, so the card cannot enter from the left"),
        ((0, 0), "top", "the hole is in row 0, so the card cannot enter from the top"),
    ],
)
def test_entry_into_the_hole_is_refused(hole: tuple[int, int], side: str, message: str) -> None:
    refusal = entry_refusal(cell_index(hole), side)  # type: ignore[arg-type]
    assert refusal == f"you cannot slide a card straight into the hole: {message}"
    with pytest.raises(KeyError):
        slide_in(tuple(0 if i == cell_index(hole) else 1 for i in range(16)), 2, side)  # type: ignore[arg-type]


def test_face_down_cards_keep_their_side_when_they_slide() -> None:
    before = grid("d1 d2 d3 d4  d5 _ d6 d7  d8 d9 d10 d1  d2 d3 d4 d5")
    assert slide_in(before, 7, "right") == grid(
        "d1 d2 d3 d4  d5 d6 d7 7  d8 d9 d10 d1  d2 d3 d4 d5"
    )
    assert slide_in(before, 7, "bottom") == grid(
        "d1 d2 d3 d4  d5 d9 d6 d7  d8 d3 d10 d1  d2 7 d4 d5"
    )


@pytest.mark.parametrize(
    ("final", "points", "left", "after"),
    [
        # Final row 5 5 5 2 with nothing else matching: the three 5s cancel, 2 stays.
        ("5 5 5 2  1 3 1 3  3 1 3 1  1 3 1 3", 26, 13, "_ _ _ 2  1 3 1 3  3 1 3 1  1 3 1 3"),
        # Every card has a same-valued neighbour: score 0, 0 cards left.
        ("4 4 9 9  7 7 2 2  1 6 6 3  1 8 8 3", 0, 0, "_ _ _ _  _ _ _ _  _ _ _ _  _ _ _ _"),
        # Nothing matches: everything stays.
        ("1 3 1 3  3 1 3 1  1 3 1 3  3 1 3 1", 32, 16, "1 3 1 3  3 1 3 1  1 3 1 3  3 1 3 1"),
        # A vertical pair cancels; diagonal neighbours (2 and 9) do not.
        ("7 2 9 3  7 9 2 1  1 3 1 3  3 1 3 1", 42, 14, "_ 2 9 3  _ 9 2 1  1 3 1 3  3 1 3 1"),
        # Judged at once: the middle 6 cancelling does not save its neighbours.
        ("6 6 6 4  2 4 2 1  1 3 1 3  3 1 3 1", 29, 13, "_ _ _ 4  2 4 2 1  1 3 1 3  3 1 3 1"),
    ],
)
def test_cancelling_and_points(final: str, points: int, left: int, after: str) -> None:
    values = grid(final)
    expected = tuple(None if c == 0 else c for c in grid(after))
    assert final_tally(values) == (points, left, expected)
    assert cancelled(values) == tuple(c is None for c in expected)


def reference_slide(before: tuple[int, ...], value: int, side: str) -> tuple[int, ...]:
    """The rule said another way: take the hole out of its line, push the card in at the edge."""
    hole = before.index(0)
    row, col = divmod(hole, 4)
    line = (
        [row * 4 + c for c in range(4)]
        if side in ("left", "right")
        else [col + 4 * r for r in range(4)]
    )
    cards = [before[i] for i in line if i != hole]
    cards = [value, *cards] if side in ("left", "top") else [*cards, value]
    after = list(before)
    for i, card in zip(line, cards, strict=True):
        after[i] = card
    return tuple(after)


@given(
    cards=st.lists(st.integers(1, 10) | st.integers(-10, -1), min_size=16,
                   max_size=16),
    hole=st.integers(0, 15),
    value=st.integers(1, 10),
    side=st.sampled_from(SIDES),
)  # fmt: skip
def test_a_slide_pushes_the_hole_line_toward_the_hole_and_nothing_else(
    cards: list[int], hole: int, value: int, side: Side
) -> None:
    before = with_hole(tuple(cards), hole)
    if side not in ENTRIES[hole]:
        assert entry_refusal(hole, side) is not None
        assert landing_index(hole, side) == hole
        return
    assert landing_index(hole, side) != hole
    after = slide_in(before, value, side)
    assert after == reference_slide(before, value, side)
    assert after[landing_index(hole, side)] == value
    assert sorted(after) == sorted([c for c in before if c != 0] + [value])
