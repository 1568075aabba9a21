"""The WebSockets: one per table and client (play, watch, chat), and the live lobby.

Every message is a JSON object with a ``type``; docs/protocol.md lists them
all with examples. What a client receives about the game is only ever its
own seat's view (a spectator's view if it has no seat) and the public events:
the table's feed (:mod:`meeple.web.feed`), which the game stream sends too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from meeple.bus import Subscription
from meeple.errors import Code, TableError
from meeple.store.models import User
from meeple.tables.facade import LOBBY_CHANNEL, Table, commands, may_reach
from meeple.web.cross_site import same_origin
from meeple.web.deps import client_address, session_of_cookie
from meeple.web.feed import Follower
from meeple.web.inputs import BadInput, loads_strict
from meeple.web.ndjson import Line
from meeple.web.protocol import (
    Action,
    Chat,
    ClientMessage,
    Leave,
    Ping,
    Rematch,
    Sync,
    Takeback,
    echo_id,
    read_message,
)
from meeple.web.routes.tables import user_id_of
from meeple.web.security import SESSION_COOKIE
from meeple.web.server_messages import (
    Ack,
    Owner,
    Pong,
    ServerMessage,
    action_ack_text,
    error_message,
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


class TableConnection(Follower):
    """One client's connection to one table: the table's feed as socket messages, and the
    client's messages to the table."""

    def __init__(
        self,
        websocket: WebSocket,
        services: Services,
        table: Table,
        user: User | None,
        session: str | None,
    ):
        """``session``: the token hash of the session that ``user`` was found by."""
        super().__init__(services, table, user)
        self.websocket = websocket
        self.pointed_at_owner = False
        """Whether the client was told where the table's owner is (once per connection)."""
        self._session_checked_at = time.monotonic()
        self._session = session
        self._send_lock = asyncio.Lock()

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

    async def check_user(self) -> None:
        """A signed-out socket gets a spectator's views (:meth:`signed_in_user`)."""
        await self.signed_in_user()

    async def send_line(self, line: Line) -> None:
        """Send one line of the table's feed, as a text message."""
        await self.send_text(line.text)

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

    async def read(self) -> None:
        """Handle the client's messages until it goes away; each is answered, none drops it."""
        limit = self.services.settings.max_message_bytes
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                await self.error(Code.BAD_JSON.error())
                continue
            if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
                await self.error(Code.TOO_BIG.error(limit=limit))
                continue
            try:
                data = loads_strict(text)
            except BadInput as exc:
                await self.error(Code.BAD_JSON.error(exc.message))
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
                failed = Code.SERVER_ERROR.error()
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
            raise Code.SIGN_IN.error("sign in (or play as a guest) to do that")
        client_id = message.id
        writes = self.services.tables.writes
        if isinstance(message, Action):
            act = commands.Act(user.id, client_id, message.action, message.seat)
            version, duplicate = await writes.run(self.table, act)
            # The event first, then the ack, in this turn of the loop: one write for both
            # (web/joined_writes), where the feed would send the event in a later turn.
            await self.send_new_events()
            await self.send_text(action_ack_text(client_id, version, duplicate))
        elif isinstance(message, Chat):
            version = await writes.run(self.table, commands.Chat(user.id, user.name, message.text))
            await self.send(Ack(type="ack", id=client_id, version=version))
        elif isinstance(message, Rematch):
            rematch_id = await writes.run(self.table, commands.AskRematch(user.id))
            await self.send(Ack(type="ack", id=client_id, rematch_id=rematch_id))
        elif isinstance(message, Leave):
            await writes.run(self.table, commands.Leave(user.id))
            await self.send(Ack(type="ack", id=client_id, version=self.table.snap.version))
        elif isinstance(message, Takeback):
            version = await writes.run(self.table, commands.Takeback(user.id, message.answer))
            await self.send(Ack(type="ack", id=client_id, version=version))
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
        with services.metrics.connected("table_socket"):
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
    connection = TableConnection(websocket, services, table, user, session)
    async with connection.watching() as subscription:
        tasks: list[asyncio.Task[None]] = []
        try:
            await connection.resume(since)
            tasks = [
                asyncio.create_task(connection.read()),
                asyncio.create_task(connection.follow(subscription)),
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
        with services.metrics.connected("lobby_socket"):
            await _lobby(websocket, services, subscription, game)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        services.socket_caps.give_back(ticket)
        await subscription.close()


async def _lobby(
    websocket: WebSocket, services: Services, subscription: Subscription, game: str | None
) -> None:
    """Send the lobby, then every change of it, until the client goes."""
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


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what a lobby client sends, until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
