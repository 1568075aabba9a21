"""Bots answer within their time budget, with slack for a loaded machine.

Two checks: the planned work of the search bots fits the budget on sampled
positions; and when the planned work could never fit (the planning rate is
raised a thousandfold), the clock still stops the search in time.
"""

from __future__ import annotations

import time

import pytest
from bots_helpers import states_to_act

from meeple.bots import get_bot
from meeple.games import get_game
from meeple.games.slide.bots import expert as slide_expert
from meeple.games.slide.bots import playout_engine as slide_playout_engine
from meeple.games.summy.bots import expert as summy_expert

SLACK_S = 0.6
"""Allowed overrun for one move: a best-move search or a play-out in flight
when the deadline passes."""

POSITIONS = {"summy": (21, 2, 4), "slide": (22, 2, 6)}


def slowest_move(game_name: str, level: str, budget_s: float) -> float:
    """The most CPU time this thread spent choosing one move on the sampled positions.

    CPU time, not wall time: the bot stops on the wall clock, so its CPU time is at most
    its wall time, while a machine shared with other suites stretches only the wall time
    (a search that waited for a core is not a bot over its budget)."""
    game = get_game(game_name)
    seed, players, stride = POSITIONS[game_name]
    bot = get_bot(game_name, level, seed=3)
    worst = 0.0
    for state, seat in states_to_act(game_name, seed, players, stride):
        view = game.view(state, seat)
        started = time.thread_time()
        action = bot.choose(view, seat, budget_s)
        worst = max(worst, time.thread_time() - started)
        game.parse_action(action)
    return worst


@pytest.mark.parametrize("game_name", ["summy", "slide"])
@pytest.mark.parametrize(("level", "budget_s"), [("strong", 0.3), ("expert", 0.3)])
def test_planned_work_fits_the_budget(game_name: str, level: str, budget_s: float) -> None:
    assert slowest_move(game_name, level, budget_s) <= budget_s + SLACK_S


@pytest.mark.parametrize(
    ("game_name", "module", "rate"),
    [
        ("summy", summy_expert, "SEARCHES_PER_SECOND"),
        ("slide", slide_expert, "TAKES_PER_SECOND"),
    ],
)
def test_the_clock_stops_a_search_planned_too_big(
    game_name: str, module: object, rate: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    planned = getattr(module, rate)
    if isinstance(planned, dict):  # one rate per engine
        monkeypatch.setattr(module, rate, {name: r * 1000 for name, r in planned.items()})
    else:
        monkeypatch.setattr(module, rate, planned * 1000)
    assert slowest_move(game_name, "expert", 0.2) <= 0.2 + SLACK_S


def test_the_slide_expert_plans_for_the_python_play_out_too() -> None:
    """Where the compiled play-out is not built, the expert plans far fewer play-outs
    (the Python play-out is ~30x slower) and still answers within its budget."""
    before = slide_playout_engine.engine()
    slide_playout_engine.use_engine("python")
    try:
        assert slowest_move("slide", "expert", 0.3) <= 0.3 + SLACK_S
    finally:
        slide_playout_engine.use_engine(before)
