"""The Bot API's two NDJSON streams: the account's events, and one game as its seat sees it.

``GET /api/stream/events``: a ``game_start`` line per running game the account
sits at and a ``challenge`` line per open challenge (the newest, as many as fit:
:func:`~meeple.tables.lobby.challenges.replay_room`), then every message of the account's bus
channel (:mod:`meeple.tables.notices.user_events`). ``GET
/api/stream/game/{table_id}``: the table's feed (:mod:`meeple.web.feed`), as the socket
sends it: the ``hello`` (or, with ``since``, the ``resume`` and the events after), then
every event, chat line and presence change, each the same JSON as the socket's message
with ``legal`` added when the stream's seat must act (docs/bot-api.md). Both end once the
token (or the session) that opened them is revoked, and are framed by
:mod:`meeple.web.ndjson`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from meeple.errors import Code
from meeple.games import GAME_NAMES
from meeple.store.challenges import newest_open_challenges_of
from meeple.store.models import User
from meeple.store.user_games import playing_seats
from meeple.tables.facade import (
    OPEN,
    PLAYING,
    Table,
    challenge_json,
    check_reach,
    replay_room,
    user_channel,
)
from meeple.web.api_limits import api_key
from meeple.web.deps import (
    ServicesDep,
    client_address,
    is_bot_account,
    require_scope,
    session_of_cookie,
    token_of,
    token_still_valid,
)
from meeple.web.feed import Follower
from meeple.web.ndjson import Line, LineStream, NdjsonResponse
from meeple.web.schemas import ERRORS
from meeple.web.security import SESSION_COOKIE
from meeple.web.services import Services
from meeple.web.stream_caps import Cap

router = APIRouter(prefix="/api/stream", tags=["bot api"], responses=ERRORS)

BotPlayer = Annotated[User, Depends(require_scope("bot:play"))]
"""The signed-in account, by a token holding ``bot:play`` or the session cookie."""

STREAM_DOC: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/x-ndjson": {}}, "description": "NDJSON lines"}
}


@dataclass
class Holder:
    """Who holds a stream: the key its request limit goes by, the caps it counts against,
    and how to ask whether its token (or session) is still live."""

    key: str
    caps: list[Cap]
    still_valid: Callable[[], Awaitable[bool]]


def holder_of(request: Request, services: Services, user: User) -> Holder:
    """The stream's holder: its token if it came with one, else the account's session; its
    caps per token (if any), per account, per client address (IPv6: per /64) and per
    server (what this server's memory holds, whoever asks)."""
    settings = services.settings
    caps = [
        Cap("account", f"user:{user.id}", settings.max_streams_per_account),
        Cap("address", f"address:{client_address(request)}", settings.max_streams_per_address),
        Cap("server", f"server:{services.tables.server_id}", settings.max_streams_per_server),
    ]
    token = token_of(request)
    if token is not None:
        token_id = token.id
        caps.insert(0, Cap("token", f"token:{token_id}", settings.max_streams_per_token))
        return Holder(api_key(request, user), caps, lambda: token_still_valid(services, token_id))
    session = session_of_cookie(services, request.cookies.get(SESSION_COOKIE))

    async def session_open() -> bool:
        return session is not None and await services.session_checks.still_open(session)

    return Holder(api_key(request, user), caps, session_open)


async def open_stream(
    request: Request,
    services: Services,
    user: User,
    producer: Callable[[LineStream], Awaitable[None]],
) -> Response:
    """Count the stream against its holder's limit and caps (429 ``too_many_streams`` if one
    is full), then stream what ``producer`` puts until the client goes or the holder's token
    (or session) ends (:mod:`meeple.web.revocations`: told, not polled)."""
    holder = holder_of(request, services, user)
    await services.limits.hit("api", holder.key)
    revocations = services.revocations
    await revocations.listening()
    ticket = await services.streams.open(holder.caps)
    stream = LineStream(services.settings.stream_buffer)
    watch = revocations.watch(user.id, holder.still_valid, stream.end)

    async def closed() -> None:
        revocations.unwatch(watch)
        await services.streams.close(ticket)

    return NdjsonResponse(
        producer,
        stream=stream,
        keepalive_s=services.settings.stream_keepalive_s,
        on_close=closed,
    )


@router.get("/events", response_class=Response, responses=STREAM_DOC)
async def event_stream(
    request: Request,
    services: ServicesDep,
    user: BotPlayer,
    accept: str | None = Query(
        None, description="the games a bot takes challenges for, comma-separated (shown online)"
    ),
) -> Response:
    """The account's events: its running games and open challenges, then each as it happens."""
    games = None if accept is None else [g.strip() for g in accept.split(",") if g.strip()]
    unknown = [game for game in games or () if game not in GAME_NAMES]
    if unknown:  # shown to other players as the games the bot takes: only real names
        raise Code.UNKNOWN_GAME.error(games=", ".join(GAME_NAMES))

    async def produce(stream: LineStream) -> None:
        with services.metrics.connected("event_stream"):
            await follow_account(stream)

    async def follow_account(stream: LineStream) -> None:
        # Subscribed before the first lines are read, so nothing falls between them.
        subscription = await services.bus.subscribe(user_channel(user.id))
        online = is_bot_account(user)
        try:
            if online:
                await services.online_bots.connected(user, accept=games)
            now = services.clock.now()
            seats = await services.db.run(playing_seats, user.id)
            for table_id, game, seat in seats:
                stream.put({"type": "game_start", "table_id": table_id, "game": game, "seat": seat})
            room = replay_room(services.settings.stream_buffer, len(seats))
            for row in await services.db.run(newest_open_challenges_of, user.id, now, room):
                stream.put({"type": "challenge", "challenge": challenge_json(row, now)})
            while True:  # until the client goes, or the holder's revocation ends the stream
                stream.put(await subscription.get())
        finally:
            await subscription.close()
            if online:
                with contextlib.suppress(Exception):  # Redis may be closing with the server
                    await services.online_bots.disconnected(user)

    return await open_stream(request, services, user, produce)


@router.get("/game/{table_id}", response_class=Response, responses=STREAM_DOC)
async def game_stream(
    table_id: str,
    request: Request,
    services: ServicesDep,
    user: BotPlayer,
    since: int | None = Query(
        None, ge=0, description="the last version received: the events after it, no hello"
    ),
    invite: str | None = None,
) -> Response:
    """One table as the account's seat sees it (a spectator's view without a seat): hello,
    then every event with ``legal`` when the seat must act, chat, presence."""
    table = await services.tables.get(table_id)
    check_reach(table, user.id, invite)

    async def produce(stream: LineStream) -> None:
        with services.metrics.connected("game_stream"):
            await GameStreamClient(services, table, user, stream).run(since)

    return await open_stream(request, services, user, produce)


class GameStreamClient(Follower):
    """One game stream: the table's feed as NDJSON lines, with the seat's legal actions
    when it must act; it ends once the game is over (its last lines sent)."""

    with_legal = True

    def __init__(self, services: Services, table: Table, user: User, stream: LineStream) -> None:
        super().__init__(services, table, user)
        self.stream = stream

    async def send_line(self, line: Line) -> None:
        """Queue one line (never waits: a stream that falls behind is dropped)."""
        self.stream.put(line)

    def done(self) -> bool:
        """The game is over, or the table closed: its last lines are sent."""
        return self.table.snap.status not in (OPEN, PLAYING)

    async def run(self, since: int | None) -> None:
        """Stream until the game is over, the client goes or the stream is ended."""
        async with self.watching() as subscription:
            await self.resume(since)
            await self.follow(subscription)
