"""The Summy review: exact best scores, positions that replay, and views only."""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from pathlib import Path

import pytest

from meeple.games.base import GameRecord, RecordError
from meeple.games.summy.analysis.review import review_action, review_game, summarize
from meeple.games.summy.formats import move_to_json, position_from_json
from meeple.games.summy.movegen import legal_moves
from meeple.games.summy.rules import check_move
from meeple.games.summy.state import SummyState

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from summy_helpers import PlayedGame, play_random_game
from test_movegen import brute_force

ROOT = Path(__file__).resolve().parents[4]
GAMES = [play_random_game(seed) for seed in (3, 8, 21)] + [play_random_game(5, players=1)]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"seed{g.record.seed}")
def test_each_line_is_the_movers_position_and_the_true_best(game: PlayedGame) -> None:
    review = review_game(game.record)
    assert [line.index for line in review] == list(range(len(game.record.actions)))
    brute_checked = 0
    for line, state, (seat, _data), events in zip(
        review, game.states, game.record.actions, game.events, strict=False
    ):
        assert line.seat == seat == state.turn
        # The position is what the mover faced, in the shared format, and reads back.
        as_json = line.to_json()
        position = position_from_json(as_json["position"])
        assert position.tiles == dict(state.table)
        assert position.equations == state.equations
        assert position.hand == state.hands[seat]
        # The best score is the maximum over every legal placement.
        scores = [move.score for move in legal_moves(position)]
        assert line.best_score == max(scores, default=0)
        if len(position.hand) <= 5:
            truth = brute_force(position)
            assert line.best_score == max((m.score for m in truth), default=0)
            brute_checked += 1
        if line.best is not None:
            assert check_move(position, line.best.placement).score == line.best_score
            assert as_json["best"] == move_to_json(line.best)
        else:
            assert as_json["best"] is None and line.best_score == 0
        # What was played scores what the game gave it.
        placed = [e for e in events if e.get("type") == "place"]
        assert line.played_score == (placed[0]["score"] if placed else 0)
        assert as_json["missed"] == line.best_score - line.played_score >= 0
        assert as_json["played"]["type"] in ("place", "discard", "pass")
    assert brute_checked >= 1 or all(len(s.hands[s.turn]) > 5 for s in game.states[:-1])


def test_the_review_sees_only_what_the_mover_saw() -> None:
    """Redrawing the opponent's hand and the stock (the unseen tiles) changes no line."""
    game = GAMES[0]
    rng = random.Random(4)
    for index, (state, (seat, data)) in enumerate(
        zip(game.states, game.record.actions, strict=False)
    ):
        hidden = [*state.hands[1 - seat], *state.stock]
        rng.shuffle(hidden)
        other = tuple(sorted(hidden[: len(state.hands[1 - seat])]))
        hands = list(state.hands)
        hands[1 - seat] = other
        redrawn: SummyState = dataclasses.replace(
            state, hands=tuple(hands), stock=tuple(hidden[len(other) :])
        )
        assert (
            review_action(index, redrawn, seat, data).to_json()
            == review_action(index, state, seat, data).to_json()
        )


def test_the_summary_counts_misses_and_best_moves() -> None:
    review = review_game(GAMES[1].record)
    summaries = summarize(review, 2)
    for summary in summaries:
        mine = [line for line in review if line.seat == summary.seat]
        assert summary.turns == len(mine)
        assert summary.missed == sum(line.missed for line in mine)
        assert summary.best_played == sum(line.missed == 0 for line in mine)
        if summary.biggest_miss is not None:
            assert summary.biggest_miss[1] == max(line.missed for line in mine) > 0
    assert sum(s.turns for s in summaries) == len(review)


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = GameRecord.from_json(json.loads((ROOT / "examples" / "summy-record.json").read_text()))
    seat, action = record.actions[1]
    broken = dataclasses.replace(record, actions=(record.actions[0], (1 - seat, action)))
    with pytest.raises(RecordError, match="action 1"):
        review_game(broken)
    with pytest.raises(RecordError, match="not 'summy'"):
        review_game(dataclasses.replace(record, game="slide"))


def test_the_strong_bots_choice_names_its_equation_or_its_discard() -> None:
    """The review's words for the strong bot fit its choice: an equation to write for a
    placement, the tiles for a discard (it scores 0 then), nothing for a pass."""
    kinds = set()
    for game in GAMES[:3]:
        for line in review_game(game.record):
            strong = line.to_json()["strong"]
            kind = strong["action"]["type"]
            kinds.add(kind)
            if kind == "place":
                assert line.strong_move is not None
                placed = check_move(line.position, line.strong_move.placement)
                assert strong["equation"] == placed.equation_text
                assert strong["score"] == placed.score
            else:
                assert strong["equation"] is None and strong["score"] == 0
                if kind == "discard":
                    assert strong["action"]["tiles"]
    assert "place" in kinds
