"""One feed of a table for every client: what a seat, or a spectator, sees of it.

The table socket (:class:`meeple.web.sockets.TableConnection`) and the NDJSON game stream
(:class:`meeple.web.routes.streams.GameStreamClient`) are two encodings of this feed: each
is a :class:`Follower`, which sends its client the table's ``hello`` (or, resuming, the
events it missed), then every event as the bus announces it, each with the client's
seat's view after it, and the presence news; the socket writes a line as a text message,
the stream as an NDJSON line, with the seat's legal list added when it must act.

What an audience sees is written once, by :class:`TableFeed` (one per live table on this
server): an event's message per seat (``None``: spectators), version and clocks, the
presence news per count, each a :class:`~meeple.web.ndjson.Line` whose text, bytes and
deflated bytes every socket and stream of that audience share (a hundred streams of a
seat cost one message, one encoding and one compression per event). The views come from
:meth:`Table.view_at` and the legal lists from :attr:`Table.legal_lists`, each made once
per seat and version too. A seat's view goes only to that seat's followers: the key of
every shared line names its seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import weakref
from collections.abc import AsyncIterator
from typing import Any

from meeple.bus import Subscription
from meeple.store.models import User
from meeple.tables.facade import (
    FINISHED,
    PLAYING,
    VIEW_VERSIONS_KEPT,
    LogEvent,
    Table,
    channel,
    is_member,
)
from meeple.web.ndjson import Line
from meeple.web.routes.tables import invite_url, user_id_of
from meeple.web.schemas import TableSummary
from meeple.web.server_messages import Hello, Resume, UserBrief, Watchers, event_text, message_text
from meeple.web.services import Services

EventKey = tuple[int, int | None, tuple[tuple[int, float], ...]]
"""An event message's version, the seat whose view it carries, and the move clocks."""


class TableFeed:
    """One live table's messages as its audiences see them, each written once and shared by
    every follower of that audience on this server. It holds no reference to its table
    (:func:`feed_of` keeps it only as long as the table lives), which each call names."""

    def __init__(self) -> None:
        self._events: dict[EventKey, Line] = {}
        """The ``event`` messages of the last few versions (as the table keeps their views)."""
        self._legal_version = -1
        self._with_legal: dict[str, Line] = {}
        """The lines with a seat's legal list at :attr:`_legal_version`, by their text."""
        self._watchers: tuple[tuple[int, list[int]], Line] | None = None

    def event(self, table: Table, event: LogEvent, seat: int | None) -> Line:
        """The ``event`` message of ``event`` for ``seat`` (``None``: a spectator), written
        once per (version, seat, clocks)."""
        deadlines = tuple(sorted(table.deadlines.items()))
        key = (event.version, seat, deadlines)
        line = self._events.get(key)
        if line is not None:
            return line
        state = table.snap.state_at(event.version)
        kept = event.kept_from(seat, table.snap.status == FINISHED)
        line = Line(
            event_text(
                event,
                kept,
                view=table.view_at(event.version, seat),
                to_act=sorted(table.game.to_act(state)) if state is not None else [],
                deadlines={str(s): at for s, at in deadlines},
            )
        )
        oldest = table.snap.version - VIEW_VERSIONS_KEPT + 1
        if event.version >= oldest and not kept:  # a kept line is sent whole after the end
            for old in [k for k in self._events if k[0] < oldest]:
                del self._events[old]
            self._events[key] = line
        return line

    async def with_legal(self, table: Table, line: Line, version: int, seat: int) -> Line:
        """``line`` with ``seat``'s legal actions at ``version``, the table's newest, added:
        listed once per seat and version in a worker thread (a position may have thousands
        of moves) and written once for every stream of the seat."""
        lists = table.legal_lists
        text = await lists.with_legal(line.text, table.game, table.snap.state, version, seat)
        if version > self._legal_version:  # the lines of older versions go
            self._legal_version, self._with_legal = version, {}
        if version < self._legal_version:  # a newer version came meanwhile: not kept
            return Line(text)
        joined = self._with_legal.get(text)
        if joined is None:
            joined = self._with_legal[text] = Line(text)
        return joined

    def watchers(self, spectators: int, present: list[int]) -> Line:
        """The ``watchers`` message of these counts (the newest written is kept)."""
        if self._watchers is not None and self._watchers[0] == (spectators, present):
            return self._watchers[1]
        message = Watchers(type="watchers", spectators=spectators, present=present)
        line = Line(message_text(message))
        self._watchers = ((spectators, present), line)
        return line


_FEEDS: weakref.WeakKeyDictionary[Table, TableFeed] = weakref.WeakKeyDictionary()
"""The feed of each live table that has followers on this server."""


def feed_of(table: Table) -> TableFeed:
    """The table's feed on this server (made on first use, gone with the table)."""
    feed = _FEEDS.get(table)
    if feed is None:
        feed = _FEEDS[table] = TableFeed()
    return feed


