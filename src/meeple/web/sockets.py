"""The WebSockets: one per table and client (play, watch, chat), and the live lobby.

Every message is a JSON object with a ``type``; docs/protocol.md lists them
all with examples. What a client receives about the game is only ever its
own seat's view (a spectator's view if it has no seat) and the public events.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from meeple.bus import Subscription
from meeple.store.models import User
from meeple.tables.access import is_member, may_reach
from meeple.tables.errors import TableError
from meeple.tables.manager import LOBBY_CHANNEL
from meeple.tables.table import Table, channel
from meeple.web.cross_site import same_origin
from meeple.web.deps import client_address, session_of_cookie
from meeple.web.inputs import BadInput, loads_strict
from meeple.web.protocol import (
    Action,
    Chat,
    ClientMessage,
    Leave,
    Ping,
    Rematch,
    Sync,
    echo_id,
    read_message,
)
from meeple.web.routes.tables import invite_url, user_id_of
from meeple.web.schemas import TableSummary
from meeple.web.security import SESSION_COOKIE
from meeple.web.server_messages import (
    Ack,
    Hello,
    Owner,
    Pong,
    Resume,
    ServerMessage,
    UserBrief,
    Watchers,
    error_message,
    event_text,
    lobby_text,
    message_text,
)
from meeple.web.services import Services
from meeple.web.socket_caps import SocketTicket

log = logging.getLogger(__name__)

router = APIRouter()

POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013
"""The close code of a socket refused for now (its client may try again later)."""

SESSION_RECHECK_S = 5.0
"""How long a socket acts on a session checked once, before checking it again."""


class TableConnection:
    """One client's connection to one table: what it has been sent, what it may see."""

    def __init__(
        self,
        websocket: WebSocket,
        services: Services,
        table: Table,
        user: User | None,
        session: str | None,
    ):
        """``session``: the token hash of the session that ``user`` was found by."""
        self.websocket, self.services, self.table, self.user = websocket, services, table, user
        self.sent_version = 0
        self.sent_presence: tuple[int, list[int]] | None = None
        self.pointed_at_owner = False
        """Whether the client was told where the table's owner is (once per connection)."""
        self._session_checked_at = time.monotonic()
        self._session = session
        self._send_lock = asyncio.Lock()
        # One stream of table messages at a time (hello, resume, events), so a
        # resend asked for with "sync" never interleaves with live events.
        self._stream_lock = asyncio.Lock()

    async def signed_in_user(self) -> User | None:
        """The connection's user, while its session is still open.

        The session is looked up again at most every few seconds, so a socket
        opened before signing out (or a password change) stops acting soon
        after, without a store query for every message.
        """
        if self.user is None:
            return None
        now = time.monotonic()
        if now - self._session_checked_at >= SESSION_RECHECK_S:
            self._session_checked_at = now
            session = self._session
            checks = self.services.session_checks
            # A verdict half a recheck old is fresh enough: sockets share one query.
            if session is None or not await checks.still_open(session, SESSION_RECHECK_S / 2):
                self.user = None
        return self.user

    @property
    def seat(self) -> int | None:
        """The client's seat now (``None``: watching)."""
        return None if self.user is None else self.table.snap.seat_of(self.user.id)

    async def send(self, message: ServerMessage) -> None:
        """Send one message (one sender at a time)."""
        await self.send_text(message_text(message))

    async def send_text(self, text: str) -> None:
        """Send one message already written as JSON text (one sender at a time)."""
        async with self._send_lock:
            await self.websocket.send_text(text)

    async def error(self, refusal: TableError, client_id: str | None = None) -> None:
        """Refuse something (code, English message, reason and params); the connection stays."""
        await self.send(error_message(refusal, client_id))

    async def hello(self) -> None:
        """The table now: summary, the client's seat and view, the current version."""
        async with self._stream_lock:
            await self._hello()

    async def _hello(self) -> None:
        table, seat = self.table, self.seat
        version = table.snap.version
        self.sent_version = version
        self.sent_presence = self.services.presence.presence(table)
        user = self.user
        await self.send(
            Hello(
                type="hello",
                version=version,
                seat=seat,
                user=None
                if user is None
                else UserBrief(id=user.id, name=user.name, guest=user.guest),
                table=TableSummary.model_validate(table.summary()),
                view=table.view_at(version, seat),
                invite_url=invite_url(table) if is_member(table, user_id_of(user)) else None,
            )
        )

    async def resume(self, since: int) -> None:
        """Exactly the events after ``since``, or a fresh hello if ``since`` is not usable."""
        async with self._stream_lock:
            if not 0 < since <= self.table.snap.version:
                await self._hello()
                return
            resume = {"type": "resume", "from": since, "to": self.table.snap.version}
            await self.send(Resume.model_validate(resume))
            self.sent_version = since
            await self._send_new_events()

    async def send_new_events(self) -> None:
        """Send every event after the last one sent, each with this client's view after it."""
        async with self._stream_lock:
            await self._send_new_events()

    async def _send_new_events(self) -> None:
        table = self.table
        while self.sent_version < table.snap.version:
            event = table.events[self.sent_version]
            text = event_text(table, event, self.seat)
            self.sent_version = event.version
            await self.send_text(text)

    async def relay_announced(self, subscription: Subscription) -> None:
        """Push the table's events as the bus announces them (catching up from the store)."""
        while True:
            announced = await subscription.get()
            if announced.get("type") == "watchers":
                await self._heard_watchers(announced)
                continue
            if announced.get("version", 0) > self.table.snap.version:
                await self.table.heard(announced)
            await self.signed_in_user()  # a signed-out socket gets a spectator's views
            await self.send_new_events()

    async def _heard_watchers(self, announced: dict[str, Any]) -> None:
        """Connections came or went (here or on another server): pass on what changed.

        A server posts its news at most once per short interval (:mod:`meeple.web.presence`),
        so each socket sends at most one ``watchers`` per interval and server.
        """
        presence = self.services.presence
        if presence.heard(self.table, announced):
            # A server just seeing this table's first connection does not know ours yet:
            # the first of our connections to hear it answers for this server.
            presence.announce(self.table)
        spectators, present = presence.presence(self.table)
        if (spectators, present) != self.sent_presence:  # only news, not a repeat
            self.sent_presence = (spectators, present)
            await self.send(Watchers(type="watchers", spectators=spectators, present=present))

    async def read(self) -> None:
        """Handle the client's messages until it goes away; each is answered, none drops it."""
        limit = self.services.settings.max_message_bytes
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                await self.error(TableError("bad_json", "messages are JSON text, not binary"))
                continue
            if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
                too_big = f"a message has at most {limit} bytes"
                await self.error(TableError("too_big", too_big, params={"limit": limit}))
                continue
            try:
                data = loads_strict(text)
            except BadInput as exc:
                await self.error(TableError(exc.code, exc.message))
                continue
            client_id = echo_id(data)
            try:
                await self.handle(read_message(data))
            except TableError as exc:
                await self.error(exc, client_id)
            except (WebSocketDisconnect, OSError):
                raise  # the client went away while being answered: nothing failed here
            except Exception:
                if self.websocket.application_state == WebSocketState.DISCONNECTED:
                    raise  # the same, as Starlette says it when the answer finds the socket shut
                log.exception("table %s: handling %r failed", self.table.info.id, data.get("type"))
                failed = TableError("server_error", "the server failed on that message")
                await self.error(failed, client_id)

    async def handle(self, message: ClientMessage) -> None:
        """One checked client message, by kind."""
        if isinstance(message, Ping):
            await self.send(Pong(type="pong"))
            return
        if isinstance(message, Sync):
            await self.resume(message.since)
            return
        user = await self.signed_in_user()
        if user is None:
            raise TableError("sign_in", "sign in (or play as a guest) to do that")
        client_id = message.id
        if isinstance(message, Action):
            version, duplicate = await self.services.tables.writes.act(
                self.table, user.id, client_id, message.action, message.seat
            )
            await self.send(Ack(type="ack", id=client_id, version=version, duplicate=duplicate))
        elif isinstance(message, Chat):
            version = await self.services.tables.writes.chat(
                self.table, user.id, user.name, message.text
            )
            await self.send(Ack(type="ack", id=client_id, version=version))
        elif isinstance(message, Rematch):
            rematch_id = await self.services.tables.writes.ask_rematch(self.table, user.id)
            await self.send(Ack(type="ack", id=client_id, rematch_id=rematch_id))
        elif isinstance(message, Leave):
            await self.services.tables.writes.leave(self.table, user.id)
            await self.send(Ack(type="ack", id=client_id, version=self.table.snap.version))
        await self.point_at_owner()

    async def point_at_owner(self) -> None:
        """After a write another server ran (and answered, so it is alive), tell the client
        where that server is: connected there, its actions skip the forwarding."""
        if self.pointed_at_owner:
            return
        address = self.services.tables.owner_address(self.table)
        if address is None:
            return
        self.pointed_at_owner = True
        url = "ws" + address.removeprefix("http") + f"/ws/tables/{self.table.info.id}"
        await self.send(Owner(type="owner", url=url))


