"""Opening tables and finding them: creation, rematches, quick-play tables and the lobby.

A new table is leased before it is stored (:meth:`Cluster.open`), so no other
server ever sees it stored without an owner; once stored, its owner publishes
:class:`~meeple.tables.facts.TableOpened`. The lobby's lists are served from
:class:`~meeple.tables.lobby.lobby.LobbyCache`, dropped on any server's lobby news
(the bus channel :data:`~meeple.tables.lobby.lobby.LOBBY_CHANNEL`).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace

from sqlalchemy.orm import Session

from meeple.bus import Bus
from meeple.bus.base import Subscription
from meeple.errors import Code
from meeple.games.base import JSON
from meeple.store import queries, table_lists
from meeple.store.database import Database
from meeple.store.models import TableSeat
from meeple.tables.clock import Clock
from meeple.tables.cluster.cluster import Cluster
from meeple.tables.cluster.registry import TableRegistry
from meeple.tables.core.bot_accounts import mark_bot_accounts
from meeple.tables.core.log import OPEN, LogEvent, SeatInfo
from meeple.tables.core.persist import seat_row
from meeple.tables.core.spec import CheckedSpec, TableSpec, check_spec
from meeple.tables.core.table import Table, TableInfo, channel, reset_for_rematch
from meeple.tables.facts import TableFacts, TableOpened
from meeple.tables.lobby.lobby import LOBBY_PAGE, LobbyCache


def new_table_id() -> str:
    """A fresh, unguessable table id."""
    return secrets.token_urlsafe(9)


def is_quick_play(info: TableInfo) -> bool:
    """Whether a table is a public quick-play one (it starts by itself once full)."""
    return info.auto_start and not info.private


def refuse_bot_account(bot_account: bool) -> None:
    """Quick play is for people: a bot account entering it is refused (``bot_quick_play``,
    HTTP 403). Bots meet people through challenges and the tables people open."""
    if bot_account:
        raise Code.BOT_QUICK_PLAY.error()


class Matchmaking:
    """Opens tables (new, rematch, an accepted challenge's, quick play's) and lists the lobby."""

    def __init__(
        self,
        db: Database,
        bus: Bus,
        clock: Clock,
        registry: TableRegistry,
        cluster: Cluster,
        lobby_cache: LobbyCache,
        facts: TableFacts,
    ) -> None:
        self.db, self.bus, self.clock = db, bus, clock
        self.registry, self.cluster, self.facts = registry, cluster, facts
        self.lobby_cache = lobby_cache
        """The lobby's lists, shared by every request for a second (or until lobby news)."""

    async def create(self, user_id: int, user_name: str, spec: TableSpec) -> Table:
        """Open a new table for ``spec``; the creator sits unless the spec says not."""
        checked = check_spec(spec)
        info = self._new_info(new_table_id(), spec, checked, user_id, spec.auto_start)
        seats: list[SeatInfo] = []
        for seat in range(spec.seats):
            if seat in spec.bots:
                level = spec.bots[seat]
                seats.append(SeatInfo(seat, name=f"bot ({level})", bot_level=level))
            elif seat == checked.creator_seat:
                seats.append(SeatInfo(seat, user_id=user_id, name=user_name))
            else:
                seats.append(SeatInfo(seat))
        return await self._open(info, seats)

    async def open_seated(
        self, table_id: str, creator_id: int, spec: TableSpec, players: list[tuple[int, str]]
    ) -> Table:
        """Open table ``table_id`` for ``spec`` with ``players`` (id, name) in its free seats, in
        order, and its bots: every seat is taken, so it starts at once (an accepted challenge)."""
        checked = check_spec(replace(spec, sit=False))
        free = [seat for seat in range(spec.seats) if seat not in spec.bots]
        if len(free) != len(players):
            raise Code.BAD_SEATS.error(f"{len(players)} players for {len(free)} free seats")
        info = self._new_info(table_id, spec, checked, creator_id, True)
        seated = dict(zip(free, players, strict=True))
        seats = [
            SeatInfo(seat, user_id=seated[seat][0], name=seated[seat][1])
            if seat in seated
            else SeatInfo(seat, name=f"bot ({spec.bots[seat]})", bot_level=spec.bots[seat])
            for seat in range(spec.seats)
        ]
        return await self._open(info, seats)

    def _new_info(
        self,
        table_id: str,
        spec: TableSpec,
        checked: CheckedSpec,
        creator_id: int,
        auto_start: bool,
    ) -> TableInfo:
        """A new table's fixed facts: ``spec`` as checked, a fresh seed and invite token."""
        return TableInfo(
            id=table_id,
            game=spec.game,
            options=checked.options,
            seed=secrets.randbits(62),
            seat_count=spec.seats,
            private=spec.private,
            invite_token=secrets.token_urlsafe(18),
            rated=spec.rated,
            pace=spec.pace,
            move_seconds=checked.move_seconds,
            creator_id=creator_id,
            auto_start=auto_start,
            created_at=self.clock.now(),
            tournament=spec.tournament,
        )

    async def _open(self, info: TableInfo, seats: list[SeatInfo]) -> Table:
        seats = await mark_bot_accounts(self.db, seats)
        table = Table(info, self.registry.ctx)
        data: dict[str, JSON] = {"seats": [seat.to_json() for seat in seats]}
        first = LogEvent(1, "create", None, data, info.creator_id, None, info.created_at)
        table.fold(first)
        leased = await self.cluster.open(table)
        try:
            await self.db.run(_insert_table_tx, info, table, first)
        except BaseException:
            await self.cluster.abandon(table)
            raise
        self.registry.add(table)
        await self.bus.publish(channel(info.id), first.row(info.id))
        if leased:
            # Told before it runs: a full table starts as it runs, and that comes after.
            self.facts.publish(TableOpened(table))
            await self.cluster.run_new(table)
        else:
            await table.resume()
        return table

    async def rematch(self, old: Table) -> str:
        """Open the rematch of a finished table: same seats and options, a new seed; it starts."""
        info = replace(
            old.info,
            id=new_table_id(),
            seed=secrets.randbits(62),
            invite_token=secrets.token_urlsafe(18),
            auto_start=True,
            created_at=self.clock.now(),
            rematch_of=old.info.id,
            tournament=False,  # a rematch is a game of its own
        )
        table = await self._open(info, reset_for_rematch(old.snap))
        return table.info.id

    async def lobby(self, game: str | None = None, status: str = OPEN) -> list[dict[str, JSON]]:
        """The public tables waiting for players (or, with ``status="playing"``, to watch).

        Served from :class:`LobbyCache` (shared, read-only: do not change it).
        """
        return await self.lobby_cache.get(game, status)

    async def watch_lobby(self, news: Subscription) -> None:
        """Drop the lobby's lists on any server's lobby news."""
        try:
            while True:
                await news.get()
                self.lobby_cache.changed()
        finally:
            await news.close()


async def build_lobby(
    db: Database,
    registry: TableRegistry,
    game: str | None,
    status: str,
    limit: int = LOBBY_PAGE,
    before: str | None = None,
) -> list[dict[str, JSON]]:
    """A page of the public tables of ``game`` (``None``: every game) in ``status``, newest
    first (:func:`~meeple.store.table_lists.lobby_page`); ``no_table`` if there is no table
    ``before``."""
    ids = await db.run(table_lists.lobby_page, game, status, limit, before)
    if ids is None:
        raise Code.NO_TABLE.error(f"there is no table {before!r} to page from")
    tables = await asyncio.gather(*(registry.get(table_id) for table_id in ids))
    return [table.summary() for table in tables]


def _insert_table_tx(session: Session, info: TableInfo, table: Table, first: LogEvent) -> None:
    row = info.row(OPEN)
    seats: list[TableSeat] = [seat_row(info.id, s) for s in table.snap.seats]
    queries.insert_table(session, row, seats)
    queries.append_event(session, first.row(info.id))
