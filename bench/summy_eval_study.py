"""Which terms predict a Summy move's worth: a held-out study on strong-against-strong games.

Usage: ``python bench/summy_eval_study.py [--games 600] [--seed 40000] [--jobs 2]
[--samples 6] [--rows FILE]``

Plays ``--games`` two-player games of the ``strong`` bot against itself. For
every move made while a full refill is ahead (the opening left out), it
records terms the mover can compute, on the table the move leaves:

- ``score``: the points the move makes now;
- ``leave``: the hand model's value of the tiles kept (``strong``'s next-turn term);
- ``reply``: the mean best reply of ``--samples`` opponent hands drawn uniformly
  from the unseen tiles (what the move opens for the opponent);
- ``reply_inferred``: the same with the opponent's hand inferred from its last
  action (after a discard of ``k`` tiles it kept ``8 - k`` tiles chosen by
  ``strong``'s keep rule from a sampled hand, and drew ``k``);
- ``reply_played``: the same with the tiles the opponent kept after its last
  placement guessed as the expert guesses them (:mod:`meeple.games.summy.bots.infer`:
  guesses weighed by how well they explain that placement), else uniform;
- ``mine``: the mean best score of ``--samples`` sampled hands of the mover's
  on the same table (what the table still offers the mover);

and what happened: the opponent's next turn's points and the final score
difference from this move on (the mover's points from now, this move's
included, minus the opponent's). Linear models are fitted on the games of
80% of the seeds and measured on the other 20% (games never seen by the
fit); each term's gain is the held-out variance it explains beyond the
static value ``score + leave``.
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
from meeple.games.summy.bots.infer import draw_with_kept, kept_guesses, last_placement
from meeple.games.summy.bots.leave import draw_refills, hand_value, keep_options, leave_value
from meeple.games.summy.bots.seen import SummySeen, after_move, kept_after, read_view
from meeple.games.summy.movegen import best_moves
from meeple.games.summy.rules import check_placement
from meeple.games.summy.tiles import HAND_SIZE, Position

TERMS = ("score", "leave", "reply", "reply_inferred", "reply_played", "mine")


def sampled_hands(
    seen: SummySeen, rng: random.Random, count: int, discarded: int | None
) -> list[tuple[str, ...]]:
    """``count`` guesses at the opponent's hand; ``discarded``: the tiles of its last discard."""
    hands = []
    size = seen.hand_sizes[1 - seen.seat]
    for _ in range(count):
        unseen = seen.unseen()
        rng.shuffle(unseen)
        if discarded is None or discarded >= size:
            hands.append(tuple(unseen[:size]))
            continue
        before = unseen[:HAND_SIZE]
        keeps = [k for k in keep_options(before) if len(k) == size - discarded]
        kept = max(keeps, key=hand_value) if keeps else tuple(before[: size - discarded])
        rest = list(unseen)
        for tile in kept:
            rest.remove(tile)
        hands.append((*kept, *rest[:discarded]))
    return hands


def best_score(position: Position) -> int:
    """The best placement's points on ``position`` (0 when none)."""
    found = best_moves(position, 1)
    return found[0].score if found else 0


def game_rows(args: tuple[int, int]) -> list[dict[str, float]]:
    """Every recorded move of one game, with its terms and what followed."""
    seed, samples = args
    rng = random.Random(seed * 7919)
    state = GAME.setup(GAME.default_options(2), seed)
    bots = [get_bot("summy", "strong", seed * 2 + seat) for seat in range(2)]
    rows: list[dict[str, float]] = []
    last_discard: list[int | None] = [None, None]
    turn_points: list[tuple[int, int]] = []  # (seat, points) per turn
    while GAME.result(state) is None:
        seat = state.turn
        view = GAME.view(state, seat)
        seen = read_view(view, seat)
        action = bots[seat].choose(view, seat, 1.0)
        record = seen.stock >= HAND_SIZE and len(seen.position.tiles) > 1
        if record:
            rows.append(terms(seen, action, rng, samples, last_discard[1 - seat]))
            rows[-1].update(played_terms(view, seen, action, rng, samples))
            rows[-1]["turn"] = len(turn_points)
            rows[-1]["seat"] = seat
        before = state.scores[seat]
        state, _ = GAME.apply(state, seat, GAME.parse_action(action))
        turn_points.append((seat, state.scores[seat] - before))
        last_discard[seat] = len(action["tiles"]) if action["type"] == "discard" else None
    for row in rows:
        turn, seat = int(row["turn"]), int(row["seat"])
        later = turn_points[turn:]
        row["final_diff"] = sum(p if s == seat else -p for s, p in later)
        row["opp_next"] = next((p for s, p in later if s != seat), 0)
        row["seed"] = seed
    return rows


def terms(
    seen: SummySeen, action: dict, rng: random.Random, samples: int, discarded: int | None
) -> dict[str, float]:
    """The terms of the move ``action`` (the strong bot's choice) from ``seen``."""
    score, kept, table = after_action(seen, action)
    refills = draw_refills(seen.unseen(), 40, rng)
    uniform = sampled_hands(seen, rng, samples, None)
    inferred = sampled_hands(seen, rng, samples, discarded)
    mine = [_top_up(kept, r) for r in draw_refills(seen.unseen(), samples, rng)]
    return {
        "score": score,
        "leave": leave_value(kept, refills),
        "reply": float(np.mean([best_score(_facing(table, h)) for h in uniform])),
        "reply_inferred": float(np.mean([best_score(_facing(table, h)) for h in inferred])),
        "mine": float(np.mean([best_score(_facing(table, h)) for h in mine])),
        "stock": seen.stock,
        "inferable": 0.0 if discarded is None else 1.0,
    }