async def table_socket(
    websocket: WebSocket, table_id: str, since: int | None = None, invite: str | None = None
) -> None:
    """Play or watch one table: hello (or the missed events), then one message per event."""
    services: Services = websocket.app.state.services
    session = session_of_cookie(services, websocket.cookies.get(SESSION_COOKIE))
    # Asked together with the other sockets opening now (a server's players reconnecting).
    user = None if session is None else await services.session_checks.user_of(session)
    if user is not None and user.bot:
        # A bot account plays through the Bot API only: its socket watches, as anyone's may.
        user, session = None, None
    await websocket.accept()
    ticket = await take_place(websocket, services, user_id_of(user))
    if ticket is None:
        return
    try:
        await _table_socket(websocket, services, table_id, since, invite, user, session)
    finally:
        services.socket_caps.give_back(ticket)


async def take_place(
    websocket: WebSocket, services: Services, user_id: int | None
) -> SocketTicket | None:
    """Count an accepted socket against its address's and user's caps, or refuse it: an
    ``error`` coded ``too_many_sockets``, then a close with code 1013 (try again later)."""
    try:
        return services.socket_caps.take(client_address(websocket), user_id)
    except TableError as refusal:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):  # already gone
            await websocket.send_text(message_text(error_message(refusal)))
            await websocket.close(TRY_AGAIN_LATER, refusal.message)
        return None


