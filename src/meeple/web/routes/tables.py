"""Tables: the lobby, creating, joining, leaving, starting, acting, chat, rematch, quick play."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query

from meeple.store.models import User
from meeple.tables.facade import (
    FINISHED,
    LOBBY_PAGE,
    Table,
    TableSpec,
    check_reach,
    commands,
    is_member,
    is_quick_play,
    refuse_bot_account,
)
from meeple.web.api_limits import ApiPlayer
from meeple.web.deps import CurrentUser, OptionalUser, ServicesDep, is_bot_account
from meeple.web.schemas import (
    ERRORS,
    ActionIn,
    ActionOut,
    ChatIn,
    JoinIn,
    QuickPlayIn,
    RematchOut,
    SeatIn,
    TableCreate,
    TableOut,
    TableSummary,
)
from meeple.web.server_messages import EventOut

router = APIRouter(prefix="/api", tags=["tables"], responses=ERRORS)


def invite_url(table: Table) -> str:
    """The link that lets anyone holding it take a free seat or watch."""
    return f"/tables/{table.info.id}?invite={table.info.invite_token}"


def user_id_of(user: User | None) -> int | None:
    """The user's id, or ``None`` for nobody signed in."""
    return None if user is None else user.id


def table_out(table: Table, user: User | None) -> TableOut:
    """The table's summary, with the invite link for its members."""
    return TableOut(
        table=TableSummary.model_validate(table.summary()),
        invite_url=invite_url(table) if is_member(table, user_id_of(user)) else None,
    )


async def find(services: Any, table_id: str, user: User | None, invite: str | None) -> Table:
    """The table, if this user may reach it (else 404)."""
    table: Table = await services.tables.get(table_id)
    check_reach(table, user_id_of(user), invite)
    return table


@router.get("/tables", response_model=list[TableSummary])
async def lobby(
    services: ServicesDep,
    game: str | None = None,
    status: Literal["open", "playing"] = Query(
        "open", description="open: waiting for players; playing: games to watch"
    ),
    before: str | None = Query(
        None,
        max_length=24,
        description="the next page: the id of the last table of the page before (404"
        " no_table if there is none)",
    ),
    limit: int = Query(LOBBY_PAGE, ge=1, le=LOBBY_PAGE, description="tables in the page"),
) -> list[dict[str, Any]]:
    """The public tables waiting for players (live: ``/ws/lobby``), or those being played,
    newest first, a page at a time: a full page may have older tables after it."""
    tables: list[dict[str, Any]] = await services.tables.lobby(game, status, before, limit)
    return tables


@router.post("/tables", status_code=201, response_model=TableOut)
async def create_table(body: TableCreate, services: ServicesDep, user: CurrentUser) -> TableOut:
    """Open a table: game, seats, bots, options, private or public, rated, pace and clock."""
    await services.limits.hit("tables", str(user.id))
    spec = TableSpec(
        game=body.game,
        seats=body.seats,
        bots=dict(body.bots),
        options=body.options,
        private=body.private,
        rated=body.rated,
        pace=body.pace,
        move_seconds=body.move_seconds,
        sit=body.sit,
        creator_seat=body.seat,
    )
    table = await services.tables.create(user.id, user.name, spec)
    return table_out(table, user)


@router.post("/quickplay", response_model=TableOut)
async def quick_play(body: QuickPlayIn, services: ServicesDep, user: CurrentUser) -> TableOut:
    """Seat me at an open quick-play table of this game, or open one; it starts once full
    (people only: a bot account is answered 403 ``bot_quick_play``)."""
    refuse_bot_account(is_bot_account(user))
    table = await services.tables.quick_play(user.id, user.name, body.game)
    return table_out(table, user)


@router.get("/tables/{table_id}", response_model=TableOut)
async def get_table(
    table_id: str, services: ServicesDep, user: OptionalUser, invite: str | None = None
) -> TableOut:
    """A table's public summary (a private one needs its invite token or a seat)."""
    table = await find(services, table_id, user, invite)
    return table_out(table, user)


