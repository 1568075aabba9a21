"""The expert's fast Slide play-outs follow the engine's rules exactly.

``games/slide/bots/sim.py`` keeps a mutable copy of a deal so that thousands of
play-outs stay cheap; it scores with the engine's own ``final_tally``. Here
random deals are played through the engine and, action by action, through the
simulation started from the same deal with every card known: after each
action the grids, the pool, the round, the first player and the next taker
must be the engine's, and at the end of the deal the points too.
"""

from __future__ import annotations

import random

import pytest

from meeple.games import get_game
from meeple.games.slide.actions import Reveal, Take
from meeple.games.slide.bots import sim
from meeple.games.slide.bots.evaluate import visible_score
from meeple.games.slide.bots.sim import World, final_points, pick, play_out_python, take
from meeple.games.slide.grid import cell_index, final_tally, index_cell
from meeple.games.slide.state import DRAFT, NO_SEAT, OVER, ROUNDS, State

SLIDE = get_game("slide")

DEALS = 40
"""Random deals compared (player counts and the first-player variant vary)."""


def world_at_start(state: State) -> World:
    """The simulation of ``state`` (round 1 of a deal) with every card known."""
    players = state.options.players
    return World(
        players=players,
        rounds=ROUNDS,
        round=state.round,
        first=None if state.first == NO_SEAT else state.first,
        grids=list(state.grids),
        pool=[],
        to_take=[],
        picks=[-1] * players,
    )


def assert_same(world: World, state: State) -> None:
    """The simulation shows what the engine's state shows."""
    assert world.grids == list(state.grids)
    assert sorted(world.pool) == sorted(state.pool)
    assert world.round == state.round
    if state.first != NO_SEAT:
        assert world.first == state.first
    if state.phase == DRAFT:
        assert world.to_take and world.to_take[0] == state.turn
    else:
        assert world.to_take == []


@pytest.mark.parametrize("deal", range(DEALS))
def test_the_simulation_steps_like_the_engine(deal: int) -> None:
    rng = random.Random(deal)
    players = 2 + deal % 5
    options = {**SLIDE.default_options(players), "lowest_reveal_starts": deal % 2 == 1}
    state = SLIDE.setup(options, seed=1000 + deal)
    world = world_at_start(state)
    while state.phase != OVER:
        seat = rng.choice(sorted(SLIDE.to_act(state)))
        action = rng.choice(list(SLIDE.legal_actions(state, seat)))
        state, _events = SLIDE.apply(state, seat, action)
        if isinstance(action, Reveal):
            pick(world, seat, cell_index(action.cell))
        else:
            assert isinstance(action, Take)
            take(world, action.value, action.side)
        if state.phase != OVER:
            assert_same(world, state)
    assert [final_points(grid) for grid in world.grids] == list(state.deal_scores[0])


@pytest.mark.parametrize("deal", range(10))
def test_a_play_out_replayed_through_the_engine_scores_the_same(
    deal: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every reveal and take of a reference play-out is legal; the engine agrees on the points."""
    players = 2 + deal % 5
    options = {**SLIDE.default_options(players), "lowest_reveal_starts": deal % 2 == 0}
    state = SLIDE.setup(options, seed=2000 + deal)
    played: list[tuple[int, Reveal | Take]] = []

    def record_pick(world: World, seat: int, cell: int) -> None:
        played.append((seat, Reveal(index_cell(cell))))
        pick(world, seat, cell)

    def record_take(world: World, value: int, side: str) -> None:
        played.append((world.to_take[0], Take(value, side)))  # type: ignore[arg-type]
        take(world, value, side)

    monkeypatch.setattr(sim, "pick", record_pick)
    monkeypatch.setattr(sim, "take", record_take)
    points = play_out_python(world_at_start(state), seed=deal)
    for seat, action in played:
        assert action in SLIDE.legal_actions(state, seat)
        state, _events = SLIDE.apply(state, seat, action)
    assert state.phase == OVER
    assert points == list(state.deal_scores[0])


def test_the_bots_estimate_of_a_face_up_grid_is_the_engines_score() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        grid = tuple(rng.randint(1, 4) for _ in range(16))  # few values: many pairs
        assert visible_score(grid, 5.5) == final_tally(grid)[0]
        assert final_points(grid) == final_tally(grid)[0]
