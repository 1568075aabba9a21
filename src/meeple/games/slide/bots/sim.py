"""Determinized Slide play-outs for the expert bot.

A determinization gives every face-down card a value drawn from the cards
the viewer has not seen (and every other seat's pending pick a cell), so
the rest of the deal can be played out quickly with simple policies. Only
the viewer's information goes in: the engine's state is never touched.

The deal is kept mutable for speed, but slides cards in and scores with the
engine's own functions (``slide_in``, ``with_hole``, ``final_tally``);
``tests/games/slide/bots/test_bots_slide_sim.py`` checks, action by action over random
deals, that the reveal, take and round steps here match the engine's.

The play-out itself has an optional compiled core (``_playout_c``) that
gives exactly :func:`play_out_python`'s points; :func:`play_out` runs the
engine chosen in :mod:`meeple.games.slide.bots.playout_engine`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from meeple.games.slide.bots.evaluate import best_take, visible_score
from meeple.games.slide.bots.playout_engine import compiled_play_out
from meeple.games.slide.bots.seen import SlideSeen
from meeple.games.slide.grid import Grid, final_tally, slide_in, with_hole

ROLLOUT_HIDDEN = 5.5
"""What a face-down card counts for the play-out policy (the deck's mean)."""


@dataclass
class World:
    """One determinized deal, mutable while it is played out.

    ``grids`` hold true values (face-down negative); ``pool`` the revealed
    cards; ``to_take`` the seats still to take this round, in order;
    ``picks[s]`` a pending pick (cell index) or -1.
    """

    players: int
    rounds: int
    round: int
    first: int | None
    grids: list[Grid]
    pool: list[int]
    to_take: list[int]
    picks: list[int]


def determinize(seen: SlideSeen, rng: random.Random) -> World:
    """A deal consistent with ``seen``: hidden values and others' picks sampled."""
    counts = seen.unseen()
    unseen = [v for v, c in enumerate(counts) for _ in range(c)]
    rng.shuffle(unseen)
    grids: list[Grid] = []
    picks: list[int] = []
    for owner, grid in enumerate(seen.grids):
        cells = [(-unseen.pop()) if card < 0 else card for card in grid]
        grids.append(tuple(cells))
        if seen.phase == "reveal" and seen.picked[owner]:
            if owner == seen.seat and seen.my_pick is not None:
                picks.append(seen.my_pick)
            else:
                picks.append(rng.choice([i for i, c in enumerate(cells) if c < 0]))
        else:
            picks.append(-1)
    to_take: list[int] = []
    if seen.phase == "draft" and seen.turn is not None:
        to_take = [seen.turn, *seen.takers_after_me()]
    return World(
        players=seen.players,
        rounds=seen.rounds,
        round=seen.round,
        first=seen.first,
        grids=grids,
        pool=list(seen.pool),
        to_take=to_take,
        picks=picks,
    )


def greedy_score(grid: Grid) -> float:
    """The play-out policy's view of a grid: uncancelled face-up cards, face-down at the mean."""
    return visible_score(grid, ROLLOUT_HIDDEN)


def pick(world: World, seat: int, cell: int) -> None:
    """Record ``seat``'s reveal of ``cell``; when all have picked, turn them up."""
    world.picks[seat] = cell
    if all(p >= 0 for p in world.picks):
        revealed = []
        for owner, chosen in enumerate(world.picks):
            revealed.append(-world.grids[owner][chosen])
            world.grids[owner] = with_hole(world.grids[owner], chosen)
        world.pool = sorted(revealed)
        if world.first is None:  # lowest_reveal_starts: lowest card, earliest seat
            world.first = min(range(world.players), key=lambda s: (revealed[s], s))
        world.to_take = [(world.first + k) % world.players for k in range(world.players)]
        world.picks = [-1] * world.players


def take(world: World, value: int, side: str) -> None:
    """The next taker takes ``value`` from the pool and slides it in from ``side``."""
    seat = world.to_take.pop(0)
    world.pool.remove(value)
    world.grids[seat] = slide_in(world.grids[seat], value, side)  # type: ignore[arg-type]
    if not world.to_take:
        world.round += 1
        assert world.first is not None
        world.first = (world.first + 1) % world.players


MASK64 = (1 << 64) - 1


def reveal_draw(state: int) -> tuple[int, int]:
    """One splitmix64 step: ``(new state, draw)``, all mod 2**64.

    The play-outs' reveals come from this tiny generator because the compiled
    core computes it bit for bit the same, so both engines play the same deal.

    >>> reveal_draw(0)[1] == 0xE220A8397B1DCDAF
    True
    """
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def play_out(world: World, seed: int) -> list[int]:
    """Play the deal to its end (reveals drawn from ``seed``, greedy takes); final points per seat.

    Runs the compiled core when it is the engine in use
    (:mod:`meeple.games.slide.bots.playout_engine`), else :func:`play_out_python`;
    both give the same points. ``world`` is used up: its state afterwards is
    not specified.
    """
    compiled = compiled_play_out()
    if compiled is None:
        return play_out_python(world, seed)
    return list(
        compiled(
            world.players,
            world.rounds,
            world.round,
            -1 if world.first is None else world.first,
            world.grids,
            world.pool,
            world.to_take,
            world.picks,
            seed,
        )
    )


def play_out_python(world: World, seed: int) -> list[int]:
    """The reference play-out: seats reveal in order, a random face-down cell each
    (``down[draw % len(down)]`` with :func:`reveal_draw` from ``seed``); takers take
    :func:`best_take` by :func:`greedy_score`. Final points per seat."""
    state = seed & MASK64
    while True:
        if world.to_take:
            seat = world.to_take[0]
            _, value, side = best_take(world.grids[seat], world.pool, greedy_score)
            take(world, value, side)
            continue
        if world.round > world.rounds:
            break
        for seat in range(world.players):
            if world.to_take:  # the reveal is complete: the draft comes first
                break
            if world.picks[seat] < 0:
                down = [i for i, c in enumerate(world.grids[seat]) if c < 0]
                state, draw = reveal_draw(state)
                pick(world, seat, down[draw % len(down)])
    return [final_points(grid) for grid in world.grids]


def final_points(grid: Grid) -> int:
    """Slide's score of a finished grid (any face-down card counted face up), by the engine."""
    return final_tally(tuple(abs(card) for card in grid))[0]
