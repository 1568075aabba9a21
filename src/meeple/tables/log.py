"""A table as a fold over its versioned event log.

Every change to a table is one :class:`LogEvent`; :func:`advance` is the one
pure function that applies an event to a :class:`Snapshot`. The live writer
calls it to check and compute a change before storing it, and start-up calls
it over the stored log to rebuild the table (the game state by replaying its
actions through the game's checked ``apply``). The seed and the actions are
private (they reveal hands and picks); :meth:`LogEvent.public` leaves them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from meeple.games.base import JSON, Game, IllegalAction, Result
from meeple.tables.errors import TableError

OPEN, PLAYING, FINISHED, CLOSED = "open", "playing", "finished", "closed"
"""A table's status: waiting for players, game running, game over, closed before starting."""

PRIVATE_KEYS = ("action",)
"""Keys of event data kept in the store but never sent to clients."""


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat: a user, a bot of a level, or nobody (both ``None``)."""

    seat: int
    user_id: int | None = None
    name: str | None = None
    bot_level: str | None = None
    zombie: bool = False
    left: bool = False
    timeouts: int = 0
    wants_rematch: bool = False

    @property
    def empty(self) -> bool:
        """No user and no bot."""
        return self.user_id is None and self.bot_level is None

    @property
    def played_by_server(self) -> bool:
        """A bot or a zombie plays this seat's moves."""
        return self.bot_level is not None or self.zombie

    def to_json(self) -> dict[str, JSON]:
        """The public description of this seat."""
        return {
            "seat": self.seat,
            "user_id": self.user_id,
            "name": self.name,
            "bot": self.bot_level,
            "zombie": self.zombie,
            "left": self.left,
            "timeouts": self.timeouts,
            "wants_rematch": self.wants_rematch,
        }


@dataclass(frozen=True)
class LogEvent:
    """One versioned table event as stored: kind, acting seat, user, data."""

    version: int
    kind: str
    seat: int | None
    data: dict[str, JSON]
    user_id: int | None = None
    client_id: str | None = None
    at: float = 0.0

    def public(self) -> dict[str, JSON]:
        """What every client of the table may see of this event."""
        data = {k: v for k, v in self.data.items() if k not in PRIVATE_KEYS}
        return {"version": self.version, "kind": self.kind, "seat": self.seat, "data": data}


@dataclass(frozen=True)
class Snapshot:
    """Everything about a table that its events change."""

    status: str = OPEN
    seats: tuple[SeatInfo, ...] = ()
    states: tuple[Any, ...] = ()
    result: Result | None = None
    rematch_id: str | None = None
    started_at: float | None = None
    finished_at: float | None = None
    version: int = 0
    start_version: int | None = None
    action_counts: tuple[int, ...] = field(default=())
    """``action_counts[v - 1]``: how many actions had been applied at version ``v``."""

    @property
    def state(self) -> Any:
        """The current game state (the game must have started)."""
        return self.states[-1]

    def seat_of(self, user_id: int) -> int | None:
        """The seat this user holds (and has not left), if any."""
        for info in self.seats:
            if info.user_id == user_id and not info.left:
                return info.seat
        return None

    def state_at(self, version: int) -> Any | None:
        """The game state just after event ``version`` (``None`` before the start)."""
        if self.start_version is None or not self.start_version <= version <= self.version:
            return None
        return self.states[self.action_counts[version - 1]]


def _with_seat(snapshot: Snapshot, seat: int, **changes: Any) -> tuple[SeatInfo, ...]:
    seats = list(snapshot.seats)
    seats[seat] = replace(seats[seat], **changes)
    return tuple(seats)


def _seat_number(snapshot: Snapshot, seat: Any) -> int:
    if not isinstance(seat, int) or not 0 <= seat < len(snapshot.seats):
        raise TableError("bad_seat", f"there is no seat {seat!r} at this table")
    return seat


