"""Takebacks in the log, without a server: the fold, the actions that stand, the ask."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.bots import get_bot
from meeple.errors import TableError
from meeple.games import get_game
from meeple.games.base import GameRecord, replay
from meeple.tables.core.log import LogEvent, Snapshot, advance
from meeple.tables.core.takeback_log import (
    declined_since_move,
    pending_ask,
    standing_actions,
    undone_versions,
)

SUMMY = get_game("summy")
OPTIONS = SUMMY.default_options(2) | {"players": 2}
SEED = 11
SEATS = {"seats": [{"seat": 0, "user_id": 1, "name": "a"}, {"seat": 1, "user_id": 2, "name": "b"}]}


def log_of(*kinds: tuple[str, int | None, dict[str, Any]]) -> list[LogEvent]:
    """Events numbered from 1 in the order given."""
    return [LogEvent(v, kind, seat, data) for v, (kind, seat, data) in enumerate(kinds, 1)]


def fold(events: list[LogEvent]) -> Snapshot:
    """The snapshot after ``events``, each checked by :func:`advance`."""
    snap = Snapshot()
    for event in events:
        snap = advance(SUMMY, OPTIONS, SEED, snap, event)
    return snap


def played(count: int) -> list[LogEvent]:
    """A started table and ``count`` actions, each its seat's random bot's choice."""
    events = log_of(("create", None, SEATS), ("start", None, {}))
    bots = [get_bot("summy", "random", seat) for seat in (0, 1)]
    snap = fold(events)
    for _ in range(count):
        seat = min(SUMMY.to_act(snap.state))
        action = bots[seat].choose(SUMMY.view(snap.state, seat), seat, 0.05)
        event = LogEvent(snap.version + 1, "action", seat, {"action": action, "by": "player"})
        snap = advance(SUMMY, OPTIONS, SEED, snap, event)
        events.append(event)
    return events


def test_after_a_takeback_the_state_is_the_replay_of_the_actions_that_stand() -> None:
    events = played(6)
    before = fold(events)
    taken = LogEvent(len(events) + 1, "takeback", 1, {"count": 2})
    after = advance(SUMMY, OPTIONS, SEED, before, taken)
    standing = standing_actions([*events, taken])
    assert [e.version for e in standing] == [e.version for e in events if e.kind == "action"][:4]
    actions = tuple((e.seat, e.data["action"]) for e in standing if e.seat is not None)
    states = replay(SUMMY, GameRecord("summy", OPTIONS, SEED, actions))
    assert after.state == states[-1] and after.played_states == tuple(states)
    assert after.takebacks == 1 and after.state is before.played_states[4]
    # Every version still shows the state just after it: a resume's views are unchanged.
    for version in range(before.start_version or 0, before.version + 1):
        assert after.state_at(version) is before.state_at(version)
    assert after.state_at(after.version) is after.state


def test_actions_after_a_takeback_stand_and_undo_only_what_stood() -> None:
    a = [("action", 0, {"action": n}) for n in range(5)]
    events = log_of(a[0], a[1], a[2], ("takeback", 0, {"count": 2}), a[3], a[4],
                    ("takeback", 1, {"count": 2}), ("chat", 0, {}))  # fmt: skip
    assert [e.data["action"] for e in standing_actions(events)] == [0]
    assert undone_versions(events) == frozenset({2, 3, 5, 6})


@pytest.mark.parametrize(
    ("count", "code"), [(0, "takeback_none"), (7, "takeback_none"), ("2", "takeback_none")]
)
def test_a_takeback_of_nothing_or_more_than_stands_is_refused(count: Any, code: str) -> None:
    events = played(6)
    with pytest.raises(TableError) as refused:
        advance(SUMMY, OPTIONS, SEED, fold(events), LogEvent(9, "takeback", 0, {"count": count}))
    assert refused.value.code == code


def test_no_takeback_or_ask_before_the_start() -> None:
    snap = fold(log_of(("create", None, SEATS)))
    for kind, data in (("takeback", {"count": 1}), ("takeback_ask", {"count": 1})):
        with pytest.raises(TableError) as refused:
            advance(SUMMY, OPTIONS, SEED, snap, LogEvent(2, kind, 0, {**data, "waiting": [1]}))
        assert refused.value.code == "not_playing"


ASK = ("takeback_ask", 0, {"count": 1, "waiting": [1, 2]})


@pytest.mark.parametrize(
    ("after", "waiting"),
    [
        ([], [1, 2]),
        ([("chat", 1, {}), ("takeback_accept", 2, {})], [1]),
        ([("takeback_decline", 1, {})], None),
        ([("action", 1, {})], None),  # a move makes it lapse
        ([("zombie", 2, {})], None),
    ],
)
def test_the_pending_ask_is_read_from_the_log(
    after: list[tuple[str, int, dict[str, Any]]], waiting: list[int] | None
) -> None:
    events = log_of(("action", 0, {}), ASK, *after)
    asked = pending_ask(events)
    assert (asked and asked.to_json()["waiting"]) == waiting
    if asked:
        assert asked.to_json() == {"seat": 0, "count": 1, "waiting": waiting}


def test_a_declined_ask_is_not_asked_again_before_a_move() -> None:
    declined = log_of(("action", 0, {}), ASK, ("takeback_decline", 1, {}), ("chat", 1, {}))
    assert declined_since_move(declined, 0) and not declined_since_move(declined, 1)
    moved = [*declined, LogEvent(5, "action", 1, {})]
    assert not declined_since_move(moved, 0)
