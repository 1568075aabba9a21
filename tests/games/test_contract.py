"""The contract every registered game must keep, checked through ``games.base`` only.

For every name in ``GAME_NAMES``, seeded random games are played to the end
using nothing but the public contract (``get_game``, ``setup``, ``to_act``,
``legal_actions``, ``apply``, ``view``, ``result``, ``parse_action`` and
``action_json``). At every step: someone may act and each seat that may act
has actions, listed once each; actions round-trip through JSON; the listed
actions apply; refused or not, ``apply`` never changes the given state; views
are JSON, deterministic and, when the game can redraw what a seat cannot see
(an optional ``resample_hidden(state, seat, rng)``), identical across such
redraws. At the end: a result with proper ranks, and a record that survives
JSON and replays to the same result.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, get_type_hints, is_typeddict

import pytest

from meeple import games
from meeple.games import GAME_NAMES, get_game
from meeple.games.base import JSON, BadOptions, Game, GameRecord, RecordError, Seat, replay

GAMES_PER_NAME = 8
"""Random games played per registered game (player counts cycle from min to max)."""

MAX_STEPS = 20_000
"""A random game still running after this many actions fails the test."""

APPLY_SAMPLE = 40
"""At each step, at most this many of the acting seat's listed actions are test-applied."""


def canonical(data: JSON) -> str:
    """One string per JSON value, key order aside."""
    return json.dumps(data, sort_keys=True)


def views(game: Game, state: Any, players: int) -> dict[Seat | None, str]:
    """Every seat's view and the spectator's, as canonical JSON."""
    return {seat: canonical(game.view(state, seat)) for seat in [*range(players), None]}


def check_views(game: Game, state: Any, players: int, rng: random.Random) -> dict[Any, str]:
    """Views are JSON, deterministic, and blind to what their seat cannot see."""
    seen = views(game, state, players)
    assert seen == views(game, state, players), "a view changed between two calls"
    resample = getattr(game, "resample_hidden", None)
    if resample is not None:
        for seat, text in seen.items():
            other = resample(state, seat, rng)
            assert canonical(game.view(other, seat)) == text, f"the view of seat {seat} leaks"
    return seen


def check_actions(game: Game, state: Any, players: int) -> dict[Seat, list[Any]]:
    """Seats that may act have actions, others none; each listed once; JSON round trips."""
    seats = game.to_act(state)
    assert seats, "nobody may act but the game is not over"
    assert seats <= set(range(players))
    listed: dict[Seat, list[Any]] = {}
    for seat in range(players):
        actions = list(game.legal_actions(state, seat))
        if seat not in seats:
            assert actions == [], f"seat {seat} may not act but has actions"
            continue
        assert actions, f"seat {seat} must act but has no legal action"
        texts = [canonical(game.action_json(a)) for a in actions]
        assert len(set(texts)) == len(texts), "an action is listed twice"
        for action, text in zip(actions, texts, strict=True):
            assert game.parse_action(json.loads(text)) == action
        listed[seat] = actions
    return listed


