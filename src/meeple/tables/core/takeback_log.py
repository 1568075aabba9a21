"""What takebacks leave in a table's log, read back: the actions that still stand, the ask
awaiting answers.

The log stays append-only: a takeback is an event of its own (kind ``takeback``, ``data``
``{"count": n}``) undoing the last ``n`` actions that stood before it, and an ask between
people is a ``takeback_ask`` (``{"count": n, "waiting": [seats]}``) answered by
``takeback_accept`` or ``takeback_decline`` events, lapsing at the next action. So the game
as it stands is the deal and :func:`standing_actions`; everything that reads "the game's
actions" from a log (the record, the replay, exports, reviews and puzzles, ratings' count
of first moves) reads them through it. These functions take any events with ``version``,
``kind``, ``seat`` and ``data`` (a :class:`~meeple.tables.core.log.LogEvent` or a stored row).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

LAPSING = frozenset({"action", "zombie", "takeback", "takeback_decline", "finish"})
"""The events after which no ask is waiting: a move made (the ask lapses), a seat handed to
a bot, the takeback done or declined, the end."""


class LoggedEvent(Protocol):
    """What these functions read of an event."""

    @property
    def version(self) -> int:
        """The event's version."""

    @property
    def kind(self) -> str:
        """The event's kind."""

    @property
    def seat(self) -> int | None:
        """The seat concerned, if any."""

    @property
    def data(self) -> Mapping[str, Any]:
        """The event's data."""


E = TypeVar("E", bound=LoggedEvent)


def standing_actions(events: Iterable[E]) -> list[E]:
    """The ``action`` events of the game as it stands, in order: each ``takeback`` drops the
    last ``count`` actions standing before it."""
    standing: list[E] = []
    for event in events:
        if event.kind == "action":
            standing.append(event)
        elif event.kind == "takeback":
            del standing[len(standing) - int(event.data["count"]) :]
    return standing


def undone_versions(events: Sequence[E]) -> frozenset[int]:
    """The versions of the ``action`` events a takeback undid."""
    kept = {event.version for event in standing_actions(events)}
    return frozenset(e.version for e in events if e.kind == "action" and e.version not in kept)


@dataclass(frozen=True)
class TakebackAsk:
    """A takeback asked between people and not yet answered by all of them."""

    seat: int
    """Who asked: the seat whose last move it takes back."""
    count: int
    """How many actions it undoes (that move and the bots' after it)."""
    waiting: frozenset[int]
    """The seats whose players have not accepted yet."""
    version: int
    """The ask's event."""

    def to_json(self) -> dict[str, Any]:
        """The ask as the table's summary gives it."""
        return {"seat": self.seat, "count": self.count, "waiting": sorted(self.waiting)}


def pending_ask(events: Sequence[E]) -> TakebackAsk | None:
    """The takeback asked since the game's last move, awaiting answers, if any (read back
    from the log's end: only the events since the last action are looked at)."""
    accepted: set[int] = set()
    for event in reversed(events):
        if event.kind in LAPSING:
            return None
        if event.kind == "takeback_accept" and event.seat is not None:
            accepted.add(event.seat)
        elif event.kind == "takeback_ask" and event.seat is not None:
            waiting = frozenset(int(seat) for seat in event.data["waiting"]) - accepted
            return TakebackAsk(event.seat, int(event.data["count"]), waiting, event.version)
    return None


def declined_since_move(events: Sequence[E], seat: int) -> bool:
    """Whether an ask of ``seat``'s was declined since the game's last move (it may ask again
    once a move is made: an ask is not a way to nag)."""
    declined = False
    for event in reversed(events):
        if event.kind in ("action", "zombie", "takeback"):
            return False
        if event.kind == "takeback_decline":
            declined = True
        elif event.kind == "takeback_ask" and declined:
            if event.seat == seat:
                return True
            declined = False
    return False