@router.get("/tables/{table_id}/events", response_model=list[EventOut])
async def table_events(
    table_id: str,
    services: ServicesDep,
    user: OptionalUser,
    since: int = Query(0, ge=0),
    invite: str | None = None,
) -> list[EventOut]:
    """The table's public events after version ``since`` (the WebSocket pushes them live);
    to a player, the spectators' chat only once the game is over."""
    table = await find(services, table_id, user, invite)
    seat = None if user is None else table.snap.seat_of(user.id)
    over = table.snap.status == FINISHED
    return [EventOut.of(event, event.kept_from(seat, over)) for event in table.events[since:]]


@router.post("/tables/{table_id}/join", response_model=TableOut)
async def join(table_id: str, body: JoinIn, services: ServicesDep, user: CurrentUser) -> TableOut:
    """Take a seat (a free one unless ``seat`` is given; a bot account not at a quick-play
    table)."""
    table = await find(services, table_id, user, body.invite)
    if is_quick_play(table.info) and table.snap.seat_of(user.id) is None:
        refuse_bot_account(is_bot_account(user))
    await services.tables.writes.run(table, commands.Join(user.id, user.name, body.seat))
    return table_out(table, user)


@router.post("/tables/{table_id}/leave", response_model=TableOut)
async def leave(table_id: str, services: ServicesDep, user: ApiPlayer) -> TableOut:
    """Leave: before the start the seat is freed; during the game a bot takes it (ranked last)."""
    table = await find(services, table_id, user, None)
    await services.tables.writes.run(table, commands.Leave(user.id))
    return table_out(table, user)


@router.post("/tables/{table_id}/kick", response_model=TableOut)
async def kick(table_id: str, body: SeatIn, services: ServicesDep, user: CurrentUser) -> TableOut:
    """The creator removes a seated player before the start."""
    table = await find(services, table_id, user, None)
    await services.tables.writes.run(table, commands.Kick(user.id, body.seat))
    return table_out(table, user)


@router.post("/tables/{table_id}/bots", response_model=TableOut)
async def fill_with_bots(table_id: str, services: ServicesDep, user: CurrentUser) -> TableOut:
    """The table's creator, seated, has bots take the free seats now (a quick-play table then
    starts); anyone else gets a 403 ``not_creator``."""
    table = await find(services, table_id, user, None)
    await services.tables.writes.run(table, commands.FillWithBots(user.id))
    return table_out(table, user)


@router.post("/tables/{table_id}/start", response_model=TableOut)
async def start(table_id: str, services: ServicesDep, user: CurrentUser) -> TableOut:
    """The creator starts the game once every seat is taken."""
    table = await find(services, table_id, user, None)
    await services.tables.writes.run(table, commands.Start(user.id))
    return table_out(table, user)


@router.post("/tables/{table_id}/close", response_model=TableOut)
async def close(table_id: str, services: ServicesDep, user: CurrentUser) -> TableOut:
    """The creator closes a table that has not started."""
    table = await find(services, table_id, user, None)
    await services.tables.writes.run(table, commands.Close(user.id))
    return table_out(table, user)


@router.post("/tables/{table_id}/actions", response_model=ActionOut)
async def act(table_id: str, body: ActionIn, services: ServicesDep, user: ApiPlayer) -> ActionOut:
    """Play an action (the same as the WebSocket's ``action`` message, for turn-based play)."""
    table = await find(services, table_id, user, None)
    act = commands.Act(user.id, body.id, body.action, body.seat)
    version, duplicate = await services.tables.writes.run(table, act)
    return ActionOut(version=version, duplicate=duplicate)


@router.post("/tables/{table_id}/chat", response_model=ActionOut)
async def chat(
    table_id: str, body: ChatIn, services: ServicesDep, user: ApiPlayer, invite: str | None = None
) -> ActionOut:
    """Say something at the table (stored raw; whoever displays it escapes it)."""
    table = await find(services, table_id, user, invite)
    version = await services.tables.writes.run(table, commands.Chat(user.id, user.name, body.text))
    return ActionOut(version=version, duplicate=False)


@router.post("/tables/{table_id}/rematch", response_model=RematchOut)
async def rematch(table_id: str, services: ServicesDep, user: CurrentUser) -> RematchOut:
    """Ask for a rematch; once every player has, the new table opens and starts."""
    table = await find(services, table_id, user, None)
    rematch_id = await services.tables.writes.run(table, commands.AskRematch(user.id))
    return RematchOut(rematch_id=rematch_id)
