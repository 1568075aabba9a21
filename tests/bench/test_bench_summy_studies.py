"""The Summy studies of ``bench/`` (issue 32) measure what they say.

``bench/summy_eval_study.py`` fits held-out regressions on rows it records
from self-play; ``bench/summy_luck.py`` plays the expert's search fed the
true hidden tiles. Their figures are in docs/bots.md; these tests check the
pieces on small inputs: a known linear law is recovered, inferred hands are
hands the opponent could hold, recorded rows carry what followed, and the
perfect-information player plays legal moves to the end of a game.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from meeple.games.summy import GAME
from meeple.games.summy.bots.seen import read_view

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str) -> ModuleType:
    """A bench script as a module (``bench/`` is not a package)."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


study = load("summy_eval_study")
luck = load("summy_luck")


def test_held_out_recovers_a_known_law_and_scores_it_on_unseen_seeds() -> None:
    rng = random.Random(3)
    rows = []
    for seed in range(100):
        for _ in range(20):
            a, b = rng.uniform(0, 50), rng.uniform(0, 30)
            rows.append({"seed": seed, "a": a, "b": b, "y": 2.0 * a - 0.5 * b + rng.gauss(0, 1)})
    fitted = study.held_out(rows, "y", ["a", "b"], cut_seed=80)
    assert fitted["rows"] == [1600, 400]
    assert abs(fitted["coef"][1] - 2.0) < 0.02 and abs(fitted["coef"][2] + 0.5) < 0.02
    assert fitted["r2"] > 0.99
    noise_only = study.held_out(rows, "y", ["b"], cut_seed=80)
    assert noise_only["r2"] < fitted["r2"]


def test_inferred_hands_are_hands_the_opponent_could_hold() -> None:
    state = GAME.setup(GAME.default_options(2), 11)
    seen = read_view(GAME.view(state, state.turn), state.turn)
    unseen = Counter(seen.unseen())
    size = seen.hand_sizes[1 - seen.seat]
    for discarded in (None, 0, 3, 8):
        for hand in study.sampled_hands(seen, random.Random(5), 20, discarded):
            assert len(hand) == size
            assert not Counter(hand) - unseen  # drawn from the tiles the bot has not seen
    # after a discard of 3 the kept 5 follow strong's keep rule: at most one '='
    kept_equals = [
        hand[:5].count("=") for hand in study.sampled_hands(seen, random.Random(6), 30, 3)
    ]
    assert max(kept_equals) <= 1 and sum(kept_equals) > 0


def test_recorded_rows_carry_the_terms_and_what_followed() -> None:
    rows = study.game_rows((40007, 1))
    assert rows, "a whole game records its mid-game moves"
    for row in rows:
        assert set(study.TERMS) <= set(row)
        assert row["score"] >= 0 and row["reply"] >= 0 and row["seed"] == 40007
    # the first recorded move's final difference counts every later turn of both seats
    assert any(row["final_diff"] != 0 for row in rows)
    # most moves follow an opponent's placement, whose kept tiles are guessed
    assert any(row["placed_before"] and row["reply_played"] > 0 for row in rows)


def test_the_perfect_information_player_plays_a_game_to_its_end() -> None:
    games = luck.oracle_deal((60003, "expert"))
    assert len(games) == 2
    for oracle_score, strong_score in games:
        assert oracle_score >= 0 and strong_score >= 0