def play_random_game(name: str, index: int) -> None:
    """One seeded random game of ``name`` to the end, checking the contract at every step."""
    game = get_game(name)
    counts = range(game.min_players, game.max_players + 1)
    players = counts[index % len(counts)]
    seed = 1000 + index
    rng = random.Random(f"{name}:{index}")
    options = game.default_options(players)
    state = game.setup(options, seed)
    assert views(game, state, players) == views(game, game.setup(options, seed), players)
    actions: list[tuple[Seat, JSON]] = []
    while game.result(state) is None:
        assert len(actions) < MAX_STEPS, "the random game does not end"
        listed = check_actions(game, state, players)
        before = check_views(game, state, players, rng)
        seat = rng.choice(sorted(listed))
        choices = listed[seat]
        sample = choices if len(choices) <= APPLY_SAMPLE else rng.sample(choices, APPLY_SAMPLE)
        for action in sample:
            _next, events = game.apply(state, seat, action)
            json.dumps(events)
        assert views(game, state, players) == before, "apply changed the given state"
        action = rng.choice(choices)
        state, events = game.apply(state, seat, action)
        json.dumps(events)
        actions.append((seat, game.action_json(action)))
    assert game.to_act(state) == frozenset()
    assert all(list(game.legal_actions(state, seat)) == [] for seat in range(players))
    result = game.result(state)
    assert result is not None
    assert len(result.scores) == len(result.ranks) == players
    assert 1 in result.ranks and result.winners
    assert all(r == 1 + sum(1 for other in result.ranks if other < r) for r in result.ranks)
    finished = json.dumps(result.to_json())
    final_views = check_views(game, state, players, rng)

    record = GameRecord(name, options, seed, tuple(actions))
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record
    states = replay(game, again)
    assert len(states) == len(actions) + 1
    replayed = game.result(states[-1])
    assert replayed is not None and json.dumps(replayed.to_json()) == finished
    assert views(game, states[-1], players) == final_views

    too_long = GameRecord(name, options, seed, (*actions, actions[-1]))
    with pytest.raises(RecordError) as caught:
        replay(game, too_long)
    assert caught.value.index == len(actions)
    no_such_seat = GameRecord(name, options, seed, ((players, actions[0][1]),))
    with pytest.raises(RecordError) as caught:
        replay(game, no_such_seat)
    assert caught.value.index == 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_game_describes_itself(name: str) -> None:
    game = get_game(name)
    assert game.name == name
    assert 1 <= game.min_players <= game.max_players
    for players in range(game.min_players, game.max_players + 1):
        options = game.default_options(players)
        assert options["players"] == players
        json.dumps(options)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_options_model_says_what_setup_accepts(name: str) -> None:
    game = get_game(name)
    assert game.min_players <= game.quick_play_seats <= game.max_players
    defaults = game.options_model().model_dump()
    assert {**defaults, "players": game.min_players} == game.default_options(game.min_players)
    schema = game.options_model.model_json_schema()
    assert "players" not in schema.get("properties", {})
    for option, spec in schema.get("properties", {}).items():
        if spec.get("type") == "boolean":
            flipped = {**game.default_options(game.min_players), option: not defaults[option]}
            game.setup(flipped, 1)
            with pytest.raises(BadOptions):
                game.setup({**flipped, option: "yes"}, 1)
    with pytest.raises(BadOptions):
        game.setup({**game.default_options(game.min_players), "not_an_option": 1}, 1)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_player_counts_outside_the_range_are_refused(name: str) -> None:
    game = get_game(name)
    for players in (game.min_players - 1, game.max_players + 1):
        options = {**game.default_options(game.min_players), "players": players}
        with pytest.raises(BadOptions):
            game.setup(options, 1)


@pytest.mark.parametrize(
    ("name", "index"), [(name, i) for name in GAME_NAMES for i in range(GAMES_PER_NAME)]
)
def test_random_game_keeps_the_contract(name: str, index: int) -> None:
    play_random_game(name, index)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_views_have_exactly_the_keys_their_typed_dict_names(name: str) -> None:
    game = get_game(name)
    view_type = get_type_hints(type(game).view)["return"]
    assert is_typeddict(view_type), f"{name}'s view() should return a TypedDict"
    keys = set(view_type.__annotations__)
    rng = random.Random(3)
    state = game.setup(game.default_options(game.max_players), 3)
    for _ in range(60):
        for seat in (None, *range(game.max_players)):
            assert set(game.view(state, seat)) == keys
        if game.result(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _events = game.apply(state, seat, rng.choice(list(game.legal_actions(state, seat))))


def test_a_game_registered_from_outside_keeps_the_contract(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The toy Nim of tests/toy, registered for this test only (the browser test
    # loads it into a real server through MEEPLE_EXTRA_GAMES).
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "toy"))
    monkeypatch.setitem(games._MODULES, "nim", "meeple_nim")
    for index in range(GAMES_PER_NAME):
        play_random_game("nim", index)
    test_the_options_model_says_what_setup_accepts("nim")
    test_views_have_exactly_the_keys_their_typed_dict_names("nim")
