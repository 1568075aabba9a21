"""Where this server stands with each table: the ownership state machine.

With servers sharing tables, each table is, on this server, in one of four
states (a table never mentioned here is a :data:`COPY`):

- ``copy``: another server runs it (or nobody yet); this server keeps a copy
  for views and forwards writes to the owner;
- ``claiming``: this server holds the lease and is reading what the last owner
  stored before it runs the table (a take-over, a write that found no owner,
  a new table);
- ``owned``: this server runs it: clocks, bots and every write;
- ``standing_down``: another server took the lease (or this server could not
  keep it); the clocks and bots stop here.

:data:`TRANSITIONS` lists every move between them, each named; any other move
raises :class:`IllegalTransition`. Only :mod:`meeple.tables.cluster.cluster` (its
``Cluster``, and ``let_go`` for a table leaving memory) calls these methods, on the
event loop: the lease keeper's thread hands it ids with ``call_soon_threadsafe`` and
never touches the states. A table becomes
owned by one route only: :meth:`OwnerStates.run`, from ``claiming``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable


class OwnerState(enum.Enum):
    """This server's standing with one table."""

    COPY = "copy"
    CLAIMING = "claiming"
    OWNED = "owned"
    STANDING_DOWN = "standing_down"


COPY = OwnerState.COPY
CLAIMING = OwnerState.CLAIMING
OWNED = OwnerState.OWNED
STANDING_DOWN = OwnerState.STANDING_DOWN

TRANSITIONS: dict[tuple[OwnerState, str], OwnerState] = {
    (COPY, "lease"): CLAIMING,  # this server took the table's lease
    (CLAIMING, "run"): OWNED,  # what the last owner stored is folded: it runs here now
    (CLAIMING, "give_up"): COPY,  # the table could not be read or stored; the lease goes back
    (OWNED, "lose"): STANDING_DOWN,  # another server holds the lease, or it could not resume
    (STANDING_DOWN, "stood_down"): COPY,  # its clocks and bots stopped here
    (OWNED, "release"): COPY,  # forgotten from memory, or the server stops: the lease goes
}
"""Every allowed move: (from, name) -> to."""


class IllegalTransition(RuntimeError):
    """A move the state machine does not allow (a bug in the caller, never a client's doing)."""


class OwnerStates:
    """The state of every table this server has a standing with (absent: :data:`COPY`)."""

    def __init__(self) -> None:
        self._states: dict[str, OwnerState] = {}

    def state(self, table_id: str) -> OwnerState:
        """This server's standing with the table."""
        return self._states.get(table_id, COPY)

    def owned(self, table_id: str) -> bool:
        """Whether this server runs the table."""
        return self._states.get(table_id) is OWNED

    def ids(self, state: OwnerState) -> list[str]:
        """The tables in ``state`` (not :data:`COPY`, which is every other table)."""
        return [t for t, s in self._states.items() if s is state]

    def lease(self, table_id: str) -> None:
        """This server took the table's lease: copy -> claiming."""
        self._move(table_id, "lease")

    def lease_many(self, table_ids: Iterable[str]) -> list[str]:
        """:meth:`lease` for each table still a copy here; the ids moved (the others are
        claimed, run or standing down already)."""
        moved = [t for t in table_ids if self.state(t) is COPY]
        for table_id in moved:
            self.lease(table_id)
        return moved

    def run(self, table_id: str) -> None:
        """The table runs here: claiming -> owned (the one route to owned)."""
        self._move(table_id, "run")

    def give_up(self, table_id: str) -> None:
        """The claim failed before the table ran: claiming -> copy."""
        self._move(table_id, "give_up")

    def lose(self, table_id: str) -> None:
        """This server must stop running the table: owned -> standing down."""
        self._move(table_id, "lose")

    def stood_down(self, table_id: str) -> None:
        """Its clocks and bots stopped: standing down -> copy."""
        self._move(table_id, "stood_down")

    def release(self, table_id: str) -> None:
        """This server gives the lease up: owned -> copy."""
        self._move(table_id, "release")

    def _move(self, table_id: str, name: str) -> None:
        before = self.state(table_id)
        after = TRANSITIONS.get((before, name))
        if after is None:
            raise IllegalTransition(f"table {table_id}: cannot {name} from {before.value}")
        if after is COPY:
            self._states.pop(table_id, None)
        else:
            self._states[table_id] = after