async def _table_socket(
    websocket: WebSocket,
    services: Services,
    table_id: str,
    since: int | None,
    invite: str | None,
    user: User | None,
    session: str | None,
) -> None:
    """The table socket once it holds its place under the caps."""
    if not same_origin(websocket.headers):  # the cookie came along from any site
        await websocket.close(POLICY_VIOLATION, "connect from this site's own pages")
        return
    try:
        table = await services.tables.get(table_id)
    except TableError:
        await websocket.close(POLICY_VIOLATION, "there is no such table")
        return
    if not may_reach(table, user_id_of(user), invite):
        await websocket.close(POLICY_VIOLATION, "there is no such table")
        return
    subscription = await services.bus.subscribe(channel(table_id))
    connection = TableConnection(websocket, services, table, user, session)
    first_here = not table.viewers
    table.viewers[id(connection)] = None if user is None else user.id
    # Not waited for: presence news, and a socket opening in a rush (a dead server's players
    # reconnecting) waited most of a second for Redis to take it.
    services.presence.changed(table, first=first_here)
    tasks: list[asyncio.Task[None]] = []
    try:
        if since is None:
            await connection.hello()
        else:
            await connection.resume(since)
        tasks = [
            asyncio.create_task(connection.read()),
            asyncio.create_task(connection.relay_announced(subscription)),
        ]
        done, _pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                exc = task.exception()
                if not isinstance(exc, WebSocketDisconnect | RuntimeError | OSError):
                    log.error("table socket %s failed: %r", table_id, exc)
    except WebSocketDisconnect:
        pass
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        table.viewers.pop(id(connection), None)
        await subscription.close()
        with contextlib.suppress(Exception):  # the bus may be closing with the server
            services.presence.changed(table)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket, game: str | None = None) -> None:
    """The open public tables now, then every change as it happens."""
    services: Services = websocket.app.state.services
    await websocket.accept()
    ticket = await take_place(websocket, services, None)
    if ticket is None:
        return
    try:
        subscription = await services.bus.subscribe(LOBBY_CHANNEL)
    except BaseException:
        services.socket_caps.give_back(ticket)
        raise
    try:
        tables = await services.tables.lobby(game)
        await websocket.send_text(lobby_text(tables, {"type": "lobby", "tables": tables}))
        receiver = asyncio.create_task(_drain(websocket))
        while not receiver.done():
            getter = asyncio.create_task(subscription.get())
            done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break
            update = getter.result()
            if game is None or update.get("table", {}).get("game", game) == game:
                await websocket.send_text(lobby_text(update, update))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        services.socket_caps.give_back(ticket)
        await subscription.close()


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what a lobby client sends, until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
