"""The tables layer without the network: specs, the event fold, ratings, the manual clock."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_harness import run_async

from meeple.errors import Code, TableError
from meeple.games import get_game
from meeple.tables.clock import ManualClock
from meeple.tables.core.log import OPEN, PLAYING, LogEvent, SeatInfo, Snapshot, advance
from meeple.tables.core.ratings import RatedSeat, new_ratings, rating_ranks
from meeple.tables.core.spec import TableSpec, check_spec

SLIDE = get_game("slide")
OPTIONS = SLIDE.default_options(2) | {"players": 2}


def fold(*events: tuple[str, int | None, dict[str, Any], int | None]) -> Snapshot:
    snap = Snapshot()
    for version, (kind, seat, data, user) in enumerate(events, start=1):
        snap = advance(SLIDE, OPTIONS, 5, snap, LogEvent(version, kind, seat, data, user))
    return snap


CREATE = ("create", None, {"seats": [{"seat": 0, "user_id": 1, "name": "a"}, {"seat": 1}]}, 1)
JOIN = ("join", 1, {"name": "b"}, 2)

REFUSED = [
    ("join a taken seat", [CREATE], ("join", 0, {}, 3), "seat_taken"),
    ("join twice", [CREATE], ("join", 1, {}, 1), "already_seated"),
    ("join no seat", [CREATE], ("join", 7, {}, 3), "bad_seat"),
    ("start with a free seat", [CREATE], ("start", None, {}, 1), "seats_free"),
    ("start twice", [CREATE, JOIN, ("start", None, {}, 1)], ("start", None, {}, 1), "started"),
    ("act before the start", [CREATE, JOIN], ("action", 0, {"action": {}}, 1), "not_playing"),
    (
        "act with nonsense",
        [CREATE, JOIN, ("start", None, {}, 1)],
        ("action", 0, {"action": {"type": "fly"}}, 1),
        "illegal",
    ),
    (
        "finish a running game",
        [CREATE, JOIN, ("start", None, {}, 1)],
        ("finish", None, {}, None),
        "not_over",
    ),
    ("leave an empty seat", [CREATE], ("leave", 1, {}, 2), "seat_empty"),
    (
        "rematch before the end",
        [CREATE, JOIN, ("start", None, {}, 1)],
        ("rematch_vote", 0, {}, 1),
        "not_over",
    ),
    ("unknown event", [CREATE], ("dance", None, {}, None), "unknown_event"),
    (
        "claim a seat the guest does not hold",
        [CREATE, JOIN],
        ("claim", 1, {"name": "c", "from_user_id": 9}, 3),
        "seat_empty",
    ),
    (
        "claim for an account already seated",
        [CREATE, JOIN],
        ("claim", 1, {"name": "a", "from_user_id": 2}, 1),
        "already_seated",
    ),
]


@pytest.mark.parametrize(("case", "before", "event", "code"), REFUSED, ids=[r[0] for r in REFUSED])
def test_events_the_table_refuses(case: str, before: list[Any], event: Any, code: str) -> None:
    snap = fold(*before)
    with pytest.raises(TableError) as caught:
        advance(SLIDE, OPTIONS, 5, snap, LogEvent(snap.version + 1, *event))
    assert caught.value.code == code, case


def test_the_fold_tracks_seats_states_and_versions() -> None:
    snap = fold(CREATE, JOIN, ("start", None, {}, 1))
    assert snap.status == PLAYING and snap.version == 3 and snap.start_version == 3
    assert snap.seat_of(2) == 1 and snap.state_at(2) is None
    reveal = {"type": "reveal", "cell": [1, 1]}
    after = advance(SLIDE, OPTIONS, 5, snap, LogEvent(4, "action", 0, {"action": reveal}))
    assert len(after.states) == 2
    assert after.state_at(3) is snap.state and after.state_at(4) is after.state
    with pytest.raises(TableError, match="does not follow"):
        advance(SLIDE, OPTIONS, 5, after, LogEvent(9, "chat", None, {}))


def test_leaving_before_the_start_frees_the_seat() -> None:
    snap = fold(CREATE, JOIN, ("leave", 1, {}, 2))
    assert snap.status == OPEN and snap.seats[1].empty


SPECS = [
    (TableSpec("slide", 6, bots={1: "expert"}), None),
    (TableSpec("summy", 1), None),
    (TableSpec("go", 2), "bad_game"),
    (TableSpec("summy", 3), "bad_seats"),
    (TableSpec("slide", 2, pace="glacial"), "bad_pace"),
    (TableSpec("slide", 2, pace="turn"), None),
    (TableSpec("slide", 2, options={"match_to_100": "yes"}), "bad_options"),
    (TableSpec("slide", 2, bots={0: "greedy", 1: "greedy"}), "bad_seat"),
    (TableSpec("slide", 2, bots={0: "greedy", 1: "greedy"}, sit=False), None),
]


@pytest.mark.parametrize(("spec", "code"), SPECS)
def test_table_specs(spec: TableSpec, code: str | None) -> None:
    if code is None:
        checked = check_spec(spec)
        assert checked.options["players"] == spec.seats
        assert checked.move_seconds == (86400 if spec.pace == "turn" else 60)
    else:
        with pytest.raises(TableError) as caught:
            check_spec(spec)
        assert caught.value.code == code


def test_zombies_and_leavers_rank_last_and_bots_are_not_rated() -> None:
    seats = [
        SeatInfo(0, user_id=10),
        SeatInfo(1, user_id=11, zombie=True, left=True),
        SeatInfo(2, bot_level="greedy"),
        SeatInfo(3, user_id=13),
    ]
    assert rating_ranks((2, 1, 3, 4), seats) == {10: 1, 13: 2, 11: 3}
    assert rating_ranks((1, 1, 3, 4), [SeatInfo(0, user_id=1), SeatInfo(1, user_id=2)]) == {
        1: 1,
        2: 1,
    }


def test_plackett_luce_moves_winners_up_and_losers_down() -> None:
    players = [RatedSeat(1, 1, 25.0, 25 / 3), RatedSeat(2, 2, 25.0, 25 / 3),
               RatedSeat(3, 3, 25.0, 25 / 3)]  # fmt: skip
    after = new_ratings(players)
    assert after[1][0] > 25.0 > after[3][0]
    assert after[1][0] > after[2][0] > after[3][0]
    assert all(sigma < 25 / 3 for _, sigma in after.values())
    assert new_ratings(players[:1]) == {}


def test_the_manual_clock_wakes_timers_only_when_advanced() -> None:
    async def scenario() -> list[str]:
        clock, woke = ManualClock(100.0), []

        async def timer(name: str, at: float) -> None:
            await clock.sleep_until(at)
            woke.append(name)

        tasks = [asyncio.create_task(timer("soon", 110)), asyncio.create_task(timer("late", 200))]
        await asyncio.sleep(0.01)
        assert woke == []
        clock.advance(15)
        await asyncio.sleep(0.01)
        assert woke == ["soon"]
        clock.advance(100)
        await asyncio.gather(*tasks)
        return woke

    assert run_async(scenario()) == ["soon", "late"]


def test_a_claim_gives_the_guests_seat_to_the_account_at_any_point() -> None:
    started = fold(CREATE, JOIN, ("start", None, {}, 1))
    claimed = advance(
        SLIDE, OPTIONS, 5, started, LogEvent(4, "claim", 1, {"name": "c", "from_user_id": 2}, 3)
    )
    assert claimed.seat_of(3) == 1 and claimed.seat_of(2) is None
    assert claimed.seats[1].name == "c" and claimed.status == PLAYING


def test_every_event_kind_has_one_rule() -> None:
    from meeple.tables.core.log import RULES

    assert set(RULES) == {
        "create", "join", "leave", "kick", "start", "action", "zombie", "finish",
        "rematch_vote", "rematch", "close", "chat", "claim",
        "takeback_ask", "takeback_accept", "takeback_decline", "takeback",
    }  # fmt: skip
    with pytest.raises(TableError) as refused:
        advance(SLIDE, OPTIONS, 5, Snapshot(), LogEvent(1, "teleport", None, {}))
    assert refused.value.code == "unknown_event"


def test_http_statuses_are_chosen_in_the_web_layer_by_family() -> None:
    from meeple.web.errors import http_status

    assert http_status(Code.NOT_CREATOR.error(what="x")) == 403
    assert http_status(Code.NO_TABLE.error(table="'x'")) == 404
    assert http_status(TableError(Code.ILLEGAL, "x")) == 400
    assert not hasattr(TableError(Code.ILLEGAL, "x"), "status")
