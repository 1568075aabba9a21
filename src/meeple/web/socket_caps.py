"""How many table sockets one address and one user may hold open on this server.

Each open socket costs memory, a subscription and its share of every message
its table sends; without a cap one machine could open thousands. The counts
are this server's own: with several servers behind a load balancer, an address
may hold the cap on each of them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TypeVar

from meeple.errors import Code, TableError

K = TypeVar("K")


@dataclass(frozen=True)
class SocketTicket:
    """One open socket's place in the counts, given back when it closes."""

    address: str
    user_id: int | None


class SocketCaps:
    """Open table sockets per client address and per signed-in user, with their caps."""

    def __init__(self, per_address: int, per_user: int) -> None:
        """The caps (each at least 1)."""
        self.per_address, self.per_user = per_address, per_user
        self._by_address: Counter[str] = Counter()
        self._by_user: Counter[int] = Counter()

    def take(self, address: str, user_id: int | None) -> SocketTicket:
        """Count one more socket of ``address`` (and ``user_id``, when signed in).

        Raises a :class:`TableError` coded ``too_many_sockets`` if either is at its cap;
        nothing is counted then. Checked and counted in one step (no await between).
        """
        if self._by_address[address] >= self.per_address:
            raise _refusal("this address", self.per_address)
        if user_id is not None and self._by_user[user_id] >= self.per_user:
            raise _refusal("this account", self.per_user)
        self._by_address[address] += 1
        if user_id is not None:
            self._by_user[user_id] += 1
        return SocketTicket(address, user_id)

    def give_back(self, ticket: SocketTicket) -> None:
        """The socket of ``ticket`` closed: its place is free."""
        _decrement(self._by_address, ticket.address)
        if ticket.user_id is not None:
            _decrement(self._by_user, ticket.user_id)

    def open_for(self, user_id: int) -> int:
        """How many sockets (table and account sockets) ``user_id`` holds open here now."""
        return self._by_user[user_id]

    def open_from(self, address: str) -> int:
        """How many sockets ``address`` holds open now."""
        return self._by_address[address]


def _refusal(whose: str, limit: int) -> TableError:
    return Code.TOO_MANY_SOCKETS.error(whose=whose, limit=limit)


def _decrement(counts: Counter[K], key: K) -> None:
    """One fewer for ``key``; a key at zero is forgotten (the counters stay small)."""
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]
