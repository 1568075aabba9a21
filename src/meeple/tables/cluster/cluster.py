"""Who runs each table among the servers sharing them: leases, take-over, forwarding, standing down.

Each live table has one owner at a time (a lease, :mod:`meeple.tables.cluster.owners`):
only it runs the table's clocks and bots and writes its events; the others
forward writes to it (:mod:`meeple.tables.cluster.calls`) and keep a copy for views.
This server's standing with each table is a state of
:class:`~meeple.tables.cluster.owner_states.OwnerStates` (copy, claiming, owned,
standing down), and this module is the only caller of its transitions (:class:`Cluster`,
and :func:`let_go` for a table that leaves memory).

A table gets claimed (copy -> claiming) four ways: it is new, a write finds it
without an owner, it is an orphan at start-up, or the lease keeper's thread
took its lease as it ran out (:meth:`Cluster._taken`, handed over with
``call_soon_threadsafe``). Every claim then runs through :meth:`Cluster._run`,
the one route to owned: fold what the last owner stored, then resume. A single
server (no Redis) is the sole owner and claims each table the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import weakref

from meeple.batching import Batches
from meeple.config import Settings
from meeple.errors import Code, TableError
from meeple.games.base import JSON
from meeple.store import queries
from meeple.store.database import Database
from meeple.store.queries import EventRow
from meeple.tables.cluster.calls import CallRouter, CallTimeout, NotOwner, Run, new_call_id
from meeple.tables.cluster.owner_states import CLAIMING, COPY, OWNED, OwnerStates
from meeple.tables.cluster.owners import Ownership
from meeple.tables.cluster.registry import TableRegistry
from meeple.tables.commands import Command
from meeple.tables.core.log import OPEN, PLAYING
from meeple.tables.core.table import Table
from meeple.tasks import cancel_all_and_wait

log = logging.getLogger(__name__)

CALL_TIMEOUT_S = 2.0
"""How long a forwarded change waits for its owner's answer before it looks for the owner
again and sends the change again (same call id: run once)."""


class Cluster:
    """This server's side of table ownership: the one place that moves a table's state."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        states: OwnerStates,
        registry: TableRegistry,
        ownership: Ownership,
        calls: CallRouter,
    ) -> None:
        """``ownership``: the leases (:func:`~meeple.tables.cluster.owners.lease_ownership`);
        ``calls``: this server's end of the forwarded writes, under its ``server_id``."""
        self.db, self.settings, self.states, self.registry = db, settings, states, registry
        self.shared = settings.redis is not None
        """Other servers may write to the same tables (a shared database and Redis bus)."""
        self.ownership = ownership
        self.calls = calls
        self.take_over_reads: Batches[Table, list[EventRow]] = Batches(
            registry.read_catch_ups, join_running=False
        )
        """What the last owners stored, read for the tables this server claims, ahead of
        the common queue and of the catch-ups (a batch of those may be waiting there)."""
        self._waiting: set[str] = set()
        """Tables claimed by a take-over that has not started running them: a request for
        one of them runs it at once rather than wait for the others."""
        self._taking_over: set[asyncio.Task[None]] = set()
        """The take-overs running, of leases the keeper took as they ran out."""
        self._loops: list[asyncio.Task[None]] = []
        self._stopping = False
        self._owners_seen: weakref.WeakKeyDictionary[Table, str] = weakref.WeakKeyDictionary()
        """The owner each forwarded write last reached, by table (asked again once it refuses
        or is silent), so a forwarded action costs no lease lookup; gone with the table."""
        self.taken_over = 0
        """Tables this server began to run that it had not just opened (start-up, a dead
        server's, a write that found no owner)."""
        self.lost = 0
        """Tables this server ran whose lease another server took."""

    @property
    def server_id(self) -> str:
        """This server's name among the servers sharing tables."""
        return self.ownership.server_id

    async def start(self, run: Run) -> None:
        """Take and run every open or playing table nobody runs; keep and watch the leases;
        run the changes other servers forward here with ``run`` (:meth:`Writes.here`)."""
        if self.shared:
            await self.calls.start(run)
        await self.take_orphans()
        if self.shared:
            self._loops += [
                asyncio.create_task(self._renew_leases()),
                asyncio.create_task(self._watch_orphans()),
            ]

    async def stop_leasing(self) -> None:
        """Take no more leases: stop the lease loops and the take-overs running."""
        self._stopping = True
        await cancel_all_and_wait(self._loops)
        if self.shared:
            self.ownership.watch([], self._taken)
        await cancel_all_and_wait(self._taking_over)

    async def stop(self) -> None:
        """Hand this server's tables over at once (their clocks and bots stopped already)."""
        owned = self.states.ids(OWNED)
        for table_id in owned:
            self.states.release(table_id)
        with contextlib.suppress(Exception):  # Redis may be gone already
            await self.ownership.release(owned)
        self.ownership.close()
        if self.shared:
            await self.calls.stop()

    # ----- claiming and running ------------------------------------------

    async def open(self, table: Table) -> bool:
        """Lease a table about to be stored for the first time (nobody else has its new id,
        and no other server ever sees it stored without an owner); whether leased."""
        if not await self.ownership.acquire(table.info.id):
            return False
        self.states.lease(table.info.id)
        return True

    async def run_new(self, table: Table) -> None:
        """Run a table :meth:`open` leased, once stored: nothing to fold from another owner."""
        await self._run(table, fresh=True)

    async def abandon(self, table: Table) -> None:
        """A table :meth:`open` leased was not stored: give the lease up."""
        if self.states.state(table.info.id) is CLAIMING:
            self.states.give_up(table.info.id)
        await self.ownership.release([table.info.id])

    async def claim(self, table: Table) -> bool:
        """Become the table's owner if nobody is: fold what others stored, resume it."""
        table_id = table.info.id
        state = self.states.state(table_id)
        if state is OWNED:
            return True
        if state is CLAIMING:
            # Leased already (a take-over still reading what the last owner stored, or
            # another request): this request runs it now rather than wait for the others.
            self._waiting.discard(table_id)
            return await self._run(table)
        if state is not COPY or not await self.ownership.acquire(table_id):
            return False  # standing down here, or another server holds it
        if self.states.state(table_id) is COPY:
            self.states.lease(table_id)
        return await self._run(table)

    async def _run(self, table: Table, fresh: bool = False) -> bool:
        """Run a claimed table: fold what the last owner stored, resume it (claiming -> owned).

        What was stored is read before the lock is taken, in one batch with every other
        table claimed meanwhile (a take-over and the writes forwarded to a dead owner claim
        hundreds at once); the rows folded are only those newer than the copy. ``fresh``: a
        new table, with nothing stored by anyone else.
        """
        table_id = table.info.id
        if self.states.state(table_id) is not CLAIMING:
            return self.states.owned(table_id)
        try:
            stored = [] if fresh else await self.take_over_reads.ask(table, first=True)
        except Exception:
            # Not left claiming for ever: the lease goes, and a watcher (here or elsewhere)
            # takes the table again.
            if self.states.state(table_id) is CLAIMING:
                self.states.give_up(table_id)
                await self.ownership.release([table_id])
            raise
        async with table.lock:
            if self.states.state(table_id) is not CLAIMING:
                return self.states.owned(table_id)  # another request ran it meanwhile
            self.states.run(table_id)
            await table.fold_stored_and_announce_locked(stored or [])
        for _attempt in range(3):
            try:
                await table.resume()
            except TableError as exc:
                if exc.code is not Code.CONFLICT:
                    raise
                # The last owner wrote after our catch-up (its lease ran out while it was
                # still writing): the write folded that in; resume again from there.
                continue
            if not fresh:
                self.taken_over += 1
                log.info("server %s runs table %s", self.server_id, table_id)
            if self.shared:
                self.calls.took_over(table_id)
            return True
        log.warning("server %s could not resume table %s", self.server_id, table_id)
        await self._stand_down(table)
        await self.ownership.release([table_id])  # another try (here or elsewhere) soon
        return False

    async def take_orphans(self) -> None:
        """Take over every open or playing table that has no owner (all of them, alone).

        The leases are taken in one Redis call, what the last owners stored is read in
        one query per hundred tables (ahead of the common queue) and the tables run
        together: a server taking over hundreds of tables from a dead one spends no round
        trip per table before it runs them.
        """
        # Ahead of the common queue: when a server dies, its players reconnect here all at
        # once, and each socket opening reads its table.
        ids = await self.db.run_first(queries.table_ids_with_status, [OPEN, PLAYING])
        orphans = await self.ownership.unowned(ids)
        if not orphans:
            return
        await self._run_leased(self._lease_taken(await self.ownership.acquire_many(orphans)))

    def _lease_taken(self, taken: list[str]) -> list[str]:
        """Claim the tables whose lease this server just took and that it has no standing with
        yet (copy -> claiming); those, to run."""
        leased = self.states.lease_many(taken)
        self._waiting.update(leased)
        return leased

    async def _run_leased(self, leased: list[str]) -> None:
        """Run the tables :meth:`_lease_taken` claimed, all together."""
        try:
            # The copies this server has are caught up below, all at once; the others are
            # loaded together (TableLoader).
            loaded = await asyncio.gather(
                *(self.table_here(table_id) for table_id in leased), return_exceptions=True
            )
            tables: dict[str, Table] = {}
            for table_id, table in zip(leased, loaded, strict=True):
                if isinstance(table, BaseException):
                    log.error("loading table %s to take it over failed", table_id, exc_info=table)
                    if self.states.state(table_id) is CLAIMING:
                        self.states.give_up(table_id)
                    await self.ownership.release([table_id])
                else:
                    tables[table_id] = table
            to_run = [t for t in tables if t in self._waiting]  # the others a request ran
            self._waiting.difference_update(to_run)
            # All together, so their stored events are read in one batch and the last
            # table does not wait for every other's turn of the loop.
            ran = await asyncio.gather(
                *(self._run(tables[t]) for t in to_run), return_exceptions=True
            )
            for table_id, outcome in zip(to_run, ran, strict=True):
                if isinstance(outcome, BaseException):
                    log.error("taking table %s over failed", table_id, exc_info=outcome)
        finally:
            self._waiting.difference_update(leased)

    async def table_here(self, table_id: str) -> Table:
        """The table to run, as this server has it (:meth:`TableRegistry.here`)."""
        return await self.registry.here(table_id)

    def _taken(self, table_ids: list[str]) -> None:
        """The keeper took these leases (their owner went away): run the tables."""
        if self._stopping:
            return  # kept until the keeper stops with this server, then taken by another
        # Claimed at once, so that the next look for orphans does not list them again.
        leased = self._lease_taken(table_ids)
        task = asyncio.get_running_loop().create_task(self._run_leased(leased))
        self._taking_over.add(task)
        task.add_done_callback(self._taking_over.discard)

    # ----- keeping leases and losing them ----------------------------------

    async def _renew_leases(self) -> None:
        """Four times per lease, tell the ownership which tables this server runs (its keeper
        renews their leases off the loop) and stand down from the ones another server took."""
        while True:
            await asyncio.sleep(self.settings.lease_s / 4)
            try:
                for table_id in await self.ownership.renew(self.states.ids(OWNED)):
                    table = self.registry.tables.get(table_id)
                    if table is not None and self.states.owned(table_id):
                        self.lost += 1
                        log.warning(
                            "server %s lost table %s to another server", self.server_id, table_id
                        )
                        await self._stand_down(table)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing the table leases failed")

    async def _watch_orphans(self) -> None:
        """Twice a second, hand the ownership the live tables this server has no standing
        with: its keeper takes each lease the moment it runs out (off this loop, which a
        dead server's players keep busy) and calls :meth:`_taken` here."""
        while True:
            await asyncio.sleep(0.5)
            try:
                ids = await self.db.run_first(queries.table_ids_with_status, [OPEN, PLAYING])
                others = [t for t in ids if self.states.state(t) is COPY]
                self.ownership.watch(others, self._taken)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("looking for tables without an owner failed")

    async def _stand_down(self, table: Table) -> None:
        """Stop running the table here (owned -> standing down -> copy); its copy stays."""
        self.states.lose(table.info.id)
        await table.runtime.stand_down()
        self.states.stood_down(table.info.id)

    # ----- forwarding ----------------------------------------------------

    async def forward(self, table: Table, command: Command, run_here: Run) -> JSON:
        """Run ``command`` on the table's owner; with no owner, take the table and run it here
        (``run_here``, as the owner's :class:`CallRouter` does).

        Every send of the change to an owner carries one call id, so an owner that ran it
        answers a repeat from memory (:class:`~meeple.tables.cluster.calls.Answers`) rather than
        run it again."""
        give_up = time.monotonic() + self.settings.lease_s + 5
        call_id, sends = new_call_id(), 0
        while True:
            if table.owned:
                return await run_here(table, command)
            table_id = table.info.id
            owner = self._owners_seen.get(table) or await self.ownership.owner_of(table_id)
            if owner is None or owner == self.server_id:
                if not await self.claim(table):
                    await asyncio.sleep(0.05)
                continue
            self._owners_seen[table] = owner
            still_owner = functools.partial(self.ownership.still_holds, owner, table_id)
            try:
                sends += 1
                return await self.calls.call(
                    owner,
                    table_id,
                    command,
                    timeout=CALL_TIMEOUT_S,
                    still_owner=still_owner,
                    call_id=call_id,
                    again=sends > 1,
                )
            except NotOwner:
                self._owners_seen.pop(table, None)
                await asyncio.sleep(0.05)
            except CallTimeout:
                # The owner may be dead: its lease runs out, then someone takes over.
                self._owners_seen.pop(table, None)
            if time.monotonic() > give_up:
                raise Code.UNAVAILABLE.error()

    def owner_address(self, table: Table) -> str | None:
        """Where clients reach the server running this table (its ``public_url``), if that is
        another server and it answered this server's last write forwarded to it, so it is
        alive; ``None`` otherwise (this server runs it, or the owner gave no address)."""
        if table.owned or not self.shared:
            return None
        owner = self._owners_seen.get(table)
        return None if owner is None else self.calls.addresses.get(owner)


def let_go(states: OwnerStates, ownership: Ownership, table: Table) -> None:
    """``table`` left this server's memory (:class:`TableRegistry` forgets a table over):
    give its lease up if this server ran it (owned -> copy)."""
    table_id = table.info.id
    if not states.owned(table_id):
        return
    states.release(table_id)
    if ownership.shared:
        task = asyncio.get_running_loop().create_task(ownership.release([table_id]))
        task.add_done_callback(lambda t: t.exception())
