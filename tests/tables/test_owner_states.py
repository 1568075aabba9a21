"""The ownership state machine (:mod:`meeple.tables.cluster.owner_states`), a transition
at a time.

Each allowed move is tested from its state, and every other (state, move) pair
must raise: a table never becomes owned except by ``run`` from ``claiming``.
"""

from __future__ import annotations

import itertools

import pytest

from meeple.tables.cluster.owner_states import (
    CLAIMING,
    COPY,
    OWNED,
    STANDING_DOWN,
    TRANSITIONS,
    IllegalTransition,
    OwnerState,
    OwnerStates,
)

MOVES = ("lease", "run", "give_up", "lose", "stood_down", "release")
PATHS = {COPY: [], CLAIMING: ["lease"], OWNED: ["lease", "run"]}
PATHS[STANDING_DOWN] = [*PATHS[OWNED], "lose"]


def in_state(state: OwnerState, table_id: str = "t1") -> OwnerStates:
    """A fresh machine with ``table_id`` brought to ``state`` by allowed moves."""
    states = OwnerStates()
    for move in PATHS[state]:
        getattr(states, move)(table_id)
    assert states.state(table_id) is state
    return states


def test_an_unknown_table_is_a_copy_not_owned() -> None:
    states = OwnerStates()
    assert states.state("t1") is COPY
    assert not states.owned("t1")
    assert states.ids(OWNED) == []


def test_lease_moves_a_copy_to_claiming() -> None:
    states = in_state(COPY)
    states.lease("t1")
    assert states.state("t1") is CLAIMING and not states.owned("t1")


def test_run_moves_claiming_to_owned() -> None:
    states = in_state(CLAIMING)
    states.run("t1")
    assert states.owned("t1") and states.ids(OWNED) == ["t1"]


def test_give_up_moves_claiming_back_to_copy() -> None:
    states = in_state(CLAIMING)
    states.give_up("t1")
    assert states.state("t1") is COPY


def test_lose_moves_owned_to_standing_down_which_is_not_owned() -> None:
    states = in_state(OWNED)
    states.lose("t1")
    assert states.state("t1") is STANDING_DOWN and not states.owned("t1")
    assert states.ids(OWNED) == [] and states.ids(STANDING_DOWN) == ["t1"]


def test_stood_down_moves_standing_down_to_copy() -> None:
    states = in_state(STANDING_DOWN)
    states.stood_down("t1")
    assert states.state("t1") is COPY


def test_release_moves_owned_to_copy() -> None:
    states = in_state(OWNED)
    states.release("t1")
    assert states.state("t1") is COPY and states.ids(OWNED) == []


@pytest.mark.parametrize(
    ("state", "move"),
    [
        (state, move)
        for state, move in itertools.product(OwnerState, MOVES)
        if (state, move) not in TRANSITIONS
    ],
)
def test_every_other_move_is_refused_and_changes_nothing(state: OwnerState, move: str) -> None:
    states = in_state(state)
    with pytest.raises(IllegalTransition):
        getattr(states, move)("t1")
    assert states.state("t1") is state


def test_owned_is_reached_only_by_run_from_claiming() -> None:
    into_owned = [key for key, to in TRANSITIONS.items() if to is OWNED]
    assert into_owned == [(CLAIMING, "run")]


def test_lease_many_leases_only_the_copies_and_says_which() -> None:
    states = in_state(OWNED, "owned")
    states.lease("claiming")
    assert states.lease_many(["owned", "claiming", "new", "other"]) == ["new", "other"]
    assert [states.state(t) for t in ("owned", "claiming", "new")] == [OWNED, CLAIMING, CLAIMING]


def test_tables_move_independently() -> None:
    states = in_state(OWNED, "a")
    states.lease("b")
    states.release("a")
    assert states.state("a") is COPY and states.state("b") is CLAIMING
