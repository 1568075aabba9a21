"""Checks that a message sent to one seat (or a spectator) holds no secret it may not see.

They work from the true states, rebuilt by replaying the finished game's record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from meeple.games.base import Game

PRIVATE_KEYS = {"seed", "action", "invite_token", "stock_tiles", "hands"}


def walk(value: Any) -> Iterator[Any]:
    """Every value nested in a JSON value, the value itself first."""
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def keys(value: Any) -> set[str]:
    """Every dict key anywhere in a JSON value."""
    return {k for v in walk(value) if isinstance(v, dict) for k in v}


def has_multiset(message: Any, tiles: tuple[str, ...]) -> bool:
    """Whether some list of strings in ``message`` is exactly ``tiles`` in any order."""
    wanted = Counter(tiles)
    return any(
        isinstance(v, list) and v and all(isinstance(t, str) for t in v) and Counter(v) == wanted
        for v in walk(message)
    )


def check_summy(message: dict[str, Any], state: Any, seat: int | None) -> None:
    """No other seat's hand, and no part of the stock's order, in a Summy message."""
    for other, hand in enumerate(state.hands):
        if other != seat and len(hand) >= 3:
            assert not has_multiset(message, hand), f"seat {other}'s hand sent to {seat}"
    if len(state.stock) >= 4:
        head = list(state.stock[:4])
        assert not any(
            isinstance(v, list)
            and len(v) >= 4
            and v[:4] == head
            and all(isinstance(t, str) for t in v)
            for v in walk(message)
        ), "the stock was sent"
    view = message.get("view")
    if view is not None and seat is None:
        assert view["hand"] is None, "a spectator was sent a hand"


def check_slide(message: dict[str, Any], state: Any, seat: int | None) -> None:
    """Face-down values shown as 0 to everyone; another seat's pending pick never shown."""
    view = message.get("view")
    if view is None:
        return
    for owner, grid in enumerate(state.grids):
        for index, card in enumerate(grid):
            if card < 0:
                row, col = divmod(index, 4)
                assert view["grids"][owner][row][col] == 0, "a face-down value was sent"
    own = None
    if seat is not None and state.picks[seat] != -1:
        own = list(divmod(state.picks[seat], 4))
    assert view["my_pick"] == own, "a pick was sent to someone other than its player"


def check_private_action(game_name: str, message: dict[str, Any], state: Any, action: Any) -> None:
    """An action's secret part is not in its event: a pending Slide pick, Summy discards."""
    if message.get("kind") != "action" or action is None:
        return
    data = message["data"]
    if (
        game_name == "slide"
        and action.get("type") == "reveal"
        and any(p != -1 for p in state.picks)
    ):
        lists = [v for v in walk(data) if isinstance(v, list)]
        assert action["cell"] not in lists, "a pending pick was broadcast"
    if game_name == "summy" and action.get("type") == "discard":
        assert not has_multiset(data, tuple(action["tiles"])), "discarded tiles were broadcast"


def check_messages(
    game: Game,
    states: list[Any],
    versions: dict[int, int],
    actions: dict[int, Any],
    messages: list[dict[str, Any]],
    seat: int | None,
) -> int:
    """Check every message one client received; returns how many views were checked.

    ``versions[v]`` is the index in ``states`` just after event ``v`` (absent
    before the start); ``actions[v]`` is the private action of event ``v``.
    """
    checked = 0
    for message in messages:
        assert not keys(message) & PRIVATE_KEYS, f"private key in {message}"
        version = message.get("version")
        if message.get("type") not in ("hello", "event") or version not in versions:
            continue
        state = states[versions[version]]
        if message["view"] is not None:
            assert message["view"] == game.view(state, seat), "not exactly the seat's own view"
            checked += 1
        if game.name == "summy":
            check_summy(message, state, seat)
        else:
            check_slide(message, state, seat)
        check_private_action(game.name, message, state, actions.get(version))
    return checked
