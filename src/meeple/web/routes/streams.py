"""The Bot API's two NDJSON streams: the account's events, and one game as its seat sees it.

``GET /api/stream/events``: a ``game_start`` line per running game the account
sits at and a ``challenge`` line per open challenge, then every message of the
account's bus channel (:mod:`meeple.tables.user_events`). ``GET
/api/stream/game/{table_id}``: the socket's ``hello`` (or, with ``since``, its
``resume`` and the events after), then every event, chat line and presence
change, each the same JSON as the socket's message with ``legal`` added when
the stream's seat must act (docs/bot-api.md). Both end once the token (or the
session) that opened them is revoked, and are framed by :mod:`meeple.web.ndjson`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from meeple.games.base import AnyGame
from meeple.jsontext import dumps
from meeple.store.challenges import open_challenges_of
from meeple.store.models import User
from meeple.store.user_games import playing_seats
from meeple.tables.access import check_reach, is_member
from meeple.tables.challenges import challenge_json
from meeple.tables.errors import TableError
from meeple.tables.log import PLAYING
from meeple.tables.table import Table, channel
from meeple.tables.user_events import user_channel
from meeple.web.api_limits import api_key
from meeple.web.deps import (
    ServicesDep,
    is_bot_account,
    require_scope,
    session_of_cookie,
    token_of,
    token_still_valid,
)
from meeple.web.ndjson import LineStream, NdjsonResponse
from meeple.web.routes.tables import invite_url
from meeple.web.schemas import ERRORS, TableSummary
from meeple.web.security import SESSION_COOKIE
from meeple.web.server_messages import Hello, Resume, UserBrief, Watchers, event_text, message_text
from meeple.web.services import Services

router = APIRouter(prefix="/api/stream", tags=["bot api"], responses=ERRORS)

BotPlayer = Annotated[User, Depends(require_scope("bot:play"))]
"""The signed-in account, by a token holding ``bot:play`` or the session cookie."""

STREAM_DOC: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/x-ndjson": {}}, "description": "NDJSON lines"}
}


@dataclass
class Holder:
    """Who holds a stream: the key its count and limits go by, and whether it still may."""

    key: str
    still_valid: Callable[[], Awaitable[bool]]
    every_s: float
    """How often :meth:`revoked` asks :attr:`still_valid` again."""
    checked_at: float = field(default_factory=time.monotonic)

    async def revoked(self) -> bool:
        """Whether the token (or session) is gone, asked at most every :attr:`every_s`
        whether the stream is busy or quiet."""
        now = time.monotonic()
        if now - self.checked_at < self.every_s:
            return False
        self.checked_at = now
        return not await self.still_valid()


def holder_of(request: Request, services: Services, user: User) -> Holder:
    """The stream's holder: its token if it came with one, else the account's session."""
    token = token_of(request)
    recheck_s = services.settings.stream_recheck_s
    if token is not None:
        token_id = token.id
        return Holder(
            api_key(request, user), lambda: token_still_valid(services, token_id), recheck_s
        )
    session = session_of_cookie(services, request.cookies.get(SESSION_COOKIE))

    async def session_open() -> bool:
        # A verdict half a recheck old is fresh enough: streams share one query.
        checks = services.session_checks
        return session is not None and await checks.still_open(session, recheck_s / 2)

    return Holder(api_key(request, user), session_open, recheck_s)


async def open_stream(
    request: Request,
    services: Services,
    user: User,
    producer: Callable[[LineStream, Holder], Awaitable[None]],
) -> Response:
    """Count the stream against its holder's limits, then stream what ``producer`` puts."""
    holder = holder_of(request, services, user)
    await services.limits.hit("api", holder.key)
    settings = services.settings
    if not services.streams.open(holder.key, settings.max_streams_per_token):
        cap = settings.max_streams_per_token
        raise TableError(
            "too_many_streams",
            f"at most {cap} streams may be open at once per token",
            params={"limit": cap},
        )

    async def produce(stream: LineStream) -> None:
        await producer(stream, holder)

    return NdjsonResponse(
        produce,
        buffer=settings.stream_buffer,
        keepalive_s=settings.stream_keepalive_s,
        on_close=lambda: services.streams.close(holder.key),
    )


