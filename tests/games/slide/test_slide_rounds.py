"""A round: the simultaneous reveal, the draft in turn order, the token passing left."""

from __future__ import annotations

import pytest
from slide_helpers import act, fresh, grid

from meeple.games.base import IllegalAction
from meeple.games.slide import GAME, Reveal, State, Take
from meeple.games.slide.actions import action_from_text

DOWN = "d1 d2 d3 d4  d5 d6 d7 d8  d9 d10 d1 d2  d3 d4 d5 d6"


def three_seats(first: int = 1) -> State:
    """3 seats, every card face down, seat ``first`` holds the token."""
    state = fresh(3, seed=2)
    return state._replace(grids=(grid(DOWN),) * 3, first=first)


def revealed(first: int = 1) -> State:
    """After the reveal: seat 0 picked (1,1)=6, seat 1 (0,0)=1, seat 2 (3,3)=6."""
    return act(three_seats(first), (2, "reveal 3,3"), (0, "reveal 1,1"), (1, "reveal 0,0"))


def test_reveal_is_simultaneous_everyone_may_act() -> None:
    state = three_seats()
    assert GAME.to_act(state) == {0, 1, 2}
    for seat in range(3):
        assert set(GAME.legal_actions(state, seat)) == {Reveal(divmod(i, 4)) for i in range(16)}


def test_a_seat_that_picked_waits_and_its_pick_stays_hidden() -> None:
    state, events = GAME.apply(three_seats(), 2, Reveal((3, 3)))
    assert events == [{"type": "picked", "seat": 2}]
    assert GAME.to_act(state) == {0, 1}
    assert GAME.legal_actions(state, 2) == []
    assert state.pool == () and state.grids == three_seats().grids
    with pytest.raises(IllegalAction, match="seat 2 has already picked a card this round"):
        GAME.apply(state, 2, Reveal((0, 0)))


def test_when_all_have_picked_all_cards_enter_the_pool_at_once() -> None:
    state = act(three_seats(), (2, "reveal 3,3"), (0, "reveal 1,1"))
    state, events = GAME.apply(state, 1, Reveal((0, 0)))
    assert events == [
        {"type": "picked", "seat": 1},
        {
            "type": "revealed",
            "round": 1,
            "cards": [
                {"seat": 0, "cell": [1, 1], "value": 6},
                {"seat": 1, "cell": [0, 0], "value": 1},
                {"seat": 2, "cell": [3, 3], "value": 6},
            ],
            "pool": [1, 6, 6],
        },
    ]
    assert state.pool == (1, 6, 6)
    assert [g.index(0) for g in state.grids] == [5, 0, 15]  # each picked cell is now a hole
    assert state.phase == "draft" and GAME.to_act(state) == {1}


def test_only_face_down_cards_may_be_picked() -> None:
    state = three_seats()._replace(grids=(grid(DOWN.replace("d6", "6", 1)),) * 3)
    assert Reveal((1, 1)) not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match=r"the card at \(1,1\) is face up"):
        GAME.apply(state, 0, Reveal((1, 1)))


def test_the_draft_goes_clockwise_from_the_first_player() -> None:
    state = revealed(first=2)
    order = []
    while state.phase == "draft":
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    assert order == [2, 0, 1]


def test_takes_list_each_distinct_pool_value_once_per_entry() -> None:
    state = revealed(first=1)  # seat 1's hole is the corner (0,0): right or bottom
    assert GAME.legal_actions(state, 1) == [
        Take(1, "right"),
        Take(1, "bottom"),
        Take(6, "right"),
        Take(6, "bottom"),
    ]
    assert GAME.legal_actions(state, 0) == []


def test_a_take_slides_the_card_in_face_up_and_removes_one_copy_from_the_pool() -> None:
    state = act(revealed(first=1), (1, "take 1 right"), (2, "take 6 left"))
    assert state.grids[1] == grid("d2 d3 d4 1  d5 d6 d7 d8  d9 d10 d1 d2  d3 d4 d5 d6")
    assert state.grids[2] == grid("d1 d2 d3 d4  d5 d6 d7 d8  d9 d10 d1 d2  6 d3 d4 d5")
    assert state.pool == (6,)
    assert GAME.legal_actions(state, 0) == [Take(6, s) for s in ("left", "right", "top", "bottom")]


