"""A table as a fold over its versioned event log.

Every change to a table is one :class:`LogEvent`; :func:`advance` is the one
pure function that applies an event to a :class:`Snapshot`. The live writer
calls it to check and compute a change before storing it, and start-up calls
it over the stored log to rebuild the table (the game state by replaying its
actions through the game's checked ``apply``). The seed and the actions are
private (they reveal hands and picks); :meth:`LogEvent.public_data` leaves them out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeAlias

from meeple.errors import Code, TableError
from meeple.games.base import JSON, AnyGame, IllegalAction, Result

OPEN, PLAYING, FINISHED, CLOSED = "open", "playing", "finished", "closed"
"""A table's status: waiting for players, game running, game over, closed before starting."""

PRIVATE_KEYS = ("action",)
"""Keys of event data kept in the store but never sent to clients."""
SPECTATORS_ROOM = "spectators"
"""The ``room`` of a chat line written during play by someone with no seat."""


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
    bot_account: bool = False
    """A bot account (a program playing through the Bot API) holds the seat."""

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
            "bot_account": self.bot_account,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatInfo:
        """The seat :meth:`to_json` described. Create events stored before the seats had
        one JSON name the bot ``bot_level``, and the log is replayed as stored."""
        values = {key: data[key] for key in _SEAT_KEYS if key in data}
        return cls(**values, bot_level=data.get("bot", data.get("bot_level")))


_SEAT_KEYS = (
    "seat", "user_id", "name", "zombie", "left", "timeouts", "wants_rematch", "bot_account"
)  # fmt: skip
"""The keys of a seat's JSON named as :class:`SeatInfo`'s fields (all but the bot's)."""


@dataclass(frozen=True)
class LogEvent:
    """One versioned table event: kind, acting seat, user, data; the one record of it.

    Its three forms: this one in memory; its :meth:`row`, which the store holds
    (:class:`~meeple.store.models.TableEvent`) and the bus carries to other servers; and
    what clients see, its :meth:`public_data` in the wire model
    (:class:`~meeple.web.server_messages.EventOut`: the REST events, the socket's and the game
    stream's ``event`` lines).
    """

    version: int
    kind: str
    seat: int | None
    data: dict[str, JSON]
    user_id: int | None = None
    client_id: str | None = None
    at: float = 0.0

    def public_data(self) -> dict[str, JSON]:
        """The event's data without its private keys (:data:`PRIVATE_KEYS`): what every
        client of the table may see of it."""
        return {k: v for k, v in self.data.items() if k not in PRIVATE_KEYS}

    def kept_from(self, seat: int | None, game_over: bool) -> bool:
        """Whether ``seat`` (``None``: a spectator) is kept from this event's data now: a
        spectators' chat line (:data:`SPECTATORS_ROOM`) reaches the players only once the
        game is over, so nobody watching can coach them."""
        return (
            seat is not None
            and not game_over
            and self.kind == "chat"
            and self.data.get("room") == SPECTATORS_ROOM
        )

    def row(self, table_id: str) -> dict[str, Any]:
        """The event's row in the store (``table_events``), its column values, private data
        included: what the store inserts and what the bus announces to other servers (never
        to clients). :meth:`from_row` and :meth:`from_announced` read it back."""
        columns = {name: getattr(self, name) for name in _FIELDS}
        return {"table_id": table_id, **columns}

    @classmethod
    def from_row(cls, row: Any) -> LogEvent:
        """The event a stored row holds (:meth:`row` read back, as an ORM object or a plain
        row with the same attributes)."""
        return cls(
            row.version, row.kind, row.seat, dict(row.data), row.user_id, row.client_id, row.at
        )

    @classmethod
    def from_announced(cls, announced: Any) -> LogEvent | None:
        """The event a bus message holds (its :meth:`row`), or ``None`` if it holds none."""
        if not isinstance(announced, dict) or not isinstance(announced.get("data"), dict):
            return None
        values = {key: value for key, value in announced.items() if key != "table_id"}
        try:
            event = cls(**{**values, "data": dict(values["data"])})
        except TypeError:
            return None
        if not isinstance(event.version, int) or not isinstance(event.kind, str):
            return None
        return event


_FIELDS = tuple(each.name for each in fields(LogEvent))
"""The event's fields, named as the columns of its row."""


@dataclass(frozen=True)
class Snapshot:
    """Everything about a table that its events change."""

    status: str = OPEN
    seats: tuple[SeatInfo, ...] = ()
    states: tuple[Any, ...] = ()
    """Every state the game has been in, in order, those a takeback undid too (a resume's
    views at older versions read them)."""
    line: tuple[int, ...] = ()
    """The game as it stands, as indexes into ``states``: the deal, then the state after each
    action no takeback undid."""
    takebacks: int = 0
    """How many takebacks the game has had (a bot's move chosen before the last is stale)."""
    result: Result | None = None
    rematch_id: str | None = None
    started_at: float | None = None
    finished_at: float | None = None
    version: int = 0
    start_version: int | None = None
    positions: tuple[int, ...] = field(default=())
    """``positions[v - 1]``: the index in ``states`` of the state just after version ``v``."""
    aborted: bool = False
    """The game ended before it began (its ``finish`` says so): it rates nobody
    (:data:`meeple.tables.core.ratings.FIRST_MOVES`)."""

    @property
    def state(self) -> Any:
        """The current game state (the game must have started)."""
        return self.states[self.line[-1]]

    @property
    def played_states(self) -> tuple[Any, ...]:
        """The states of the game as it stands: the deal, then after each standing action."""
        return tuple(self.states[index] for index in self.line)

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
        return self.states[self.positions[version - 1]]


