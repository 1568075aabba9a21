"""A table's records have one form each, and one mapping each way to their stored rows.

The table's fixed info, a seat and an event are each one type; their rows in
the store are derived from them (not copied field by field), so a field added
to one is stored, read back and sent without a second place to remember it.
"""

from __future__ import annotations

from dataclasses import fields
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from meeple.store.models import GameTable, TableEvent, TableSeat
from meeple.tables.core.log import OPEN, LogEvent, SeatInfo, Snapshot
from meeple.tables.core.persist import seat_row
from meeple.tables.core.table import TableInfo, reset_for_rematch

names = st.none() | st.text(min_size=1, max_size=8)
users = st.none() | st.integers(min_value=1, max_value=10**6)
levels = st.none() | st.sampled_from(["random", "greedy", "strong"])

seats = st.builds(
    SeatInfo,
    seat=st.integers(min_value=0, max_value=7),
    user_id=users,
    name=names,
    bot_level=levels,
    zombie=st.booleans(),
    left=st.booleans(),
    timeouts=st.integers(min_value=0, max_value=5),
    wants_rematch=st.booleans(),
)

infos = st.builds(
    TableInfo,
    id=st.text(min_size=1, max_size=12),
    game=st.sampled_from(["nim", "other"]),
    options=st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    seed=st.integers(min_value=0, max_value=2**62),
    seat_count=st.integers(min_value=1, max_value=8),
    private=st.booleans(),
    invite_token=st.text(min_size=1, max_size=10),
    rated=st.booleans(),
    pace=st.sampled_from(["live", "daily"]),
    move_seconds=st.integers(min_value=1, max_value=3600),
    creator_id=st.integers(min_value=1, max_value=10**6),
    auto_start=st.booleans(),
    created_at=st.floats(min_value=0, max_value=2e9),
    rematch_of=st.none() | st.text(min_size=1, max_size=12),
)


@given(infos)
def test_table_info_is_stored_and_read_back_by_one_mapping(info: TableInfo) -> None:
    row = info.row(OPEN)
    assert isinstance(row, GameTable) and row.status == OPEN
    assert TableInfo.from_row(row) == info


def test_every_field_of_the_table_info_is_a_column_of_its_row() -> None:
    columns = set(GameTable.__table__.columns.keys())
    assert {field.name for field in fields(TableInfo)} <= columns


@given(seats)
def test_a_seat_has_one_json_read_back_as_it_was(seat: SeatInfo) -> None:
    assert SeatInfo.from_json(seat.to_json()) == seat


def test_a_create_event_stored_with_bot_level_still_reads() -> None:
    stored = {"seat": 1, "bot_level": "greedy", "name": "bot (greedy)"}
    assert SeatInfo.from_json(stored) == SeatInfo(1, name="bot (greedy)", bot_level="greedy")


@given(seats)
def test_a_seat_row_holds_every_stored_field_of_the_seat(seat: SeatInfo) -> None:
    row = seat_row("t1", seat)
    assert isinstance(row, TableSeat) and row.table_id == "t1"
    stored = {column: getattr(row, column) for column in ("seat", "user_id", "bot_level")}
    assert stored == {"seat": seat.seat, "user_id": seat.user_id, "bot_level": seat.bot_level}
    assert (row.zombie, row.left, row.timeouts) == (seat.zombie, seat.left, seat.timeouts)
    assert row.wants_rematch == seat.wants_rematch


def test_a_rematch_gives_a_leavers_seat_a_bot_in_the_one_seat_form() -> None:
    snap = Snapshot(
        seats=(SeatInfo(0, user_id=3, name="ada"), SeatInfo(1, user_id=4, name="bo", left=True))
    )
    assert reset_for_rematch(snap) == [
        SeatInfo(0, user_id=3, name="ada"),
        SeatInfo(1, name="bot (greedy)", bot_level="greedy"),
    ]


def test_event_columns_are_the_event_fields() -> None:
    columns = set(TableEvent.__table__.columns.keys()) - {"table_id"}
    assert columns == {field.name for field in fields(LogEvent)}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
events = st.builds(
    LogEvent,
    version=st.integers(min_value=1, max_value=10**6),
    kind=st.sampled_from(["action", "chat", "join", "start"]),
    seat=st.none() | st.integers(min_value=0, max_value=7),
    data=st.dictionaries(st.sampled_from(["action", "by", "events", "text"]), json_values),
    user_id=users,
    client_id=st.none() | st.text(min_size=1, max_size=8),
    at=st.floats(min_value=0, max_value=2e9),
)


@given(events)
def test_an_event_is_stored_and_announced_as_its_row_read_back_as_it_was(event: LogEvent) -> None:
    row = event.row("t1")
    assert row["table_id"] == "t1" and set(row) == set(TableEvent.__table__.columns.keys())
    assert LogEvent.from_row(SimpleNamespace(**row)) == event
    assert LogEvent.from_announced(row) == event
    # A server that announces without the table's id (the channel names it) is read too.
    assert LogEvent.from_announced({k: v for k, v in row.items() if k != "table_id"}) == event


@given(events)
def test_the_public_part_of_an_event_hides_the_action(event: LogEvent) -> None:
    assert event.public_data() == {k: v for k, v in event.data.items() if k != "action"}