class Follower:
    """One client following a table's feed: what it was sent, and the seat it sees from.

    A subclass sends a line its own way (:meth:`send_line`), may add the seat's legal list
    (:attr:`with_legal`), say when it is done (:meth:`done`) and check its user before
    each run of events (:meth:`check_user`).
    """

    with_legal = False
    """Whether a line after which the client's seat must act carries its legal actions."""

    def __init__(self, services: Services, table: Table, user: User | None) -> None:
        self.services, self.table, self.user = services, table, user
        self.sent_version = 0
        self.sent_presence: tuple[int, list[int]] | None = None
        # One run of table lines at a time (hello, resume, events), so a resend asked for
        # with "sync" never interleaves with live events.
        self._lines_lock = asyncio.Lock()

    @functools.cached_property
    def feed(self) -> TableFeed:
        """The table's feed, shared with the table's other followers here."""
        return feed_of(self.table)

    @property
    def seat(self) -> int | None:
        """The client's seat now (``None``: watching)."""
        return None if self.user is None else self.table.snap.seat_of(self.user.id)

    async def send_line(self, line: Line) -> None:
        """Send one line to the client."""
        raise NotImplementedError

    def done(self) -> bool:
        """Whether nothing more is to be sent (the socket: never; the stream: once over)."""
        return False

    async def check_user(self) -> None:
        """Before each run of events: whether the user still holds what it signed in with."""

    @contextlib.asynccontextmanager
    async def watching(self) -> AsyncIterator[Subscription]:
        """The table's bus channel, this client counted among the table's viewers here (and
        presence news sent) until the block ends."""
        services, table = self.services, self.table
        subscription = await services.bus.subscribe(channel(table.info.id))
        first_here = not table.viewers
        table.viewers[id(self)] = user_id_of(self.user)
        # Not waited for: presence news, and a socket opening in a rush (a dead server's
        # players reconnecting) waited most of a second for Redis to take it.
        services.presence.changed(table, first=first_here)
        try:
            yield subscription
        finally:
            table.viewers.pop(id(self), None)
            await subscription.close()
            with contextlib.suppress(Exception):  # the bus may be closing with the server
                services.presence.changed(table)

    async def hello(self) -> None:
        """The table now: summary, the client's seat and view, the current version."""
        async with self._lines_lock:
            await self._hello()

    async def _hello(self) -> None:
        table, seat, user = self.table, self.seat, self.user
        version = table.snap.version
        self.sent_version = version
        self.sent_presence = self.services.presence.presence(table)
        hello = Hello(
            type="hello",
            version=version,
            seat=seat,
            user=None if user is None else UserBrief(id=user.id, name=user.name, guest=user.guest),
            table=TableSummary.model_validate(table.summary()),
            view=table.view_at(version, seat),
            invite_url=invite_url(table) if is_member(table, user_id_of(user)) else None,
        )
        await self._send(Line(message_text(hello)), version)

    async def resume(self, since: int | None) -> None:
        """Exactly the events after ``since``, or a fresh hello if ``since`` is not usable."""
        async with self._lines_lock:
            table = self.table
            if since is None or not 0 < since <= table.snap.version:
                await self._hello()
                return
            resume = {"type": "resume", "from": since, "to": table.snap.version}
            await self.send_line(Line(message_text(Resume.model_validate(resume))))
            self.sent_version = since
            await self._send_new_events()

    async def send_new_events(self) -> None:
        """Send every event after the last one sent, each with the client's view after it."""
        async with self._lines_lock:
            await self._send_new_events()

    async def _send_new_events(self) -> None:
        table = self.table
        while self.sent_version < table.snap.version:
            event = table.events[self.sent_version]
            line = self.feed.event(table, event, self.seat)
            self.sent_version = event.version
            await self._send(line, event.version)

    async def _send(self, line: Line, version: int) -> None:
        """Send a table line of ``version``, with the legal list if the seat must act."""
        if self.with_legal:
            seat = self._acting_seat(version)
            if seat is not None:
                line = await self.feed.with_legal(self.table, line, version, seat)
            else:
                self.table.legal_lists.newest(self.table.snap.version)  # older lists may go
        await self.send_line(line)

    def _acting_seat(self, version: int) -> int | None:
        """The client's seat if it must act just after ``version``, the newest; else None."""
        table, seat = self.table, self.seat
        snap = table.snap
        if version != snap.version or snap.status != PLAYING or seat is None:
            return None
        if snap.seats[seat].zombie or seat not in table.game.to_act(snap.state):
            return None
        return seat

    async def heard_watchers(self, announced: dict[str, Any]) -> None:
        """Connections came or went (here or on another server): pass on what changed.

        A server posts its news at most once per short interval (:mod:`meeple.web.presence`),
        so each client is sent at most one ``watchers`` per interval and server.
        """
        presence = self.services.presence
        if presence.heard(self.table, announced):
            # A server just seeing this table's first connection does not know ours yet:
            # the first of our connections to hear it answers for this server.
            presence.announce(self.table)
        spectators, present = presence.presence(self.table)
        if (spectators, present) != self.sent_presence:  # only news, not a repeat
            self.sent_presence = (spectators, present)
            await self.send_line(self.feed.watchers(spectators, present))

    async def follow(self, subscription: Subscription) -> None:
        """Send the table's events and presence news as the bus announces them (catching
        up from the store), until :meth:`done`."""
        table = self.table
        while not self.done():
            announced = await subscription.get()
            if announced.get("type") == "watchers":
                await self.heard_watchers(announced)
                continue
            if announced.get("version", 0) > table.snap.version:
                await table.heard(announced)
            await self.check_user()
            await self.send_new_events()
