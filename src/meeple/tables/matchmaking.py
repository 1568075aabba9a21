"""Opening tables and finding them: creation, rematches, quick play and the lobby.

A new table is leased before it is stored (:meth:`Cluster.open`), so no other
server ever sees it stored without an owner. The lobby's lists are served from
:class:`~meeple.tables.lobby.LobbyCache`, dropped on any server's lobby news
(the bus channel :data:`~meeple.tables.lobby.LOBBY_CHANNEL`).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace

from sqlalchemy.orm import Session

from meeple.bus import Bus
from meeple.bus.base import Subscription
from meeple.games.base import JSON
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import TableSeat
from meeple.tables.bot_accounts import mark_bot_accounts
from meeple.tables.clock import Clock
from meeple.tables.cluster import Cluster
from meeple.tables.errors import TableError
from meeple.tables.lobby import LobbyNews
from meeple.tables.log import OPEN, LogEvent, SeatInfo
from meeple.tables.persist import seat_row
from meeple.tables.registry import TableRegistry
from meeple.tables.spec import CheckedSpec, TableSpec, check_game, check_spec
from meeple.tables.table import Table, TableInfo, channel, reset_for_rematch
from meeple.tables.writes import Writes


def new_table_id() -> str:
    """A fresh, unguessable table id."""
    return secrets.token_urlsafe(9)


class Matchmaking:
    """Opens tables (new, rematch, quick play) and keeps the lobby told."""

    def __init__(
        self,
        db: Database,
        bus: Bus,
        clock: Clock,
        registry: TableRegistry,
        cluster: Cluster,
        news: LobbyNews,
        writes: Writes,
    ) -> None:
        self.db, self.bus, self.clock = db, bus, clock
        self.registry, self.cluster, self.news, self.writes = registry, cluster, news, writes
        self.lobby_cache = news.cache
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
            raise TableError("bad_seats", f"{len(players)} players for {len(free)} free seats")
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
        await self.bus.publish(channel(info.id), first.stored())
        if leased:
            await self.cluster.run_new(table)
        else:
            await table.resume()
        await self.news.changed(table)
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
        )
        table = await self._open(info, reset_for_rematch(old.snap))
        return table.info.id

    async def quick_play(self, user_id: int, user_name: str, game: str) -> Table:
        """Seat the user at an open quick-play table of ``game``, or open one for others to join."""
        seats = check_game(game).quick_play_seats
        for row, _seats in await self.db.run(queries.open_public_tables, game):
            if not row.auto_start:
                continue
            table = await self.registry.get(row.id)
            if table.snap.seat_of(user_id) is not None:
                return table
            try:
                await self.writes.join(table, user_id, user_name, None)
            except TableError:
                continue
            return table
        return await self.create(
            user_id, user_name, TableSpec(game=game, seats=seats, auto_start=True)
        )

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
    db: Database, registry: TableRegistry, game: str | None, status: str
) -> list[dict[str, JSON]]:
    """The public tables of ``game`` (``None``: every game) in ``status``, a hundred at most."""
    rows = await db.run(queries.open_public_tables, game, 100, status)
    tables = await asyncio.gather(*(registry.get(row.id) for row, _seats in rows))
    return [table.summary() for table in tables]


def _insert_table_tx(session: Session, info: TableInfo, table: Table, first: LogEvent) -> None:
    row = info.row(OPEN)
    seats: list[TableSeat] = [seat_row(info.id, s) for s in table.snap.seats]
    queries.insert_table(session, row, seats)
    queries.append_event(session, first.row(info.id))
