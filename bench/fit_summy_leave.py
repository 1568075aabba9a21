"""Fit the Summy hand model (``src/meeple/games/summy/bots/leave.json``) from self-play.

Usage: ``python bench/fit_summy_leave.py [--games 1500] [--bot strong] [--jobs 2]
[--seed 10000] [--out src/meeple/games/summy/bots/leave.json]``

Plays ``--games`` two-player games between two ``--bot`` bots and records,
for every turn taken with a full hand while the stock lasts (the opening,
with only the start ``=`` on the table, left out), the hand and the best
score it could make there. The model of :mod:`meeple.games.summy.bots.leave` is
fitted to those scores by least squares on 80% of the turns; the other 20%
measure it (R squared, printed and written beside the model). Refitting on
the games of the bots that use the model is one step of policy iteration.
"""

from __future__ import annotations

import argparse
import json
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from rich.progress import track

from meeple.bots import get_bot
from meeple.games.summy import GAME
from meeple.games.summy.bots.leave import MAX_EQUALS, MAX_OPERATORS, MAX_SAME_OPERATOR, HandModel
from meeple.games.summy.bots.seen import read_view
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.tiles import DIGITS, EQUALS, HAND_SIZE, OPERATORS

MIXES = [(e, o) for e in range(MAX_EQUALS + 1) for o in range(MAX_OPERATORS + 1)]
OPERATOR_ORDER = sorted(OPERATORS)


def game_turns(args: tuple[int, str]) -> list[tuple[str, int]]:
    """The (hand, best score) of every turn of one game that the model is fitted on."""
    seed, level = args
    state = GAME.setup(GAME.default_options(2), seed)
    bots = [get_bot("summy", level, seed * 2 + seat) for seat in range(2)]
    rows: list[tuple[str, int]] = []
    while GAME.result(state) is None:
        seat = state.turn
        view = GAME.view(state, seat)
        seen = read_view(view, seat)
        if seen.stock > 0 and len(seen.hand) == HAND_SIZE and len(seen.position.tiles) > 1:
            best = best_moves(seen.position, 1)
            rows.append(("".join(seen.hand), best[0].score if best else 0))
        action = bots[seat].choose(view, seat, 1.0)
        state, _ = GAME.apply(state, seat, GAME.parse_action(action))
    return rows


def features(hand: str) -> list[float]:
    """The model's terms present in ``hand``: its mix, operator kinds and digits."""
    equals = hand.count(EQUALS)
    operators = sum(hand.count(op) for op in OPERATORS)
    row = [0.0] * (len(MIXES) + len(OPERATOR_ORDER) + len(DIGITS))
    row[MIXES.index((min(equals, MAX_EQUALS), min(operators, MAX_OPERATORS)))] = 1.0
    for i, op in enumerate(OPERATOR_ORDER):
        row[len(MIXES) + i] = min(hand.count(op), MAX_SAME_OPERATOR)
    for tile in hand:
        if tile in DIGITS:
            row[len(MIXES) + len(OPERATOR_ORDER) + ord(tile) - 48] += 1.0
    return row


def fit(rows: list[tuple[str, int]], seed: int) -> tuple[HandModel, float]:
    """The least-squares model on 80% of ``rows`` and its R squared on the rest."""
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    cut = len(order) * 4 // 5
    x = np.array([features(rows[i][0]) for i in order])
    y = np.array([float(rows[i][1]) for i in order])
    coef, *_ = np.linalg.lstsq(x[:cut], y[:cut], rcond=None)
    residual = y[cut:] - x[cut:] @ coef
    r2 = 1.0 - float(np.mean(residual**2) / np.var(y[cut:]))
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)  # the shipped model uses every turn
    values = [round(float(c), 3) for c in coef]
    mix = dict(zip(MIXES, values[: len(MIXES)], strict=True))
    ops = dict(zip(OPERATOR_ORDER, values[len(MIXES) : len(MIXES) + 4], strict=True))
    return HandModel(mix, ops, tuple(values[len(MIXES) + 4 :])), r2


def main() -> None:
    """Play the games, fit the model and write it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=10000)
    parser.add_argument("--out", type=Path, default=Path("src/meeple/games/summy/bots/leave.json"))
    args = parser.parse_args()
    specs = [(args.seed + i, args.bot) for i in range(args.games)]
    rows: list[tuple[str, int]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_rows in track(
            pool.map(game_turns, specs, chunksize=4), total=len(specs), description="playing"
        ):
            rows.extend(game_rows)
    model, r2 = fit(rows, args.seed)
    fitted = {"bot": args.bot, "games": args.games, "seed": args.seed, "turns": len(rows)}
    fitted["r2_held_out"] = round(r2, 3)
    args.out.write_text(json.dumps({"fitted": fitted, "model": model.to_json()}, indent=1) + "\n")
    print(f"{len(rows)} turns from {args.games} games of {args.bot} bots; held-out R2 {r2:.3f}")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
