"""How many Slide play-outs a second the expert gets, with each play-out engine.

Usage: ``python bench/slide_playouts.py [--players 4] [--playouts 400] [--runs 5]``

Takes the view of seat 0 at the start of a deal (round 1, the reveal), draws
``--playouts`` determinized deals from it and plays each to its end, as the
expert's search does per sample (draw the deal, copy it, play it out), once
with the pure-Python play-out (the reference) and once with the compiled
core when it is built. Prints the median, minimum and maximum of ``--runs``
runs, in play-outs a second of one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meeple.games.slide import GAME
from meeple.games.slide.bots import playout_engine
from meeple.games.slide.bots.expert import copy_world
from meeple.games.slide.bots.seen import read_view
from meeple.games.slide.bots.sim import determinize, play_out


def rate(players: int, playouts: int) -> float:
    """Play-outs a second, from the first view of a fresh deal, with the engine in use."""
    state = GAME.setup(GAME.default_options(players), 7)
    seen = read_view(GAME.view(state, 0), 0)
    rng = random.Random(1)
    started = time.perf_counter()
    for _ in range(playouts):
        deal_rng = random.Random(rng.getrandbits(48))
        world = determinize(seen, deal_rng)
        play_out(copy_world(world), deal_rng.getrandbits(64))
    return playouts / (time.perf_counter() - started)


def main() -> None:
    """Time each engine and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--playouts", type=int, default=400)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    engines = ["python"] + (["compiled"] if playout_engine.compiled_available() else [])
    for name in engines:
        playout_engine.use_engine(name)
        count = args.playouts if name == "compiled" else max(20, args.playouts // 20)
        rates = [rate(args.players, count) for _ in range(args.runs)]
        print(
            f"{name:8} {args.players} players, from round 1: median {statistics.median(rates):,.0f}"
            f" play-outs/s (min {min(rates):,.0f}, max {max(rates):,.0f})"
        )


if __name__ == "__main__":
    main()