def test_take_event_names_the_card_side_hole_and_landing() -> None:
    state, events = GAME.apply(revealed(first=0), 0, Take(6, "top"))
    assert events == [
        {"type": "take", "seat": 0, "value": 6, "side": "top", "hole": [1, 1], "cell": [0, 1]}
    ]
    assert state.grids[0] == grid("d1 6 d3 d4  d5 d2 d7 d8  d9 d10 d1 d2  d3 d4 d5 d6")


@pytest.mark.parametrize(
    ("seat", "text", "message"),
    [
        (
            1,
            "take 1 left",
            "you cannot slide a card straight into the hole: the hole is in "
            "column 0, so the card cannot enter from the left",
        ),
        (1, "take 1 top", "the hole is in row 0, so the card cannot enter from the top"),
        (1, "take 5 right", r"there is no 5 in the pool \(the pool holds 1, 6, 6\)"),
        (0, "take 1 left", "it is seat 1's turn to take a card, not seat 0's"),
        (1, "reveal 1,2", "the reveal is over: it is the draft, and seat 1 takes a card"),
        (7, "take 1 right", "there is no seat 7 at this 3-player table"),
    ],
)
def test_refused_takes_say_why_and_change_nothing(seat: int, text: str, message: str) -> None:
    state = revealed(first=1)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(state, seat, action_from_text(text))
    assert state == revealed(first=1)


def test_no_take_during_the_reveal() -> None:
    with pytest.raises(IllegalAction, match="it is the reveal: pick a face-down card"):
        GAME.apply(three_seats(), 0, Take(3, "left"))


def test_round_end_passes_the_token_left_and_starts_a_new_reveal() -> None:
    state = revealed(first=2)
    state = act(state, (2, "take 6 left"), (0, "take 6 left"))
    state, events = GAME.apply(state, 1, Take(1, "right"))
    assert events[-1] == {"type": "round_over", "round": 1, "first_player": 0}
    assert (state.round, state.phase, state.first, state.pool) == (2, "reveal", 0, ())
    assert GAME.to_act(state) == {0, 1, 2}
    assert all(0 not in g and sum(c > 0 for c in g) == 1 for g in state.grids)


def test_token_wraps_around_the_table() -> None:
    state = act(revealed(first=2), (2, "take 6 left"), (0, "take 6 left"), (1, "take 1 right"))
    assert state.first == 0
    state = act(three_seats(first=0), (0, "reveal 1,1"), (1, "reveal 1,1"), (2, "reveal 1,1"))
    state = act(state, (0, "take 6 left"), (1, "take 6 left"), (2, "take 6 left"))
    assert state.first == 1


def test_sixteen_rounds_then_every_card_is_face_up_and_the_game_ends() -> None:
    state = fresh(4, seed=21)
    rounds_seen = set()
    while GAME.result(state) is None:
        rounds_seen.add(state.round)
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert rounds_seen == set(range(1, 17))
    assert all(card > 0 for g in state.grids for card in g)
    assert GAME.to_act(state) == frozenset()
    assert all(GAME.legal_actions(state, s) == [] for s in range(4))
    with pytest.raises(IllegalAction, match="the game is over"):
        GAME.apply(state, 0, Take(1, "left"))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Reveal((4, 0)), r"there is no cell \(4,0\): rows and columns go from 0 to 3"),
        (Reveal((0, -1)), r"there is no cell \(0,-1\)"),
        (Reveal((1,)), r"a reveal names a cell \(row, col\) of two integers, not \(1,\)"),  # type: ignore[arg-type]
        (Reveal(("a", 0)), r"of two integers, not \('a', 0\)"),  # type: ignore[arg-type]
        (Reveal((True, 0)), r"of two integers, not \(True, 0\)"),
        (Reveal((1.5, 0)), r"of two integers, not \(1.5, 0\)"),  # type: ignore[arg-type]
    ],
)
def test_actions_built_by_hand_are_checked_too(action: Reveal, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(three_seats(), 0, action)


def test_takes_built_by_hand_are_checked_too() -> None:
    with pytest.raises(IllegalAction, match="the side must be one of left, right, top, bottom"):
        GAME.apply(revealed(first=1), 1, Take(1, "up"))  # type: ignore[arg-type]
    for value in (True, 1.0, "1"):
        with pytest.raises(IllegalAction, match="a card value must be an integer from 1 to 10"):
            GAME.apply(revealed(first=1), 1, Take(value, "right"))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="is not a Slide action"):
        GAME.apply(revealed(first=1), 1, {"type": "take"})  # type: ignore[arg-type]
