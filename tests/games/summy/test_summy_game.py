"""Summy's game contract: setup, first player, turns, refills, the end, actions in JSON."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from summy_helpers import play_random_game

from meeple.games import get_game
from meeple.games.base import BadOptions, IllegalAction
from meeple.games.summy import GAME, SummyState
from meeple.games.summy.game import discards
from meeple.games.summy.state import Table, choose_first_player, initial_stock
from meeple.games.summy.tiles import BAG, Direction, Discard, Equation, Pass, Placement

ONE_PLUS_ONE = Placement("H", (((0, -3), "1"), ((0, -2), "+"), ((0, -1), "1"), ((0, 1), "2")))


def rigged(
    players: int = 2,
    hands: tuple[str, ...] = ("11+2xx37", "45678999"),
    stock: str = "0123456789",
    turn: int = 0,
) -> SummyState:
    """A fresh game with chosen hands (strings of tiles), stock and seat to move."""
    state = GAME.setup({"players": players}, seed=0)
    return replace(
        state,
        hands=tuple(tuple(sorted(hand)) for hand in hands[:players]),
        stock=tuple(stock),
        turn=turn,
    )


def all_tiles(state: SummyState) -> Counter[str]:
    """Every tile on the table, in hands and in the stock."""
    return Counter(
        [*state.table.values(), *(t for hand in state.hands for t in hand), *state.stock]
    )


@pytest.mark.parametrize("players", [1, 2])
def test_setup_puts_the_start_equals_and_deals_8_each(players: int) -> None:
    state = GAME.setup({"players": players}, seed=42)
    assert dict(state.table) == {(0, 0): "="}
    assert state.equations == ()
    assert [len(hand) for hand in state.hands] == [8] * players
    assert len(state.stock) == 93 - 8 * players
    assert all_tiles(state) == Counter(BAG)
    assert state.scores == (0,) * players
    assert GAME.to_act(state) == {state.turn}


def test_setup_is_reproducible_from_the_seed() -> None:
    assert GAME.setup({"players": 2}, 5) == GAME.setup({"players": 2}, 5)
    assert GAME.setup({"players": 2}, 5).stock != GAME.setup({"players": 2}, 6).stock


def test_the_bag_has_94_tiles_and_one_equals_starts_on_the_table() -> None:
    assert sum(BAG.values()) == 94
    assert len(initial_stock()) == 93
    assert Counter(initial_stock())["="] == 13


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "Summy needs 'players': 1 or 2"),
        ({"players": 0}, "Summy is for 1 or 2 players, not 0"),
        ({"players": 3}, "Summy is for 1 or 2 players, not 3"),
        ({"players": "2"}, "Summy needs 'players': 1 or 2"),
        ({"players": True}, "Summy needs 'players': 1 or 2"),
        ({"players": 2, "timer": 30}, "Summy has no option 'timer'; its only option is 'players'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOptions) as caught:
        GAME.setup(options, 1)
    assert str(caught.value) == message


def test_registered_and_described() -> None:
    assert get_game("summy") is GAME
    assert (GAME.min_players, GAME.max_players) == (1, 2)
    assert GAME.default_options(2) == {"players": 2}


@pytest.mark.parametrize(
    ("hand0", "hand1", "first"),
    [
        ("0++++===", "1+++++++", 0),  # 0 < 1
        ("19+++===", "15+++===", 1),  # first difference: 5 < 9
        ("12++++++", "123+++++", 1),  # seat 0's list runs out: it counts higher than 3
        ("123+++++", "12++++++", 0),
        ("++++====", "9+++++++", 1),  # no digit at all counts higher than any digit
        ("99999999", "9999999=", 0),
    ],
)
def test_first_player_has_the_lower_sorted_digits(hand0: str, hand1: str, first: int) -> None:
    assert choose_first_player([hand0, hand1], random.Random(0)) == first


def test_identical_digit_lists_let_the_seeded_generator_pick() -> None:
    hands = ["12+=", "21xx"]
    picks = {choose_first_player(hands, random.Random(seed)) for seed in range(40)}
    assert picks == {0, 1}
    assert choose_first_player(hands, random.Random(3)) == choose_first_player(
        hands, random.Random(3)
    )


def test_solo_player_starts() -> None:
    assert GAME.setup({"players": 1}, 9).turn == 0


PLACED = [(-3, "1"), (-2, "+"), (-1, "1"), (1, "2")]


def test_a_placement_scores_refills_and_passes_the_turn() -> None:
    state = rigged()
    after, events = GAME.apply(state, 0, ONE_PLUS_ONE)
    assert after.scores == (4, 0)
    assert after.equations == (Equation(0, -3, "H", 5),)
    assert after.table[(0, 1)] == "2"
    assert after.hands[0] == tuple(sorted("xx37" + "0123"))
    assert after.stock == tuple("456789")
    assert after.turn == 1
    assert state.hands[0] == tuple(sorted("11+2xx37"))  # the old state is unchanged
    assert events == [
        {
            "type": "place", "seat": 0, "dir": "H",
            "tiles": [{"row": 0, "col": c, "tile": t} for c, t in PLACED],
            "equation": "1+1=2", "run": {"row": 0, "col": -3, "dir": "H", "length": 5},
            "score": 4, "notation": "H 0,-3 1+1[=]2", "drew": 4, "stock": 6,
        }
    ]  # fmt: skip


def test_a_discard_is_face_down_and_refills() -> None:
    state = rigged()
    after, events = GAME.apply(state, 0, Discard(("x", "x", "7")))
    assert after.hands[0] == tuple(sorted("11+23" + "012"))
    assert after.discarded == (3, 0)
    assert after.discards == (("7", "x", "x"), ())
    assert after.scores == (0, 0)  # a discard scores nothing
    assert events == [{"type": "discard", "seat": 0, "count": 3, "drew": 3, "stock": 7}]
    assert all_tiles(after) + Counter("xx7") == all_tiles(state)


def test_refill_stops_when_the_stock_runs_out() -> None:
    after, _ = GAME.apply(rigged(stock="5"), 0, Discard(("x", "x", "7")))
    assert len(after.hands[0]) == 6
    assert after.stock == ()


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Pass(), "you may pass only when the stock is empty; discard at least one tile instead"),
        (Discard(()), "a discard puts out at least one tile"),
        (Discard(("9",)), "tile 9 is not in your hand"),
        (Discard(("x", "x", "x")), "you give 3 tiles x but your hand holds only 2"),
        (Placement("H", (((0, 1), "9"),)), "tile 9 is not in your hand"),
        (
            Placement("H", (((0, 2), "3"), ((0, 1), "7"))),
            "=73 starts with =: it must start with a number",
        ),
    ],
)
def test_illegal_actions_say_why_and_change_nothing(action: Any, message: str) -> None:
    state = rigged()
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, action)
    assert str(caught.value).startswith(message)
    assert state == rigged()


def test_only_the_seat_to_move_may_act() -> None:
    with pytest.raises(IllegalAction, match="it is seat 0's turn, not seat 1's"):
        GAME.apply(rigged(), 1, Discard(("4",)))
    assert GAME.legal_actions(rigged(), 1) == []


def test_a_full_round_without_an_equation_ends_the_game_once_the_stock_is_empty() -> None:
    state = rigged(stock="")
    state, _ = GAME.apply(state, 0, Pass())
    assert GAME.result(state) is None
    state, _ = GAME.apply(state, 1, Discard(("4",)))
    result = GAME.result(state)
    assert result is not None
    assert result.reason == "the stock is empty and a full round made no equation"
    assert result.scores == (0, 0)
    assert result.ranks == (1, 1)  # equal totals share the victory
    assert result.winners == (0, 1)
    assert GAME.to_act(state) == frozenset()
    with pytest.raises(IllegalAction, match="the game is over"):
        GAME.apply(state, 0, Pass())


def test_an_equation_restarts_the_round() -> None:
    state = rigged(stock="", turn=1)
    state, _ = GAME.apply(state, 1, Pass())
    state, _ = GAME.apply(state, 0, ONE_PLUS_ONE)
    state, _ = GAME.apply(state, 1, Pass())
    assert GAME.result(state) is None
    state, events = GAME.apply(state, 0, Pass())
    result = GAME.result(state)
    assert result is not None
    assert result.scores == (4, 0)
    assert result.ranks == (1, 2)
    assert result.winners == (0,)
    assert events[-1] == {"type": "game_over", "result": result.to_json()}


def test_a_turn_that_empties_the_stock_does_not_count_toward_the_end() -> None:
    state = rigged(stock="5")
    state, _ = GAME.apply(state, 0, Discard(("x",)))  # began with a tile in the stock
    state, _ = GAME.apply(state, 1, Pass())
    assert GAME.result(state) is None
    state, _ = GAME.apply(state, 0, Pass())
    assert GAME.result(state) is not None


def test_solo_ends_at_the_first_turn_without_an_equation_once_the_stock_is_empty() -> None:
    state = rigged(players=1, stock="")
    state, _ = GAME.apply(state, 0, ONE_PLUS_ONE)
    assert GAME.result(state) is None
    state, _ = GAME.apply(state, 0, Pass())
    result = GAME.result(state)
    assert result is not None
    assert (result.scores, result.ranks) == ((4,), (1,))
    assert result.reason == "the stock is empty and a turn made no equation"


def test_legal_actions_are_placements_discards_then_pass() -> None:
    state = rigged(stock="")
    actions = GAME.legal_actions(state, 0)
    kinds = [type(action).__name__ for action in actions]
    assert kinds == sorted(kinds, key=["Placement", "Discard", "Pass"].index)
    assert ONE_PLUS_ONE in actions
    assert actions[-1] == Pass()
    assert len(actions) == len(set(actions))
    assert Pass() not in GAME.legal_actions(rigged(), 0)
    for action in actions:
        GAME.apply(state, 0, action)  # every listed action is accepted


@pytest.mark.parametrize(
    ("hand", "count"),
    [("12345678", 2**8 - 1), ("11111111", 8), ("1122", 3 * 3 - 1), ("", 0), ("x", 1)],
)
def test_discards_are_every_distinct_sub_multiset(hand: str, count: int) -> None:
    found = discards(hand)
    assert len(found) == count
    assert len(set(found)) == count


ACTION_JSON = [
    {
        "type": "place",
        "dir": "H",
        "tiles": [{"row": 0, "col": -3, "tile": "1"}, {"row": 0, "col": 1, "tile": "2"}],
    },
    {"type": "place", "dir": "V", "tiles": [{"row": -1, "col": 0, "tile": "9"}]},
    {"type": "discard", "tiles": ["9", "x"]},
    {"type": "pass"},
]  # fmt: skip


@pytest.mark.parametrize("data", ACTION_JSON)
def test_action_json_round_trips(data: dict[str, Any]) -> None:
    assert GAME.action_json(GAME.parse_action(data)) == data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("pass", "an action must be an object with a 'type'"),
        ({"type": "swap"}, "unknown action type 'swap': use 'place', 'discard' or 'pass'"),
        ({}, "unknown action type None: use 'place', 'discard' or 'pass'"),
        ({"type": "place", "tiles": []}, "a placement needs 'dir': 'H' or 'V', not None"),
        ({"type": "place", "dir": "H"}, "tiles must be a list"),
        ({"type": "place", "dir": "H", "tiles": [{"row": 0, "col": 1}]}, "tiles[0] has no 'tile'"),
        ({"type": "place", "dir": "H", "tiles": [{"row": 0, "col": 1, "tile": "?"}]},
         "tiles[0].tile is an unknown tile: '?'"),
        ({"type": "discard"}, "a discard needs 'tiles': a list of tiles"),
        ({"type": "discard", "tiles": ["1", 2]}, "tiles[1] is an unknown tile: 2"),
    ],
)  # fmt: skip
def test_malformed_actions_are_refused(data: Any, message: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action(data)
    assert str(caught.value) == message


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 2), (3, 1)])
def test_random_games_keep_every_tile_and_end(seed: int, players: int) -> None:
    game = play_random_game(seed, players)
    for state in game.states:
        assert all_tiles(state) + Counter(t for pile in state.discards for t in pile) == BAG
        assert state.discarded == tuple(len(pile) for pile in state.discards)
        assert all(len(hand) <= 8 for hand in state.hands)
        assert sum(state.scores) == sum(
            int(state.table[cell]) for eq in state.equations for cell in eq.cells()
            if state.table[cell].isdigit()
        )  # fmt: skip
    final = game.states[-1]
    assert final.result is not None
    assert final.stock == ()
    assert any(isinstance(GAME.parse_action(a), Placement) for _, a in game.record.actions)


def test_states_pickle_for_worker_processes() -> None:
    for state in play_random_game(2, 2).states[::5]:
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state
        assert hash(copy.table) == hash(state.table)


def test_a_line_completed_in_the_other_direction_scores_nothing_and_seals_nothing() -> None:
    # the 8 on (0,0) completes 1+7=8 along row 0 (16 points) and 2x4=8 down column 0
    # (14 points): played H, only the row is an equation
    row = {(0, -4): "1", (0, -3): "+", (0, -2): "7", (0, -1): "="}
    column = {(-4, 0): "2", (-3, 0): "x", (-2, 0): "4", (-1, 0): "="}
    state = replace(rigged(hands=("8+++++++", "99999999")), table=Table({**row, **column}))
    cases: list[tuple[Direction, int, Equation]] = [
        ("H", 16, Equation(0, -4, "H", 5)),
        ("V", 14, Equation(-4, 0, "V", 5)),
    ]
    for direction, score, equation in cases:
        after, _ = GAME.apply(state, 0, Placement(direction, (((0, 0), "8"),)))
        assert after.scores == (score, 0)
        assert after.equations == (equation,)
        sealed = {(c["row"], c["col"]) for c in GAME.view(after, None)["sealed"]}
        assert sealed == set(equation.sealed_cells())
