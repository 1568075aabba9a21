"""Views: each seat sees its own hand and the public table; nobody sees a secret."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from summy_helpers import play_random_game

from meeple.games.summy import GAME, SummyState
from meeple.games.summy.formats import position_from_json
from meeple.games.summy.tiles import BAG, Discard

GAMES = [(1, 2), (2, 2), (3, 2), (4, 2), (3, 1)]


def with_other_secrets(state: SummyState, viewer: int | None, rng: random.Random) -> SummyState:
    """The same state with the tiles hidden from ``viewer`` dealt again (checked below)."""
    other = GAME.resample_hidden(state, viewer, rng)
    hidden = [s for s in range(state.players) if s != viewer]
    assert [len(other.hands[s]) for s in hidden] == [len(state.hands[s]) for s in hidden]
    assert other.discarded == state.discarded

    def unseen(world: SummyState) -> list[str]:
        return sorted([*world.stock, *(t for s in hidden for t in world.hands[s]),
                       *(t for s in hidden for t in world.discards[s])])  # fmt: skip

    assert unseen(other) == unseen(state)
    if viewer is not None:
        assert other.hands[viewer] == state.hands[viewer]
        assert other.discards[viewer] == state.discards[viewer]
    return other


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_no_view_depends_on_what_its_seat_may_not_see(seed: int, players: int) -> None:
    rng = random.Random(seed)
    for state in play_random_game(seed, players).states:
        for viewer in [*range(players), None]:
            view = GAME.view(state, viewer)
            for _ in range(3):
                other = with_other_secrets(state, viewer, rng)
                assert GAME.view(other, viewer) == view


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_each_seat_sees_its_own_hand_and_the_public_counts(seed: int, players: int) -> None:
    for state in play_random_game(seed, players).states:
        for seat in range(players):
            view = GAME.view(state, seat)
            assert view["hand"] == list(state.hands[seat])
            assert view["hand_sizes"] == [len(hand) for hand in state.hands]
            assert view["stock"] == len(state.stock)
            assert view["scores"] == list(state.scores)
            assert position_from_json(view).hand == state.hands[seat]
        spectator = GAME.view(state, None)
        assert spectator["hand"] is None
        json.dumps(spectator)  # JSON-able


def test_a_seats_view_is_a_position_of_the_seat_to_move() -> None:
    state = play_random_game(2, 2).states[5]
    assert position_from_json(GAME.view(state, state.turn)) == state.position()


def test_the_spectator_view_holds_no_hand_and_no_stock_order() -> None:
    state = play_random_game(1, 2).states[3]
    text = json.dumps(GAME.view(state, None))
    for hand in state.hands:
        assert json.dumps(list(hand)) not in text
    assert json.dumps(list(state.stock)) not in text


PLACE_KEYS = {
    "type",
    "seat",
    "dir",
    "tiles",
    "equation",
    "run",
    "score",
    "notation",
    "drew",
    "stock",
}


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_events_hold_no_secret(seed: int, players: int) -> None:
    game = play_random_game(seed, players)
    rng = random.Random(seed)
    for before, (seat, action), events in zip(
        game.states, game.record.actions, game.events, strict=False
    ):
        # the stock and the other hands shuffled: the tiles drawn differ, the events must not
        other = with_other_secrets(before, seat, rng)
        assert GAME.apply(other, seat, GAME.parse_action(action))[1] == events
        for event in events:
            if event["type"] == "discard":
                assert set(event) == {"type", "seat", "count", "drew", "stock"}
            if event["type"] == "pass":
                assert set(event) == {"type", "seat", "drew", "stock"}
            if event["type"] == "place":
                assert set(event) == PLACE_KEYS
            if event["type"] == "game_over":
                # the result gives counts per seat, never tiles
                details = event["result"]["details"]
                assert set(details) == {"turns", "tiles_in_hand", "tiles_discarded"}
                assert details["tiles_in_hand"] == [len(hand) for hand in game.states[-1].hands]
                assert details["tiles_discarded"] == list(game.states[-1].discarded)


def test_view_keys_and_the_last_move() -> None:
    game = play_random_game(2, 2)
    first, second = game.states[0], game.states[1]
    assert GAME.view(first, 0)["last_move"] is None
    view = GAME.view(second, None)
    assert view["last_move"] == {k: v for k, v in game.events[0][0].items() if k != "stock"}
    assert set(view) == {
        "game", "seat", "players", "hand", "tiles", "equations", "sealed", "scores", "turn",
        "first_player", "turns_taken", "stock", "hand_sizes", "discarded", "my_discards",
        "idle_turns", "last_move", "game_over", "result",
    }  # fmt: skip
    final = GAME.view(game.states[-1], None)
    assert final["game_over"] is True
    assert final["turn"] is None
    assert final["result"]["scores"] == final["scores"]


def test_equations_and_sealed_cells_in_the_view() -> None:
    state = next(s for s in play_random_game(1, 2).states if s.equations)
    view = GAME.view(state, None)
    tiles = {(t["row"], t["col"]): t["tile"] for t in view["tiles"]}
    for equation, shown in zip(state.equations, view["equations"], strict=True):
        assert shown["text"] == "".join(tiles[cell] for cell in equation.cells())
    sealed = {(c["row"], c["col"]) for c in view["sealed"]}
    assert sealed == {cell for eq in state.equations for cell in eq.sealed_cells()}
    assert not sealed & set(tiles)


def after_two_discards(seed: int) -> tuple[SummyState, int, int]:
    """A new game in which the first player discards 3 tiles, then the other 2."""
    state = GAME.setup({"players": 2}, seed)
    first = state.turn
    second = 1 - first
    state, _ = GAME.apply(state, first, Discard(state.hands[first][:3]))
    state, _ = GAME.apply(state, second, Discard(state.hands[second][-2:]))
    return state, first, second


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_what_another_seat_discarded_is_redrawn_with_the_unseen_tiles(seed: int) -> None:
    # seat `first` knows its own 3 discards, not which 2 tiles `second` put out face down
    state, first, second = after_two_discards(seed)
    assert [len(pile) for pile in state.discards] == [3 if s == first else 2 for s in (0, 1)]
    unseen = Counter(BAG)
    unseen.subtract([*state.table.values(), *state.hands[first], *state.discards[first]])
    rng = random.Random(seed)
    redrawn = set()
    for _ in range(20):
        world = GAME.resample_hidden(state, first, rng)
        assert world.discards[first] == state.discards[first]
        assert len(world.discards[second]) == 2
        assert Counter([*world.hands[second], *world.stock, *world.discards[second]]) == +unseen
        redrawn.add(world.discards[second])
    assert len(redrawn) > 1


def test_a_spectator_knows_no_discard() -> None:
    state, _, _ = after_two_discards(4)
    rng = random.Random(4)
    worlds = [GAME.resample_hidden(state, None, rng) for _ in range(20)]
    assert len({world.discards for world in worlds}) > 1
    assert all([len(p) for p in world.discards] == [len(p) for p in state.discards]
               for world in worlds)  # fmt: skip


def test_a_states_repr_names_no_secret() -> None:
    # a state logged by mistake must not show the hands, the stock's order or the discards
    rng = random.Random(5)
    for state in play_random_game(2, 2).states[::7]:
        text = repr(state)
        assert repr(GAME.resample_hidden(state, None, rng)) == text
        assert f"hand_sizes={[len(hand) for hand in state.hands]}" in text
        assert f"stock={len(state.stock)}" in text


@pytest.mark.parametrize("seat", [-1, 2, 5])
def test_a_view_for_a_seat_that_does_not_exist_is_refused(seat: int) -> None:
    # a negative seat would otherwise index another seat's hand from the end
    with pytest.raises(ValueError, match=f"Summy has no seat {seat}: the seats are 0 and 1"):
        GAME.view(GAME.setup({"players": 2}, 1), seat)
    with pytest.raises(ValueError, match="Summy has no seat 1: the only seat is 0"):
        GAME.view(GAME.setup({"players": 1}, 1), 1)


def test_a_seat_sees_its_own_discards_and_no_one_elses() -> None:
    state, first, second = after_two_discards(5)
    assert GAME.view(state, first)["my_discards"] == sorted(state.discards[first])
    assert GAME.view(state, second)["my_discards"] == sorted(state.discards[second])
    assert GAME.view(state, None)["my_discards"] is None
    assert GAME.view(state, first)["discarded"] == [len(pile) for pile in state.discards]