def played_terms(
    view: dict, seen: SummySeen, action: dict, rng: random.Random, samples: int
) -> dict[str, float]:
    """``reply_played`` (see the module's docstring) and whether a placement was read."""
    last = last_placement(view, seen)
    if last is None:
        return {"reply_played": 0.0, "placed_before": 0.0}
    guesses = kept_guesses(seen, last, rng)
    hands = [draw_with_kept(seen, guesses, rng)[0] for _ in range(samples)]
    table = after_action(seen, action)[2]
    replies = [best_score(_facing(table, h)) for h in hands]
    return {"reply_played": float(np.mean(replies)), "placed_before": 1.0}


def after_action(seen: SummySeen, action: dict) -> tuple[int, tuple[str, ...], Position]:
    """The points ``action`` makes, the tiles kept and the table it leaves."""
    position = seen.position
    if action["type"] != "place":
        return 0, _without(seen.hand, action["tiles"]), position
    placement = GAME.parse_action(action)
    move = check_placement(position.tiles, position.equations, seen.hand, placement)
    return move.score, kept_after(seen.hand, move), after_move(position, move, ())


def _facing(position: Position, hand: tuple[str, ...]) -> Position:
    return Position(position.tiles, position.equations, tuple(sorted(hand)))


def _top_up(kept: tuple[str, ...], refill: list[str]) -> tuple[str, ...]:
    return (*kept, *refill[: HAND_SIZE - len(kept)])


def _without(hand: tuple[str, ...], tiles: list[str]) -> tuple[str, ...]:
    left = list(hand)
    for tile in tiles:
        left.remove(tile)
    return tuple(left)


def held_out(rows: list[dict[str, float]], target: str, terms: list[str], cut_seed: float) -> dict:
    """Least squares of ``target`` on ``terms`` (plus a constant) fitted on the seeds below
    ``cut_seed``, measured on the others: coefficients, held-out R squared and MSE."""
    fit = [r for r in rows if r["seed"] < cut_seed]
    test = [r for r in rows if r["seed"] >= cut_seed]
    x = np.array([[1.0, *(r[t] for t in terms)] for r in fit])
    y = np.array([r[target] for r in fit])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    xt = np.array([[1.0, *(r[t] for t in terms)] for r in test])
    yt = np.array([r[target] for r in test])
    residual = yt - xt @ coef
    mse = float(np.mean(residual**2))
    return {
        "terms": terms,
        "coef": [round(float(c), 3) for c in coef],
        "r2": round(1.0 - mse / float(np.var(yt)), 4),
        "mse": round(mse, 2),
        "rows": [len(fit), len(test)],
    }


def main() -> None:
    """Play the games (or read ``--rows``), fit the models and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=40000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--rows", type=Path, help="read rows from (or write them to) this file")
    args = parser.parse_args()
    if args.rows and args.rows.exists():
        rows = json.loads(args.rows.read_text())
    else:
        specs = [(args.seed + i, args.samples) for i in range(args.games)]
        rows = []
        with ProcessPoolExecutor(args.jobs) as pool:
            for found in track(pool.map(game_rows, specs, chunksize=2), total=len(specs)):
                rows.extend(found)
        if args.rows:
            args.rows.write_text(json.dumps(rows))
    seeds = sorted({r["seed"] for r in rows})
    cut = seeds[len(seeds) * 4 // 5]
    models = {
        "final_diff": [
            ["score", "leave"],
            ["score", "leave", "reply"],
            ["score", "leave", "mine"],
            ["score", "leave", "reply", "mine"],
            ["score", "leave", "reply_inferred"],
            ["score", "leave", "reply", "mine", "stock"],
        ],
        "opp_next": [["reply"], ["reply_inferred"], ["reply", "reply_inferred"]],
    }
    played = [r for r in rows if r.get("placed_before")]
    played_models = {
        "final_diff": [["score", "leave", "reply"], ["score", "leave", "reply_played"]],
        "opp_next": [["reply"], ["reply_played"]],
    }
    print(f"{len(rows)} moves from {len(seeds)} games; held out: seeds >= {cut}")
    for target, term_sets in models.items():
        for chosen in term_sets:
            print(target, json.dumps(held_out(rows, target, chosen, cut)))
    print(f"after an opponent's placement ({len(played)} moves):")
    for target, term_sets in played_models.items():
        for chosen in term_sets:
            print(target, json.dumps(held_out(played, target, chosen, cut)))
    inferable = [r for r in rows if r["inferable"]]
    print(f"after an opponent's discard ({len(inferable)} moves):")
    for chosen in (["reply"], ["reply_inferred"]):
        print("opp_next", json.dumps(held_out(inferable, "opp_next", chosen, cut)))


if __name__ == "__main__":
    main()
