"""All the tables of a server: creating them, finding them, loading them back on start-up.

A table is loaded by replaying its stored event log (so the game state comes
from the record: game, options, seed, actions). On start-up every table that
was open or playing is loaded and resumed: clocks restart, bots move again,
and a game whose last action ended it is finished.

With servers sharing tables (Redis), each live table has one owner at a time
(:mod:`meeple.tables.owners`): only it runs the table's clocks and bots and
writes its events; the others forward writes to it (:mod:`meeple.tables.calls`)
and keep a copy for views. A watcher renews this server's leases and takes
over the live tables nobody holds (an owner that died), within a few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from typing import Any

from sqlalchemy.orm import Session

from meeple.batching import Batches
from meeple.bus import Bus
from meeple.bus.base import Subscription
from meeple.config import Settings
from meeple.games.base import JSON, GameRecord
from meeple.ratelimit import RateLimits
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.models import GameTable, TableSeat
from meeple.store.queries import StoredEvent
from meeple.tables.access import check_finished
from meeple.tables.bots import BotPool
from meeple.tables.calls import CallRouter, CallTimeout, NotOwner
from meeple.tables.clock import Clock
from meeple.tables.errors import TableError
from meeple.tables.loading import TableLoader
from meeple.tables.lobby import LobbyCache
from meeple.tables.log import CLOSED, FINISHED, OPEN, PLAYING, LogEvent
from meeple.tables.owners import Ownership, RedisLeases, SoleOwner
from meeple.tables.persist import event_from_row, event_row, seat_row
from meeple.tables.reviews import Reviewer
from meeple.tables.spec import TableSpec, check_game, check_spec
from meeple.tables.table import Table, TableContext, TableInfo, reset_for_rematch

log = logging.getLogger(__name__)

LOBBY_CHANNEL = "lobby"
"""The bus channel of lobby updates (a public table opened, changed or gone)."""


def new_table_id() -> str:
    """A fresh, unguessable table id."""
    return secrets.token_urlsafe(9)


class TableManager:
    """The server's tables, each with its single writer, sharing storage, bus, clock and bots."""

    def __init__(
        self,
        db: Database,
        bus: Bus,
        clock: Clock,
        bots: BotPool,
        settings: Settings,
        limits: RateLimits,
    ) -> None:
        self.db, self.bus, self.clock, self.settings = db, bus, clock, settings
        self.ctx = TableContext(
            db, bus, clock, bots, settings, limits, self.lobby_changed, self.rematch, self.forward
        )
        self.tables: dict[str, Table] = {}
        self.loader = TableLoader(self.db, self._loaded, _no_table)
        """Reads the tables asked for that are not in memory, together."""
        self.catch_ups: Batches[Table, list[StoredEvent]] = Batches(
            self._read_catch_ups, join_running=False
        )
        """Reads what the owners stored after this server's copies, for every copy asked
        for meanwhile together."""
        self.take_over_reads: Batches[Table, list[StoredEvent]] = Batches(
            self._read_catch_ups, join_running=False
        )
        """The same reads for the tables this server is taking over, ahead of the common
        queue and of the catch-ups (a batch of those may be waiting there)."""
        self._taking: set[str] = set()
        """Tables whose lease this server took and that it is about to run (take_orphans,
        or the ownership's keeper as the leases ran out)."""
        self._taking_over: set[asyncio.Task[None]] = set()
        """The take-overs running, of leases the ownership took as they ran out."""
        self._stopping = False
        self._owners_seen: dict[str, str] = {}
        """The owner each forwarded write last reached (asked again once it refuses or is
        silent), so a forwarded action costs no lease lookup."""
        self.forget_after_s = 600.0
        """How long a finished or closed table stays in memory with nobody at it."""
        self.shared = settings.redis is not None
        """Other servers may write to the same tables (a shared database and Redis bus)."""
        redis = getattr(bus, "redis", None)
        self.ownership: Ownership = SoleOwner()
        if settings.redis is not None and redis is not None:
            self.ownership = RedisLeases(redis, settings.lease_s, settings.redis)
        self.calls = CallRouter(bus, self.ownership.server_id, self.get, settings.public_url)
        self._watchers: list[asyncio.Task[None]] = []
        self.lobby_cache = LobbyCache(self._build_lobby)
        """The lobby's lists, shared by every request for a second (or until lobby news)."""
        self.reviewer = Reviewer(db, bots, clock, self.record, self.ownership.claim_job)
        """Reviews every finished game once, in the background."""

    @property
    def server_id(self) -> str:
        """This server's name among the servers sharing tables."""
        return self.ownership.server_id

    async def start(self) -> None:
        """Take and resume every open or playing table nobody else runs; watch the leases."""
        if self.shared:
            await self.calls.start()
        await self.take_orphans()
        self._watchers.append(asyncio.create_task(self.reviewer.catch_up()))
        if self.shared:
            lobby_news = await self.bus.subscribe(LOBBY_CHANNEL)
            self._watchers += [
                asyncio.create_task(self._renew_leases()),
                asyncio.create_task(self._watch_orphans()),
                asyncio.create_task(self._watch_lobby(lobby_news)),
            ]

    async def stop(self) -> None:
        """Stop every table's clocks and bots, and hand this server's tables over at once."""
        self._stopping = True
        for watcher in self._watchers:
            watcher.cancel()
            with contextlib.suppress(BaseException):
                await watcher
        if self.shared:
            self.ownership.watch([], self._taken)  # take no more leases
        for task in list(self._taking_over):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        await self.reviewer.stop()
        for table in list(self.tables.values()):
            await table.shutdown()
        owned = [t.info.id for t in self.tables.values() if t.owned]
        with contextlib.suppress(Exception):  # Redis may be gone already
            await self.ownership.release(owned)
        self.ownership.close()
        if self.shared:
            await self.calls.stop()

    # ----- ownership -----------------------------------------------------

    async def claim(self, table: Table) -> bool:
        """Become the table's owner if nobody is: fold what others stored, resume it."""
        if table.owned:
            return True
        if table.info.id in self._taking:
            # Leased by a take-over still reading what the last owner stored: a request for
            # this one runs it now rather than wait for the others.
            self._taking.discard(table.info.id)
            return await self._run(table)
        if not await self.ownership.acquire(table.info.id):
            return False
        return await self._run(table)

    async def _run(self, table: Table) -> bool:
        """Run a table whose lease this server just took: fold what the last owner stored,
        resume it.

        What was stored is read before the lock is taken, in one batch with every other
        table being taken over meanwhile (a take-over and the writes forwarded to a dead
        owner claim hundreds at once); the rows folded are only those newer than the copy.
        """
        if table.owned:
            return True
        stored = await self.take_over_reads.ask(table, first=True)
        async with table.lock:
            if table.owned:
                return True  # another request ran it meanwhile
            table.owned = True
            await table.fold_stored_and_announce_locked(stored or [])
        for _attempt in range(3):
            try:
                await table.resume()
            except TableError as exc:
                if exc.code != "conflict":
                    raise
                # The last owner wrote after our catch-up (its lease ran out while it was
                # still writing): the write folded that in; resume again from there.
                continue
            log.info("server %s runs table %s", self.server_id, table.info.id)
            if self.shared:
                self.calls.took_over(table.info.id)
            return True
        log.warning("server %s could not resume table %s", self.server_id, table.info.id)
        table.owned = False
        await table.runtime.stand_down()
        await self.ownership.release([table.info.id])  # another try (here or elsewhere) soon
        return False

    async def take_orphans(self) -> None:
        """Take over every open or playing table that has no owner (all of them, alone).

        The leases are taken in one Redis call, what the last owners stored is read in
        one query per hundred tables (ahead of the common queue) and the tables run
        together: a server taking over hundreds of tables from a dead one spends no round
        trip per table before it runs them.
        """
        # Read ahead of the common queue: when a server dies, its players reconnect here
        # all at once, and each socket opening reads its table.
        ids = await self.db.run_first(queries.table_ids_with_status, [OPEN, PLAYING])
        orphans = await self.ownership.unowned(ids)
        if not orphans:
            return
        taken = await self.ownership.acquire_many(orphans)
        self._taking.update(taken)
        await self._run_taken(taken)

    async def _run_taken(self, taken: list[str]) -> None:
        """Run the tables whose lease this server just took (already in :attr:`_taking`)."""
        try:
            tables: dict[str, Table] = {}
            # The copies this server has are caught up below, all at once; the others are
            # loaded together (TableLoader).
            loaded = await asyncio.gather(
                *(self._table_here(table_id) for table_id in taken), return_exceptions=True
            )
            for table_id, table in zip(taken, loaded, strict=True):
                if isinstance(table, BaseException):
                    log.error("loading table %s to take it over failed", table_id, exc_info=table)
                    self._taking.discard(table_id)  # not run by a claim once the lease is gone
                    await self.ownership.release([table_id])
                else:
                    tables[table_id] = table
            to_run = [t for t in tables if t in self._taking]  # the others a request ran (claim)
            self._taking.difference_update(to_run)
            # All together, their stored events read in one batch: one by one, each run's
            # announcement and clock waited for a turn of a loop busy with the dead server's
            # reconnecting players, and the last of 500 tables ran ten seconds after the first.
            ran = await asyncio.gather(
                *(self._run(tables[t]) for t in to_run), return_exceptions=True
            )
            for table_id, outcome in zip(to_run, ran, strict=True):
                if isinstance(outcome, BaseException):
                    log.error("taking table %s over failed", table_id, exc_info=outcome)
        finally:
            self._taking.difference_update(taken)

    async def _renew_leases(self) -> None:
        """Four times per lease, tell the ownership which tables this server runs (its keeper
        renews their leases off the loop) and stand down from the ones another server took."""
        while True:
            await asyncio.sleep(self.settings.lease_s / 4)
            try:
                owned = [t.info.id for t in self.tables.values() if t.owned]
                for table_id in await self.ownership.renew(owned):
                    table = self.tables.get(table_id)
                    if table is not None and table.owned:
                        await self.stand_down(table)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing the table leases failed")

    async def _watch_orphans(self) -> None:
        """Twice a second, hand the ownership the live tables another server runs: it takes
        each lease the moment it runs out (off this loop, which a dead server's players keep
        busy) and calls :meth:`_taken` here."""
        while True:
            await asyncio.sleep(0.5)
            try:
                ids = await self.db.run_first(queries.table_ids_with_status, [OPEN, PLAYING])
                others = [t for t in ids if t not in self._taking and not self._owned_here(t)]
                self.ownership.watch(others, self._taken)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("looking for tables without an owner failed")

    def _owned_here(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        return table is not None and table.owned

    def _taken(self, table_ids: list[str]) -> None:
        """The ownership took these leases (their owner went away): run the tables."""
        if self._stopping:
            return  # kept until the keeper stops with this server, then taken by another
        self._taking.update(table_ids)
        task = asyncio.get_running_loop().create_task(self._run_taken(table_ids))
        self._taking_over.add(task)
        task.add_done_callback(self._taking_over.discard)

    async def stand_down(self, table: Table) -> None:
        """Another server took the table: stop running it here (its copy stays for views)."""
        log.warning("server %s lost table %s to another server", self.server_id, table.info.id)
        table.owned = False
        await table.runtime.stand_down()

    async def forward(self, table: Table, op: str, arguments: dict[str, Any]) -> Any:
        """Run a write on the table's owner; with no owner, take the table and run it here."""
        give_up = time.monotonic() + self.settings.lease_s + 5
        while True:
            if table.owned:
                return await getattr(table, op)(**arguments)
            table_id = table.info.id
            owner = self._owners_seen.get(table_id) or await self.ownership.owner_of(table_id)
            if owner is None or owner == self.server_id:
                if not await self.claim(table):
                    await asyncio.sleep(0.05)
                continue
            self._owners_seen[table_id] = owner
            still_owner = functools.partial(self.ownership.still_holds, owner, table_id)
            try:
                return await self.calls.call(
                    owner, table_id, op, arguments, timeout=2.0, still_owner=still_owner
                )
            except NotOwner:
                self._owners_seen.pop(table_id, None)
                await asyncio.sleep(0.05)
            except CallTimeout:
                # The owner may be dead: its lease runs out, then someone takes over.
                self._owners_seen.pop(table_id, None)
            if time.monotonic() > give_up:
                raise TableError("unavailable", "the table's server does not answer; try again")

    async def _table_here(self, table_id: str) -> Table:
        """The copy in memory as it is, or the table loaded from the store ahead of the common
        queue (:meth:`Database.run_first`: it is being taken over)."""
        return self.tables.get(table_id) or await self.loader.load(table_id, first=True)

    def owner_address(self, table: Table) -> str | None:
        """Where clients reach the server running this table (its ``public_url``), if that is
        another server and it answered this server's last write forwarded to it, so it is
        alive; ``None`` otherwise (this server runs it, or the owner gave no address)."""
        if table.owned or not self.shared:
            return None
        owner = self._owners_seen.get(table.info.id)
        return None if owner is None else self.calls.addresses.get(owner)

    async def get(self, table_id: str) -> Table:
        """The table with this id, loaded from the store if needed; ``TableError`` if none.

        When servers share tables, a table already loaded that this server does
        not own first catches up with the events its owner stored (the owner
        writes every event itself, so its copy is the log's).
        """
        table = self.tables.get(table_id)
        if table is not None:
            if self.shared and not table.owned:
                # Read before the lock is taken: a thousand players reconnecting after a
                # server died each catch their table up, and holding the lock while the
                # reads queued held back the take-over that runs the table (whose folding
                # leaves these rows redundant, never wrong: only newer ones are folded).
                rows = await self.catch_ups.ask(table)
                async with table.lock:
                    await table.fold_stored_and_announce_locked(rows or [])
            return table
        return await self.loader.load(table_id)

    async def _read_catch_ups(
        self, copies: list[Table], first: bool
    ) -> dict[Table, list[StoredEvent]]:
        """For each copy, the events its owner stored after the copy's version now (by copy,
        not id: a table forgotten and loaded again meanwhile has two); ``first``: ahead of
        the common queue."""
        since: dict[str, int] = {}
        for copy in copies:
            table_id, version = copy.info.id, copy.snap.version
            since[table_id] = min(version, since.get(table_id, version))
        read = self.db.run_first if first else self.db.run
        stored = await read(queries.events_after_each, since)
        return {copy: stored[copy.info.id] for copy in copies}

    def _loaded(self, row: GameTable, events: list[StoredEvent]) -> Table:
        """The table of a stored row and its log, kept in memory (unless one is already)."""
        table = self.tables.get(row.id)
        if table is not None:
            return table  # created here while the batch was being read
        table = Table(info_from_row(row), self.ctx)
        for event in events:
            table.fold(event_from_row(event))
        self.tables[row.id] = table
        if table.snap.status in (FINISHED, CLOSED):
            self.forget_later(row.id)
        return table

    async def create(self, user_id: int, user_name: str, spec: TableSpec) -> Table:
        """Open a new table for ``spec``; the creator sits unless the spec says not."""
        checked = check_spec(spec)
        info = TableInfo(
            id=new_table_id(),
            game=spec.game,
            options=checked.options,
            seed=secrets.randbits(62),
            seat_count=spec.seats,
            private=spec.private,
            invite_token=secrets.token_urlsafe(18),
            rated=spec.rated,
            pace=spec.pace,
            move_seconds=checked.move_seconds,
            creator_id=user_id,
            auto_start=spec.auto_start,
            created_at=self.clock.now(),
        )
        seats: list[dict[str, JSON]] = []
        for seat in range(spec.seats):
            if seat in spec.bots:
                level = spec.bots[seat]
                seats.append({"seat": seat, "bot_level": level, "name": f"bot ({level})"})
            elif seat == checked.creator_seat:
                seats.append({"seat": seat, "user_id": user_id, "name": user_name})
            else:
                seats.append({"seat": seat})
        return await self._open(info, seats)

    async def _open(self, info: TableInfo, seats: list[dict[str, JSON]]) -> Table:
        table = Table(info, self.ctx)
        first = LogEvent(
            1, "create", None, {"seats": seats}, info.creator_id, None, info.created_at
        )
        table.fold(first)
        # The lease first (a new id: nobody else has it), so no other server ever sees the
        # stored table without an owner and takes it over.
        table.owned = await self.ownership.acquire(info.id)
        try:
            await self.db.run(_insert_table_tx, info, table, first)
        except BaseException:
            await self.ownership.release([info.id])
            raise
        self.tables[info.id] = table
        await self.bus.publish(f"table:{info.id}", first.public())
        await table.resume()
        await self.lobby_changed(table)
        return table

    async def rematch(self, old: Table) -> str:
        """Open the rematch of a finished table: same seats and options, a new seed; it starts."""
        info = TableInfo(
            id=new_table_id(),
            game=old.info.game,
            options=old.info.options,
            seed=secrets.randbits(62),
            seat_count=old.info.seat_count,
            private=old.info.private,
            invite_token=secrets.token_urlsafe(18),
            rated=old.info.rated,
            pace=old.info.pace,
            move_seconds=old.info.move_seconds,
            creator_id=old.info.creator_id,
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
            table = await self.get(row.id)
            if table.snap.seat_of(user_id) is not None:
                return table
            try:
                await table.join(user_id, user_name, None)
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

    async def _build_lobby(self, game: str | None, status: str) -> list[dict[str, JSON]]:
        rows = await self.db.run(queries.open_public_tables, game, 100, status)
        tables = await asyncio.gather(*(self.get(row.id) for row, _seats in rows))
        return [table.summary() for table in tables]

    async def _watch_lobby(self, news: Subscription) -> None:
        """Drop the lobby's lists on any server's lobby news."""
        try:
            while True:
                await news.get()
                self.lobby_cache.changed()
        finally:
            await news.close()

    async def lobby_changed(self, table: Table) -> None:
        """Tell lobby watchers about a public table that opened, changed or left the lobby.

        A table that is over is also let go from memory a while later
        (:meth:`forget_later`); it is loaded again from the store if asked for.
        """
        if table.snap.status in (FINISHED, CLOSED):
            self.forget_later(table.info.id)
        if table.snap.status == FINISHED and table.owned:
            self.reviewer.schedule(table.info.id, table.info.game, table.info.private)
        if table.info.private:
            return
        self.lobby_cache.changed()
        if table.snap.status == OPEN:
            await self.bus.publish(LOBBY_CHANNEL, {"type": "table", "table": table.summary()})
        else:
            await self.bus.publish(
                LOBBY_CHANNEL, {"type": "gone", "id": table.info.id, "status": table.snap.status}
            )

    def forget_later(self, table_id: str) -> None:
        """Drop a finished or closed table from memory once nobody has had it open for a while."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.forget_after_s, self._forget, table_id)

    def _forget(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table.snap.status not in (FINISHED, CLOSED):
            return
        if table.viewers or table.lock.locked():
            self.forget_later(table_id)
            return
        del self.tables[table_id]
        self._owners_seen.pop(table_id, None)
        if table.owned and self.ownership.shared:
            task = asyncio.get_running_loop().create_task(self.ownership.release([table_id]))
            task.add_done_callback(lambda t: t.exception())

    async def record(self, table_id: str) -> GameRecord:
        """The record of a finished game (the format the CLI replays)."""
        table = await self.get(table_id)
        check_finished(table)
        actions = tuple(
            (e.seat, e.data["action"])
            for e in table.events
            if e.kind == "action" and e.seat is not None
        )
        return GameRecord(table.info.game, table.info.options, table.info.seed, actions)


def _insert_table_tx(session: Session, info: TableInfo, table: Table, first: LogEvent) -> None:
    row = GameTable(
        id=info.id,
        game=info.game,
        options=info.options,
        seed=info.seed,
        seat_count=info.seat_count,
        private=info.private,
        invite_token=info.invite_token,
        rated=info.rated,
        pace=info.pace,
        move_seconds=info.move_seconds,
        creator_id=info.creator_id,
        auto_start=info.auto_start,
        status=OPEN,
        created_at=info.created_at,
        rematch_of=info.rematch_of,
    )
    seats: list[TableSeat] = [seat_row(info.id, s) for s in table.snap.seats]
    queries.insert_table(session, row, seats)
    queries.append_event(session, event_row(info.id, first))


def _no_table(table_id: str) -> TableError:
    shown = repr(table_id[:40])
    return TableError("no_table", f"there is no table {shown}", params={"table": shown})


def info_from_row(row: GameTable) -> TableInfo:
    """The fixed info of a stored table."""
    return TableInfo(
        id=row.id,
        game=row.game,
        options=dict(row.options),
        seed=row.seed,
        seat_count=row.seat_count,
        private=row.private,
        invite_token=row.invite_token,
        rated=row.rated,
        pace=row.pace,
        move_seconds=row.move_seconds,
        creator_id=row.creator_id,
        auto_start=row.auto_start,
        created_at=row.created_at,
        rematch_of=row.rematch_of,
    )