def _with_seat(snapshot: Snapshot, seat: int, **changes: Any) -> tuple[SeatInfo, ...]:
    seats = list(snapshot.seats)
    seats[seat] = replace(seats[seat], **changes)
    return tuple(seats)


def _seat_number(snapshot: Snapshot, seat: Any) -> int:
    if not isinstance(seat, int) or not 0 <= seat < len(snapshot.seats):
        raise Code.BAD_SEAT.error(seat=seat)
    return seat


@dataclass(frozen=True)
class Fold:
    """What every event rule may read: the game, its options and seed, the event."""

    game: AnyGame
    options: dict[str, JSON]
    seed: int
    event: LogEvent
    state_after: Any = None
    """The state after an action event, when the caller has applied it already."""


Rule: TypeAlias = Callable[[Fold, Snapshot], Snapshot]

RULES: dict[str, Rule] = {}
"""The rule of each event kind: the snapshot after the event, or :class:`TableError`."""


def rule(kind: str) -> Callable[[Rule], Rule]:
    """Register the function below as the rule of events of ``kind``."""

    def register(function: Rule) -> Rule:
        RULES[kind] = function
        return function

    return register


def advance(
    game: AnyGame,
    options: dict[str, JSON],
    seed: int,
    snap: Snapshot,
    ev: LogEvent,
    state_after: Any = None,
) -> Snapshot:
    """The snapshot after ``ev``; :class:`TableError` if the event is not allowed now.

    ``ev.version`` must be the next version; the event's kind picks its rule
    (:data:`RULES`). Game actions go through the game's checked ``apply``; its
    refusal becomes a ``TableError`` with code ``illegal`` and the engine's
    message. ``state_after`` is the state after an action event when the caller
    has already applied it (the live writer).
    """
    if ev.version != snap.version + 1:
        raise Code.VERSION.error(version=ev.version, last=snap.version)
    kind_rule = RULES.get(ev.kind)
    if kind_rule is None:
        raise Code.UNKNOWN_EVENT.error(kind=ev.kind)
    new = kind_rule(Fold(game, options, seed, ev, state_after), snap)
    position = new.line[-1] if new.line else 0
    return replace(new, version=ev.version, positions=(*snap.positions, position))


def _must_be_open(snap: Snapshot) -> None:
    if snap.status != OPEN:
        raise Code.STARTED.error()


@rule("create")
def _create(fold: Fold, snap: Snapshot) -> Snapshot:
    return replace(snap, seats=tuple(SeatInfo.from_json(s) for s in fold.event.data["seats"]))


@rule("join")
def _join(fold: Fold, snap: Snapshot) -> Snapshot:
    ev = fold.event
    seat = _seat_number(snap, ev.seat)
    _must_be_open(snap)
    if not snap.seats[seat].empty:
        raise Code.SEAT_TAKEN.error(seat=seat)
    if ev.user_id is not None and snap.seat_of(ev.user_id) is not None:
        raise Code.ALREADY_SEATED.error()
    name, bot = ev.data.get("name"), ev.data.get("bot")
    account = bool(ev.data.get("bot_account", False))
    seats = _with_seat(
        snap, seat, user_id=ev.user_id, name=name, bot_level=bot, bot_account=account
    )
    return replace(snap, seats=seats)


@rule("leave")
@rule("kick")
def _free_seat(fold: Fold, snap: Snapshot) -> Snapshot:
    seat = _seat_number(snap, fold.event.seat)
    _must_be_open(snap)
    if snap.seats[seat].empty:
        raise Code.SEAT_EMPTY.error(seat=seat)
    seats = _with_seat(snap, seat, user_id=None, name=None, bot_level=None, bot_account=False)
    return replace(snap, seats=seats)


@rule("start")
def _start(fold: Fold, snap: Snapshot) -> Snapshot:
    _must_be_open(snap)
    if any(s.empty for s in snap.seats):
        raise Code.SEATS_FREE.error()
    return replace(
        snap,
        status=PLAYING,
        states=(fold.game.setup(fold.options, fold.seed),),
        line=(0,),
        started_at=fold.event.at,
        start_version=fold.event.version,
    )


def must_act(game: AnyGame, snap: Snapshot, seat: int, whose: str) -> None:
    """Refuse unless the game runs and ``seat`` is to act (``whose`` turn, as the refusal
    names it: "your" for a player, "seat 2's" for the log)."""
    if snap.status != PLAYING:
        raise Code.NOT_PLAYING.error()
    if seat not in game.to_act(snap.state):
        raise Code.NOT_YOUR_TURN.error(whose=whose)


