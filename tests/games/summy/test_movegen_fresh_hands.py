"""The move generator on fresh-hand positions (hands often rich in ``=``), on both engines.

Positions come from :func:`summy_positions.fresh_hand_position`: tables grown
by random play with a fresh 8-tile hand every turn, as the expert imagines its
opponent and an analysis meets them. The brute force of ``test_movegen`` is
the truth on 6-tile hands; on 8-tile hands the two engines must agree move for
move, in order.
"""

from __future__ import annotations

import os

import pytest
from summy_positions import fresh_hand_position
from test_movegen import brute_force

from meeple.games.summy.movegen import best_moves, legal_moves
from meeple.games.summy.movegen import engine as movegen_engine
from meeple.games.summy.movegen.solve import HOLE, _search, solve
from meeple.games.summy.tiles import Move, Position

# (seed, hand size, how many "=" in the hand or None for a random draw)
CASES = [(seed, 6, (None, 2, 3)[seed % 3]) for seed in range(36)]


@pytest.fixture(scope="module")
def positions_with_truth() -> list[tuple[Position, set[Move]]]:
    """The positions and every legal move of each, by the brute force."""
    positions = [fresh_hand_position(seed, size, equals) for seed, size, equals in CASES]
    return [(position, brute_force(position)) for position in positions]


def test_fresh_hands_hold_two_or_three_equals(
    positions_with_truth: list[tuple[Position, set[Move]]],
) -> None:
    hands = [position.hand for position, _ in positions_with_truth]
    assert sum(hand.count("=") == 2 for hand in hands) >= 12
    assert sum(hand.count("=") == 3 for hand in hands) >= 12
    assert sum(len(truth) > 0 for _, truth in positions_with_truth) >= 15


def test_legal_moves_equal_the_brute_force_on_fresh_hands(
    positions_with_truth: list[tuple[Position, set[Move]]], summy_engine: str
) -> None:
    for (seed, _, _), (position, truth) in zip(CASES, positions_with_truth, strict=True):
        listed = list(legal_moves(position))
        assert len(listed) == len(set(listed)), f"seed {seed}: a move is listed twice"
        assert set(listed) == truth, f"seed {seed} ({summy_engine})"
        ranked = sorted(listed, key=lambda m: -m.score)
        assert best_moves(position, 3) == ranked[:3], f"seed {seed}"


def both_engines() -> None:
    """Skip (or fail in CI) where the compiled core is not built."""
    if not movegen_engine.compiled_available():
        message = "the compiled move generator is not built"
        if os.environ.get("MEEPLE_REQUIRE_COMPILED"):
            pytest.fail(message + "; CI tests both engines")
        pytest.skip(message)


def moves_by_engine(position: Position) -> dict[str, list[Move]]:
    """The full list of legal moves from each engine, in their order."""
    before = movegen_engine.engine()
    try:
        found = {}
        for name in movegen_engine.ENGINES:
            movegen_engine.use_engine(name)
            found[name] = list(legal_moves(position))
        return found
    finally:
        movegen_engine.use_engine(before)


@pytest.mark.parametrize("seed", range(40))
def test_the_engines_agree_on_eight_tile_fresh_hands(seed: int) -> None:
    both_engines()
    position = fresh_hand_position(1000 + seed)
    found = moves_by_engine(position)
    assert found["compiled"] == found["python"]


def test_the_compiled_core_hands_back_what_it_cannot_do_exactly() -> None:
    """A stretch beyond the core's 128-bit arithmetic is searched by the Python reference."""
    both_engines()
    from meeple.games.summy.movegen import _movegen_c

    pattern = "9" * 30 + "x" + "9" * 7 + "=" + HOLE * 8
    assert _movegen_c.search(pattern, "0123=", -1) is None
    before = movegen_engine.engine()
    try:
        movegen_engine.use_engine("compiled")
        key = "0189+x="
        assert solve("??" + "9x9" + "?????", key) == _search("??9x9?????", key, 2)
        assert solve(pattern, "0123=") == _search(pattern, "0123=", 0)
    finally:
        movegen_engine.use_engine(before)


def test_an_engine_that_is_not_there_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        movegen_engine.use_engine("fast")


@pytest.mark.parametrize(
    ("setting", "expected"),
    [("python", "python"), ("", "compiled-if-built"), ("turbo", "unknown engine 'turbo'")],
)
def test_the_environment_variable_picks_the_engine(setting: str, expected: str) -> None:
    import subprocess
    import sys

    code = "from meeple.games.summy.movegen import engine as e; print(e.engine())"
    env = {**os.environ, movegen_engine.ENGINE_VARIABLE: setting}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if expected == "compiled-if-built":
        built = movegen_engine.compiled_available()
        assert done.stdout.strip() == ("compiled" if built else "python")
    elif expected == "python":
        assert done.stdout.strip() == "python"
    else:
        assert done.returncode != 0 and expected in done.stderr
