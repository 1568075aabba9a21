"""A tournament's live page: ``/ws/tournaments/{id}`` (docs/protocol.md, "The tournament
socket").

On connect it sends the tournament as ``GET /api/tournaments/{id}`` answers it, with
its rounds as ``GET /api/tournaments/{id}/pairings`` does, in one message
``{"type": "tournament", "tournament": {...}, "rounds": [...]}``; then the same message
again each time the tournament changes (a join, a withdrawal, a round paired, a result,
its start or end: :mod:`meeple.tables.tournaments.news`). Changes that come within
``COALESCE_S`` of each other make one message. It only sends: what the client writes is
read and dropped.

Anyone may watch a public tournament; a private one needs its link's ``secret`` (as
the REST routes take it) or the session of its creator or an entrant. The session
cookie counts only from this site's own pages (:func:`~meeple.web.cross_site.same_origin`):
from elsewhere the socket is an anonymous visitor's. It counts under the sockets' caps
per address and account; a tournament it may not see closes it (code 1008).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from meeple.bus import Subscription
from meeple.errors import TableError
from meeple.store.models import User
from meeple.tables.facade import tournament_channel
from meeple.tasks import cancel_and_wait
from meeple.web.cross_site import same_origin
from meeple.web.deps import session_of_cookie
from meeple.web.security import SESSION_COOKIE
from meeple.web.services import Services
from meeple.web.sockets import POLICY_VIOLATION, take_place

router = APIRouter()

COALESCE_S = 0.25
"""Changes this close together are sent as one message (a round's results come in bursts)."""


async def _user_of(websocket: WebSocket, services: Services) -> User | None:
    """The signed-in account, when the socket comes from this site's own pages."""
    if not same_origin(websocket.headers):
        return None
    session = session_of_cookie(services, websocket.cookies.get(SESSION_COOKIE))
    return None if session is None else await services.session_checks.user_of(session)


async def _message(
    services: Services, user: User | None, tournament_id: str, secret: str | None
) -> str:
    """The tournament and its rounds as the REST routes answer them, in one message."""
    tournament = await services.tournaments.get(user, tournament_id, secret)
    rounds = await services.tournaments.pairings(user, tournament_id, secret)
    message: dict[str, Any] = {"type": "tournament", "tournament": tournament, "rounds": rounds}
    return json.dumps(message)


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(
    websocket: WebSocket, tournament_id: str, secret: str | None = None
) -> None:
    """The tournament now, then again at every change."""
    services: Services = websocket.app.state.services
    user = await _user_of(websocket, services)
    await websocket.accept()
    ticket = await take_place(websocket, services, None if user is None else user.id)
    if ticket is None:
        return
    subscription = await services.bus.subscribe(tournament_channel(tournament_id))
    reader = asyncio.create_task(_drain(websocket))
    try:
        try:
            first = await _message(services, user, tournament_id, secret)
        except TableError:
            await websocket.close(POLICY_VIOLATION, "there is no such tournament")
            return
        await websocket.send_text(first)
        with services.metrics.connected("tournament_socket"):
            await _follow(websocket, services, subscription, reader, user, tournament_id, secret)
    except (WebSocketDisconnect, RuntimeError, OSError, TableError):
        pass  # the page went away (or the tournament did)
    finally:
        await cancel_and_wait(reader)
        await subscription.close()
        services.socket_caps.give_back(ticket)


async def _follow(
    websocket: WebSocket,
    services: Services,
    subscription: Subscription,
    reader: asyncio.Task[None],
    user: User | None,
    tournament_id: str,
    secret: str | None,
) -> None:
    """Send the tournament again at each change, until the client goes."""
    while not reader.done():
        getter = asyncio.create_task(subscription.get())
        done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
        if getter not in done:
            await cancel_and_wait(getter)
            return
        await _skip_burst(subscription)
        await websocket.send_text(await _message(services, user, tournament_id, secret))


async def _skip_burst(subscription: Subscription) -> None:
    """Wait ``COALESCE_S``, then take the changes that came meanwhile (they make one
    message with the first)."""
    await asyncio.sleep(COALESCE_S)
    for _ in range(1000):
        try:
            await asyncio.wait_for(subscription.get(), 0.001)
        except TimeoutError:
            return


async def _drain(websocket: WebSocket) -> None:
    """Read (and drop) what the client sends, until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