def advance(
    game: Game,
    options: dict[str, JSON],
    seed: int,
    snap: Snapshot,
    ev: LogEvent,
    applied: Any = None,
) -> Snapshot:
    """The snapshot after ``ev``; :class:`TableError` if the event is not allowed now.

    ``ev.version`` must be the next version. Game actions go through the
    game's checked ``apply``; its refusal becomes a ``TableError`` with code
    ``"illegal"`` and the engine's message. ``applied`` is the state after an
    action event when the caller has already applied it (the live writer).
    """
    if ev.version != snap.version + 1:
        raise TableError("version", f"event {ev.version} does not follow version {snap.version}")
    data, kind = ev.data, ev.kind
    new = snap
    if kind == "create":
        new = replace(snap, seats=tuple(SeatInfo(**s) for s in data["seats"]))
    elif kind == "join":
        seat = _seat_number(snap, ev.seat)
        if snap.status != OPEN:
            raise TableError("started", "the game has already started")
        if not snap.seats[seat].empty:
            raise TableError("seat_taken", f"seat {seat} is taken")
        if ev.user_id is not None and snap.seat_of(ev.user_id) is not None:
            raise TableError("already_seated", "you already have a seat at this table")
        new = replace(
            snap,
            seats=_with_seat(
                snap, seat, user_id=ev.user_id, name=data.get("name"), bot_level=data.get("bot")
            ),
        )
    elif kind in ("leave", "kick"):
        seat = _seat_number(snap, ev.seat)
        if snap.status != OPEN:
            raise TableError("started", "the game has already started")
        if snap.seats[seat].empty:
            raise TableError("seat_empty", f"seat {seat} is empty")
        new = replace(snap, seats=_with_seat(snap, seat, user_id=None, name=None, bot_level=None))
    elif kind == "start":
        if snap.status != OPEN:
            raise TableError("started", "the game has already started")
        if any(s.empty for s in snap.seats):
            raise TableError("seats_free", "every seat must be taken before the start")
        new = replace(
            snap,
            status=PLAYING,
            states=(game.setup(options, seed),),
            started_at=ev.at,
            start_version=ev.version,
        )
    elif kind == "action":
        new = _advance_action(game, snap, ev, applied)
    elif kind == "zombie":
        seat = _seat_number(snap, ev.seat)
        if snap.status != PLAYING:
            raise TableError("not_playing", "the game is not running")
        new = replace(
            snap, seats=_with_seat(snap, seat, zombie=True, left=data.get("reason") == "left")
        )
    elif kind == "finish":
        if snap.status != PLAYING or game.result(snap.state) is None:
            raise TableError("not_over", "the game is not over")
        new = replace(snap, status=FINISHED, result=game.result(snap.state), finished_at=ev.at)
    elif kind == "rematch_vote":
        seat = _seat_number(snap, ev.seat)
        if snap.status != FINISHED:
            raise TableError("not_over", "a rematch can only be asked for once the game is over")
        new = replace(snap, seats=_with_seat(snap, seat, wants_rematch=True))
    elif kind == "rematch":
        new = replace(snap, rematch_id=data["table_id"])
    elif kind == "close":
        if snap.status != OPEN:
            raise TableError("started", "only a table that has not started can be closed")
        new = replace(snap, status=CLOSED)
    elif kind != "chat":
        raise TableError("unknown_event", f"unknown table event {kind!r}")
    count = len(new.states) - 1 if new.states else 0
    return replace(new, version=ev.version, action_counts=(*snap.action_counts, count))


def _advance_action(game: Game, snap: Snapshot, ev: LogEvent, applied: Any) -> Snapshot:
    if snap.status != PLAYING:
        raise TableError("not_playing", "the game is not running")
    seat = _seat_number(snap, ev.seat)
    if seat not in game.to_act(snap.state):
        raise TableError("not_your_turn", f"it is not seat {seat}'s turn")
    new_state = applied
    if new_state is None:
        new_state = apply_action(game, snap.state, seat, ev.data["action"]).state
    seats = snap.seats
    if ev.data.get("by") == "timeout":
        seats = _with_seat(snap, seat, timeouts=snap.seats[seat].timeouts + 1)
    return replace(snap, states=(*snap.states, new_state), seats=seats)


@dataclass(frozen=True)
class Applied:
    """An action checked and applied: the state after it, its public events, its JSON form.

    ``action`` is the game's own canonical JSON of the parsed action: that is
    what is stored and replayed, never the bytes a client sent.
    """

    state: Any
    events: list[JSON]
    action: JSON


def apply_action(game: Game, state: Any, seat: int, action: JSON) -> Applied:
    """``action`` applied for ``seat``; ``TableError("illegal")`` if malformed or refused."""
    try:
        parsed = game.parse_action(action)
        new_state, events = game.apply(state, seat, parsed)
    except IllegalAction as exc:
        raise TableError("illegal", str(exc)) from exc
    return Applied(new_state, events, game.action_json(parsed))
