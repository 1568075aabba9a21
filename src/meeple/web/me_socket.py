"""The page's socket of the signed-in account, ``/ws/me``: one per browser tab.

Every page opens it (``static/js/me_socket.js``) to keep the header live: it sends
the account's "your turn" count on connect (``{"type": "my_turns", "count": N}``),
then relays each line of the account's bus channel (:mod:`meeple.tables.notices.user_events`)
as it is: new counts, notifications, challenges. A page keeps the types it knows
and skips the others. It only sends: what the client writes is read and dropped.

It is a plain Starlette route, like the table socket (:mod:`meeple.web.reconnect_rush`),
counted under the same caps per address and account, opened only from this site's
pages (:func:`~meeple.web.cross_site.same_origin`), and closed (code 1008) for a
visitor with no session, or soon after the session ends. While it is open the account
counts as seen (``last_seen_at``, at most one write a minute: :mod:`meeple.web.last_seen`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from meeple.store.models import User
from meeple.tables.facade import my_turn_count, user_channel
from meeple.tasks import cancel_and_wait
from meeple.web.cross_site import same_origin
from meeple.web.deps import session_of_cookie
from meeple.web.last_seen import EVERY_S
from meeple.web.security import SESSION_COOKIE
from meeple.web.services import Services
from meeple.web.sockets import POLICY_VIOLATION, SESSION_RECHECK_S, take_place

log = logging.getLogger(__name__)

ME_SOCKET_PATH = "/ws/me"
"""Where a page opens its account socket."""

SEEN_EVERY_S = EVERY_S
"""How often an open socket marks its account seen (the store is written at most this often)."""


async def me_socket_route(websocket: WebSocket) -> None:
    """The account's socket: its count now, then every line of its channel."""
    services: Services = websocket.app.state.services
    session = session_of_cookie(services, websocket.cookies.get(SESSION_COOKIE))
    user = None if session is None else await services.session_checks.user_of(session)
    await websocket.accept()
    if not same_origin(websocket.headers):  # the cookie came along from any site
        await websocket.close(POLICY_VIOLATION, "connect from this site's own pages")
        return
    if user is None or session is None:
        await websocket.close(POLICY_VIOLATION, "sign in first")
        return
    ticket = await take_place(websocket, services, user.id)
    if ticket is None:
        return
    try:
        with services.metrics.connected("account_socket"):
            await _relay(websocket, services, user, session)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the tab went away
    finally:
        services.socket_caps.give_back(ticket)


async def _relay(websocket: WebSocket, services: Services, user: User, session: str) -> None:
    # Subscribed before the count is read, so a change in between is not missed.
    subscription = await services.bus.subscribe(user_channel(user.id))
    reader = asyncio.create_task(_drain(websocket))
    try:
        await services.last_seen.seen(user.id)
        count = await my_turn_count(services.db, services.tables, user.id)
        await websocket.send_text(json.dumps({"type": "my_turns", "count": count}))
        while not reader.done():
            getter = asyncio.create_task(subscription.get())
            done, _ = await asyncio.wait(
                {getter, reader}, timeout=SEEN_EVERY_S, return_when=asyncio.FIRST_COMPLETED
            )
            if getter not in done:
                getter.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await getter
            checks = services.session_checks
            if not await checks.still_open(session, SESSION_RECHECK_S / 2):
                await websocket.close(POLICY_VIOLATION, "signed out")
                return
            await services.last_seen.seen(user.id)
            if getter in done:
                await websocket.send_text(json.dumps(getter.result()))
    finally:
        await cancel_and_wait(reader)
        await subscription.close()


async def _drain(websocket: WebSocket) -> None:
    """Read (and drop) what the client sends, until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