async def next_or_none(subscription: Any, wait_s: float) -> dict[str, Any] | None:
    """The subscription's next message, or ``None`` after ``wait_s`` of quiet."""
    try:
        async with asyncio.timeout(wait_s):  # not wait_for, which may swallow a cancellation
            message: dict[str, Any] = await subscription.get()
    except TimeoutError:
        return None
    return message


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

    async def produce(stream: LineStream, holder: Holder) -> None:
        # Subscribed before the first lines are read, so nothing falls between them.
        subscription = await services.bus.subscribe(user_channel(user.id))
        online = is_bot_account(user)
        try:
            if online:
                await services.online_bots.connected(user, accept=games)
            now = services.clock.now()
            for table_id, game, seat in await services.db.run(playing_seats, user.id):
                stream.put({"type": "game_start", "table_id": table_id, "game": game, "seat": seat})
            for row in await services.db.run(open_challenges_of, user.id, now):
                stream.put({"type": "challenge", "challenge": challenge_json(row, now)})
            recheck_s = services.settings.stream_recheck_s
            while not await holder.revoked():
                line = await next_or_none(subscription, recheck_s)
                if line is not None:
                    stream.put(line)
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

    async def produce(stream: LineStream, holder: Holder) -> None:
        await GameFeed(services, table, user, stream).run(since, holder)

    return await open_stream(request, services, user, produce)


def legal_text(game: AnyGame, state: Any, seat: int) -> str:
    """Every legal action of ``seat`` in ``state``, in the game's JSON form, as JSON text."""
    return dumps([game.action_json(action) for action in game.legal_actions(state, seat)])


class GameFeed:
    """One game stream: what its client was sent, and the seat it sees the table from."""

    def __init__(self, services: Services, table: Table, user: User, stream: LineStream) -> None:
        self.services, self.table, self.user, self.stream = services, table, user, stream
        self.sent_version = 0
        self.sent_presence: tuple[int, list[int]] | None = None

    @property
    def seat(self) -> int | None:
        """The account's seat now (``None``: watching)."""
        return self.table.snap.seat_of(self.user.id)

    async def run(self, since: int | None, holder: Holder) -> None:
        """Stream until the holder may no longer (the bus and presence as a socket's)."""
        table, services = self.table, self.services
        subscription = await services.bus.subscribe(channel(table.info.id))
        first_here = not table.viewers
        table.viewers[id(self)] = self.user.id
        services.presence.changed(table, first=first_here)
        try:
            if since is None or not 0 < since <= table.snap.version:
                await self.hello()
            else:
                resume = {"type": "resume", "from": since, "to": table.snap.version}
                self.stream.put(message_text(Resume.model_validate(resume)))
                self.sent_version = since
                await self.send_new_events()
            recheck_s = services.settings.stream_recheck_s
            while not await holder.revoked():
                announced = await next_or_none(subscription, recheck_s)
                if announced is None:
                    continue
                if announced.get("type") == "watchers":
                    self.heard_watchers(announced)
                else:
                    if announced.get("version", 0) > table.snap.version:
                        await table.heard(announced)
                    await self.send_new_events()
        finally:
            table.viewers.pop(id(self), None)
            await subscription.close()
            with contextlib.suppress(Exception):  # the bus may be closing with the server
                services.presence.changed(table)

    async def legal(self, version: int) -> str | None:
        """The seat's legal actions (as JSON text) if it must act just after ``version``, the
        newest. Listed in a worker thread: a position may have thousands of moves."""
        table, seat = self.table, self.seat
        snap = table.snap
        if version != snap.version or snap.status != PLAYING or seat is None:
            return None
        if snap.seats[seat].zombie or seat not in table.game.to_act(snap.state):
            return None
        return await asyncio.to_thread(legal_text, table.game, snap.state, seat)

    async def put(self, text: str, version: int) -> None:
        """Queue one message's text, with ``legal`` when the seat must act after it."""
        legal = await self.legal(version)
        if legal is not None:
            text = text[:-1] + ',"legal":' + legal + "}"
        self.stream.put(text)

    async def hello(self) -> None:
        """The table now, as the seat sees it (the socket's ``hello``)."""
        table, seat, user = self.table, self.seat, self.user
        version = table.snap.version
        self.sent_version = version
        self.sent_presence = self.services.presence.presence(table)
        hello = Hello(
            type="hello",
            version=version,
            seat=seat,
            user=UserBrief(id=user.id, name=user.name, guest=user.guest),
            table=TableSummary.model_validate(table.summary()),
            view=table.view_at(version, seat),
            invite_url=invite_url(table) if is_member(table, user.id) else None,
        )
        await self.put(message_text(hello), version)

    async def send_new_events(self) -> None:
        """Every event after the last one sent, each with the seat's view after it."""
        table = self.table
        while self.sent_version < table.snap.version:
            event = table.events[self.sent_version]
            self.sent_version = event.version
            await self.put(event_text(table, event, self.seat), event.version)

    def heard_watchers(self, announced: dict[str, Any]) -> None:
        """Connections came or went (here or elsewhere): pass on what changed."""
        presence = self.services.presence
        if presence.heard(self.table, announced):
            presence.announce(self.table)
        spectators, present = presence.presence(self.table)
        if (spectators, present) != self.sent_presence:
            self.sent_presence = (spectators, present)
            watchers = Watchers(type="watchers", spectators=spectators, present=present)
            self.stream.put(message_text(watchers))
