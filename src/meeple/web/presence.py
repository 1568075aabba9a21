"""Presence news: who watches a table, told to its sockets at most once per short interval.

Every table socket opening or closing changes the table's counts. Told at once
to every socket, N sockets opening cost N²/2 messages. Here a change posts the
table's counts on its bus channel at once if none was posted in the last
interval, else once at the end of that interval with the counts as they are
then: the changes in between ride along. Every socket (on every server) hears
at most one ``watchers`` message per interval and server.

The interval is :data:`PRESENCE_INTERVAL_S`, longer on a table with many
sockets here: each post costs one message per socket, so the interval grows
with their number to keep a table's presence news under
:data:`PRESENCE_MESSAGES_PER_S` (up to :data:`PRESENCE_MAX_INTERVAL_S`, beyond
a thousand sockets). N sockets opening over T seconds then cost at most about
``N + PRESENCE_MESSAGES_PER_S * T`` messages: O(N), whatever pace they come at.

What a socket is told is computed once per change, not once per socket: each
table's counts are cached until its connections, the other servers' news or its
seats change.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from meeple.bus import Bus
from meeple.tables.facade import Table, channel

log = logging.getLogger(__name__)

PRESENCE_INTERVAL_S = 0.5
"""A table's presence news goes on the bus at most once per this, per server."""

PRESENCE_MESSAGES_PER_S = 200
"""The ``watchers`` messages a table's news may cost this server's sockets in a second."""

PRESENCE_MAX_INTERVAL_S = 5.0
"""The longest wait for presence news (a thousand sockets on one table and more)."""

Presence = tuple[int, list[int]]
"""The spectator count and the present seats, as a ``watchers`` message tells them."""


@dataclass
class _TableNews:
    """One table's presence bookkeeping on this server."""

    epoch: int = 0
    """Bumped whenever the counts may have changed (connections here, news from elsewhere)."""
    cached: tuple[tuple[int, int], Presence] | None = None
    """``((epoch, version), presence)``: the counts as last computed."""
    posted_at: float = -1e9
    """When this server last posted the table's news (monotonic seconds)."""
    timer: asyncio.TimerHandle | None = None
    first: bool = False
    """Whether the pending news is the first of this server's connections to the table."""
    servers: dict[str, Any] = field(default_factory=dict)
    """The last news heard from each other server (every socket here hears the same message)."""


class PresenceNews:
    """This server's presence news, per table: posted on the bus throttled, read cached."""

    def __init__(self, bus: Bus, server_id: str, interval_s: float = PRESENCE_INTERVAL_S) -> None:
        """``server_id`` names this server in its news (other servers keep its counts apart)."""
        self.bus, self.server_id, self.interval_s = bus, server_id, interval_s
        # Per table object, forgotten with it: a table evicted from memory takes its news along.
        self._tables: weakref.WeakKeyDictionary[Table, _TableNews] = weakref.WeakKeyDictionary()

    def _news(self, table: Table) -> _TableNews:
        news = self._tables.get(table)
        if news is None:
            news = self._tables[table] = _TableNews()
        return news

    def changed(self, table: Table, first: bool = False) -> None:
        """This server's connections to ``table`` changed: post its counts, at most once per
        interval (the latest counts, when the interval ends).

        ``first``: this server had no connection to the table before, so it knows nothing
        of the other servers' yet; they answer with theirs.
        """
        news = self._news(table)
        news.epoch += 1
        self.announce(table, first)

    def announce(self, table: Table, first: bool = False) -> None:
        """Post this server's counts of ``table`` now, or once the interval since the last
        post ends (a post already waiting carries them: nothing more is scheduled)."""
        news = self._news(table)
        news.first = news.first or first
        if news.timer is not None:
            return
        wait = news.posted_at + self.interval(table) - time.monotonic()
        if wait <= 0:
            self._post(table, news)
            return
        news.timer = asyncio.get_running_loop().call_later(wait, self._post, table, news)

    def interval(self, table: Table) -> float:
        """How long after a post of ``table``'s news the next one may go: the base interval,
        or longer as this server's sockets on it grow (each post is one message to each)."""
        if self.interval_s <= 0:
            return 0.0
        spread = len(table.viewers) / PRESENCE_MESSAGES_PER_S
        return min(max(self.interval_s, spread), max(self.interval_s, PRESENCE_MAX_INTERVAL_S))

    def _post(self, table: Table, news: _TableNews) -> None:
        news.timer = None
        news.posted_at = time.monotonic()
        first, news.first = news.first, False
        message = {
            "type": "watchers",
            "server": self.server_id,
            "spectators": table.local_spectators(),
            "present": sorted(table.local_present()),
            "first": first,
        }
        try:
            self.bus.post(channel(table.info.id), message)
        except Exception as exc:  # the bus closing with the server; presence news is not kept
            log.debug("presence news for table %s not posted: %s", table.info.id, exc)

    def heard(self, table: Table, announced: Mapping[str, Any]) -> bool:
        """Keep what another server announced of its connections to ``table`` (each of this
        server's sockets hears the same message: the first one to pass it on counts).

        Returns whether that server asked for this server's counts (its first connection).
        """
        server = announced.get("server")
        if server is None or server == self.server_id:
            return False
        news = self._news(table)
        seen = news.servers.get(server)
        if seen is announced:
            return False
        news.servers[server] = announced
        spectators = int(announced.get("spectators", 0))
        present = list(announced.get("present", []))
        known = (table.remote_spectators.get(server), table.remote_present.get(server))
        if known != (spectators, frozenset(present)):
            table.heard_watchers(server, spectators, present)
            news.epoch += 1
        return bool(announced.get("first"))

    def presence(self, table: Table) -> Presence:
        """The table's spectator count and present seats over every server (cached)."""
        news = self._news(table)
        key = (news.epoch, table.snap.version)
        if news.cached is None or news.cached[0] != key:
            news.cached = (key, table.presence())
        return news.cached[1]

    def stop(self) -> None:
        """Drop the news still waiting for its interval (the server is stopping)."""
        for news in list(self._tables.values()):
            if news.timer is not None:
                news.timer.cancel()
                news.timer = None
