"""The tile tracker (meeple.games.summy.tracker): counted from a seat's view alone, it agrees
with a recount from the whole state (the stock, the other hands, their face-down discards) at
100 positions of seeded random games played through the engine's legal actions; it cannot
see what the seat cannot (a re-deal of the hidden tiles changes nothing); and it changes no
view, the other seat's and the spectator's included."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from summy_helpers import play_random_game

from meeple.games.summy import GAME, SummyState
from meeple.games.summy.tiles import BAG, TILES
from meeple.games.summy.tracker import unseen, unseen_counts

TRACKER_JS = (
    Path(__file__).parents[3] / "src" / "meeple" / "games" / "summy" / "browser" / "tracker.js"
)


def positions(count: int) -> list[SummyState]:
    """``count`` states spread over seeded random games (two-player, and one solo game in
    five), from the deal to the end: the stock full, draining and empty, discards on both
    sides."""
    found: list[SummyState] = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = play_random_game(seed, players=1 if seed % 5 == 0 else 2)
        rng = random.Random(seed)
        picks = sorted(rng.sample(range(len(game.states)), min(6, len(game.states))))
        found.extend(game.states[index] for index in picks)
    return found[:count]


POSITIONS = positions(100)


def recount(state: SummyState, seat: int) -> Counter[str]:
    """What ``seat`` has not seen, counted from the whole state: the stock, the other seats'
    hands and the tiles they put out face down."""
    hidden: Counter[str] = Counter(state.stock)
    for other in range(state.players):
        if other != seat:
            hidden.update(state.hands[other])
            hidden.update(state.discards[other])
    return hidden


def test_the_positions_cover_the_game() -> None:
    stocks = {len(state.stock) for state in POSITIONS}
    assert 77 in stocks and 0 in stocks and len(stocks) > 20
    assert any(state.result is not None for state in POSITIONS)
    assert any(all(state.discards) for state in POSITIONS if state.players == 2)
    assert {state.players for state in POSITIONS} == {1, 2}


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_the_tracker_of_a_seats_view_agrees_with_a_recount_of_the_whole_state(
    index: int,
) -> None:
    state = POSITIONS[index]
    for seat in range(state.players):
        seen = unseen(GAME.view(state, seat))
        expected = recount(state, seat)
        assert seen.counts == {kind: expected[kind] for kind in TILES}
        assert seen.stock == len(state.stock)
        others = [other for other in range(state.players) if other != seat]
        assert seen.other_hands == sum(len(state.hands[other]) for other in others)
        assert seen.other_discards == sum(len(state.discards[other]) for other in others)
        assert seen.total == seen.stock + seen.other_hands + seen.other_discards


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 4))
def test_the_tracker_sees_nothing_the_seat_cannot(index: int) -> None:
    """Every tile the seat cannot see dealt again: its view, and so its tracker, stay."""
    state = POSITIONS[index]
    rng = random.Random(index)
    for seat in range(state.players):
        before = unseen(GAME.view(state, seat))
        for _ in range(3):
            redealt = GAME.resample_hidden(state, seat, rng)
            assert unseen(GAME.view(redealt, seat)) == before


def test_no_view_changes_with_the_tracker() -> None:
    """The tracker only reads: each seat's view, the spectator's, are byte-identical before
    and after every seat's tracker is counted (nothing is added to any view: the table page
    counts in the seat's own browser)."""
    for state in POSITIONS[::3]:
        seats = [*range(state.players), None]
        before = {seat: json.dumps(GAME.view(state, seat)) for seat in seats}
        views = {seat: GAME.view(state, seat) for seat in seats}
        for seat in range(state.players):
            unseen(views[seat])
        assert {seat: json.dumps(views[seat]) for seat in seats} == before
        assert {seat: json.dumps(GAME.view(state, seat)) for seat in seats} == before
        assert not {"unseen", "tracker"} & set(views[None])


def test_a_spectator_has_no_tracker() -> None:
    with pytest.raises(ValueError, match="spectator"):
        unseen(GAME.view(POSITIONS[0], None))


def test_summy_has_no_blank_and_every_kind_is_counted_even_when_all_are_seen() -> None:
    counts = unseen_counts(["="] * 14, ["5"] * 6, [])
    assert list(counts) == list(TILES) == list("0123456789+-x:=")
    assert counts["="] == counts["5"] == 0 and counts["+"] == 5


def test_the_pages_bag_is_the_games_bag() -> None:
    """The browser's tracker (tracker.js) counts from the same bag as the engine."""
    text = TRACKER_JS.read_text(encoding="utf-8")
    literal = re.search(r"export const BAG = \{(.*?)\};", text, re.S)
    assert literal is not None
    pairs = re.findall(r'"?([0-9x:+\-=])"?:\s*(\d+)', literal.group(1))
    assert {kind: int(count) for kind, count in pairs} == BAG