@rule("action")
def _action(fold: Fold, snap: Snapshot) -> Snapshot:
    ev = fold.event
    if snap.status != PLAYING:
        raise Code.NOT_PLAYING.error()
    seat = _seat_number(snap, ev.seat)
    must_act(fold.game, snap, seat, f"seat {seat}'s")
    new_state = fold.state_after
    if new_state is None:
        new_state = apply_action(fold.game, snap.state, seat, ev.data["action"]).state
    seats = snap.seats
    if ev.data.get("by") == "timeout":
        seats = _with_seat(snap, seat, timeouts=snap.seats[seat].timeouts + 1)
    line = (*snap.line, len(snap.states))
    return replace(snap, states=(*snap.states, new_state), line=line, seats=seats)


@rule("zombie")
def _zombie(fold: Fold, snap: Snapshot) -> Snapshot:
    seat = _seat_number(snap, fold.event.seat)
    if snap.status != PLAYING:
        raise Code.NOT_PLAYING.error()
    left = fold.event.data.get("reason") == "left"
    return replace(snap, seats=_with_seat(snap, seat, zombie=True, left=left))


@rule("finish")
def _finish(fold: Fold, snap: Snapshot) -> Snapshot:
    result = fold.game.result(snap.state) if snap.status == PLAYING else None
    if result is None:
        raise Code.NOT_OVER.error()
    aborted = bool(fold.event.data.get("aborted", False))
    return replace(snap, status=FINISHED, result=result, finished_at=fold.event.at, aborted=aborted)


@rule("rematch_vote")
def _rematch_vote(fold: Fold, snap: Snapshot) -> Snapshot:
    seat = _seat_number(snap, fold.event.seat)
    if snap.status != FINISHED:
        raise Code.NOT_OVER.error("a rematch can only be asked for once the game is over")
    return replace(snap, seats=_with_seat(snap, seat, wants_rematch=True))


@rule("rematch")
def _rematch(fold: Fold, snap: Snapshot) -> Snapshot:
    return replace(snap, rematch_id=fold.event.data["table_id"])


@rule("close")
def _close(fold: Fold, snap: Snapshot) -> Snapshot:
    if snap.status != OPEN:
        raise Code.STARTED.error("only a table that has not started can be closed")
    return replace(snap, status=CLOSED)


@rule("chat")
def _chat(fold: Fold, snap: Snapshot) -> Snapshot:
    return snap


@rule("takeback_ask")
@rule("takeback_accept")
@rule("takeback_decline")
def _takeback_talk(fold: Fold, snap: Snapshot) -> Snapshot:
    """An ask for a takeback and its answers change nothing yet: who asked and who agreed is
    read from the log (:mod:`meeple.tables.core.takeback_log`), and a move makes it lapse."""
    _seat_number(snap, fold.event.seat)
    if snap.status != PLAYING:
        raise Code.NOT_PLAYING.error()
    return snap


@rule("takeback")
def _takeback(fold: Fold, snap: Snapshot) -> Snapshot:
    """The game's last ``count`` standing actions are undone: its state is the one before them,
    as a replay of the deal and the actions left would make it."""
    count = fold.event.data.get("count")
    if snap.status != PLAYING:
        raise Code.NOT_PLAYING.error()
    if not isinstance(count, int) or isinstance(count, bool) or not 0 < count < len(snap.line):
        raise Code.TAKEBACK_NONE.error()
    return replace(snap, line=snap.line[:-count], takebacks=snap.takebacks + 1)


@rule("claim")
def _claim(fold: Fold, snap: Snapshot) -> Snapshot:
    """A guest's seat becomes the account's they signed in to (``user_id``, ``name``): the
    seat keeps everything else (a bot may be playing it, it may have left)."""
    ev = fold.event
    seat = _seat_number(snap, ev.seat)
    if snap.seats[seat].user_id != ev.data.get("from_user_id"):
        raise Code.SEAT_EMPTY.error(seat=seat)
    if ev.user_id is not None and any(s.user_id == ev.user_id for s in snap.seats):
        raise Code.ALREADY_SEATED.error()
    return replace(snap, seats=_with_seat(snap, seat, user_id=ev.user_id, name=ev.data["name"]))


@dataclass(frozen=True)
class Applied:
    """An action checked and applied: the state after it, its public events, its JSON form.

    ``action`` is the game's own canonical JSON of the parsed action: that is
    what is stored and replayed, never the bytes a client sent.
    """

    state: Any
    events: list[JSON]
    action: JSON


def apply_action(game: AnyGame, state: Any, seat: int, action: JSON) -> Applied:
    """``action`` applied for ``seat``; ``illegal`` (:class:`TableError`) if malformed or
    refused."""
    try:
        parsed = game.parse_action(action)
        new_state, events = game.apply(state, seat, parsed)
    except IllegalAction as exc:
        raise TableError(Code.ILLEGAL, str(exc), reason=exc.code, params=exc.params) from exc
    return Applied(new_state, events, game.action_json(parsed))
