"""The Slide play-out's compiled core plays exactly the pure-Python reference's deals.

Worlds are determinized from real views taken mid-game (2 to 6 players,
every round, both phases: a draft with takers pending, a reveal with some
picks pending, and the first player not known yet) and played out by both
engines from the same seed: the points must be the same, seat by seat.
Where the compiled core is not built these tests skip, except with
``MEEPLE_REQUIRE_COMPILED`` set (CI), where they fail.
"""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator

import pytest

from meeple.games import get_game
from meeple.games.slide.bots import playout_engine, sim
from meeple.games.slide.bots.seen import read_view
from meeple.games.slide.bots.sim import World, determinize, play_out, play_out_python
from meeple.games.slide.state import OVER

SLIDE = get_game("slide")

GAMES = 30
"""Random games the worlds are taken from (six per player count)."""


def both_engines() -> None:
    """Skip (or fail in CI) where the compiled core is not built."""
    if not playout_engine.compiled_available():
        message = "the compiled Slide play-out is not built (pip install needs a C compiler)"
        if os.environ.get("MEEPLE_REQUIRE_COMPILED"):
            pytest.fail(message + "; CI tests both engines")
        pytest.skip(message)


def worlds_of_game(game: int) -> Iterator[tuple[str, World]]:
    """Determinized worlds from random seats' views along one random game, with the phase."""
    rng = random.Random(game)
    players = 2 + game % 5
    options = {**SLIDE.default_options(players), "lowest_reveal_starts": game % 2 == 1}
    state = SLIDE.setup(options, seed=500 + game)
    while state.phase != OVER:
        if state.round == 1 or rng.random() < 0.3:  # round 1: the first may be unknown
            viewer = rng.randrange(players)
            seen = read_view(SLIDE.view(state, viewer), viewer)
            yield seen.phase, determinize(seen, rng)
        seat = rng.choice(sorted(SLIDE.to_act(state)))
        action = rng.choice(list(SLIDE.legal_actions(state, seat)))
        state, _events = SLIDE.apply(state, seat, action)


@pytest.fixture
def engine_restored() -> Iterator[None]:
    """Put the engine in use back after the test."""
    before = playout_engine.engine()
    try:
        yield
    finally:
        playout_engine.use_engine(before)


@pytest.mark.parametrize("game", range(GAMES))
def test_the_engines_agree_on_worlds_from_real_views(game: int, engine_restored: None) -> None:
    both_engines()
    phases: Counter[str] = Counter()
    for index, (phase, world) in enumerate(worlds_of_game(game)):
        phases[phase] += 1
        if phase == "reveal" and any(p >= 0 for p in world.picks):
            phases["reveal with picks pending"] += 1
        if world.first is None:
            phases["first not known"] += 1
        seed = (game << 40) ^ (index * 0x9E3779B97F4A7C15)  # large seeds too
        playout_engine.use_engine("compiled")
        compiled = play_out(copy.deepcopy(world), seed)
        reference = play_out_python(copy.deepcopy(world), seed)
        assert compiled == reference, f"game {game}, world {index}: {world}"
    assert phases["draft"] and phases["reveal with picks pending"], phases
    if game % 2 == 1:
        assert phases["first not known"], phases


def test_the_seed_picks_the_reveals(engine_restored: None) -> None:
    """Different seeds play different deals, the same seed the same one, negative seeds too."""
    both_engines()
    _, world = next(worlds_of_game(4))
    for name in playout_engine.ENGINES:
        playout_engine.use_engine(name)
        results = {tuple(play_out(copy.deepcopy(world), seed)) for seed in range(40)}
        assert len(results) > 10, name
        again = play_out(copy.deepcopy(world), -7)
        assert (
            again == play_out(copy.deepcopy(world), -7) == play_out(copy.deepcopy(world), 2**64 - 7)
        )


def test_the_python_play_out_runs_when_forced(
    engine_restored: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def spy(world: World, seed: int) -> list[int]:
        calls.append(seed)
        return [0] * world.players

    monkeypatch.setattr(sim, "play_out_python", spy)
    _, world = next(worlds_of_game(2))
    playout_engine.use_engine("python")
    assert playout_engine.compiled_play_out() is None
    assert play_out(world, 3) == [0] * world.players and calls == [3]
    if playout_engine.compiled_available():
        playout_engine.use_engine("compiled")
        assert play_out(world, 4) != [0] * world.players and calls == [3]


def test_an_engine_that_is_not_there_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        playout_engine.use_engine("fast")


@pytest.mark.parametrize("setting", ["python", "", "turbo"])
def test_the_environment_variable_picks_the_engine(setting: str) -> None:
    code = "from meeple.games.slide.bots import playout_engine as e; print(e.engine())"
    env = {**os.environ, playout_engine.ENGINE_VARIABLE: setting}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if setting == "python":
        assert done.stdout.strip() == "python"
    elif setting == "":
        built = playout_engine.compiled_available()
        assert done.stdout.strip() == ("compiled" if built else "python")
    else:
        assert done.returncode != 0 and "unknown engine 'turbo'" in done.stderr


def test_the_compiled_core_refuses_a_broken_world() -> None:
    both_engines()
    from meeple.games.slide.bots import _playout_c

    grids = [tuple(range(-16, 0))] * 2
    with pytest.raises(ValueError, match="one pick"):
        _playout_c.play_out(2, 16, 1, 0, grids, [], [], [-1], 0)
    with pytest.raises(ValueError, match="16 cells"):
        _playout_c.play_out(2, 16, 1, 0, [(1, 2)] * 2, [], [], [-1, -1], 0)
    with pytest.raises(ValueError, match="pool"):
        _playout_c.play_out(2, 16, 1, 0, grids, [11], [], [-1, -1], 0)
