"""The thread that keeps a server's table leases whatever its event loop does.

A burst of work on the event loop (two thousand players connecting at once)
may delay everything there by seconds; a lease must not run out under it and
hand a live server's tables to another. :class:`LeaseKeeper` renews them from
a thread of its own, with its own Redis connection, while
the loop shows it is alive; it also takes the leases of the live tables the
loop watches the moment they run out, and hands their ids to the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence

import redis

OWNER_PREFIX = "meeple:owner:"
"""The Redis key of a table's lease is this and the table id; its value is the owner's id."""
RENEW_CHUNK = 500
"""Leases renewed per script call (a call blocks Redis while it runs)."""
ALIVE_LEASES = 4
"""The keeper renews while the event loop spoke to it within this many lease times."""

# Renew every lease of a list still ours in one round trip, and take back the ones that ran out
# with nobody taking them (nobody else can have run those tables); the 1-based positions of the
# leases another server holds.
RENEW_MANY = """
local lost = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('get', key)
  if owner == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
  elseif not owner then
    redis.call('set', key, ARGV[1], 'PX', ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""
# Take every lease of a list nobody holds (SET NX); the 1-based positions taken, and the
# milliseconds until the first of the others' leases runs out (-1: none).
TAKE_UNOWNED = """
local taken = {}
local soonest = -1
for i, key in ipairs(KEYS) do
  if redis.call('set', key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    taken[#taken + 1] = i
  elseif redis.call('get', key) ~= ARGV[1] then
    local left = redis.call('pttl', key)
    if left >= 0 and (soonest < 0 or left < soonest) then soonest = left end
  end
end
return {taken, soonest}
"""
# Delete every lease of a list that is still this server's, at once (a server watching
# them takes them all together).
RELEASE_MANY = """
for _, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('del', key)
  end
end
return 0
"""
log = logging.getLogger(__name__)


class LeaseKeeper:
    """A thread that renews a server's leases four times per lease, whatever its event loop does.

    The loop hands it the owned tables (:meth:`keep`) every quarter lease; the
    thread renews that list while the loop's last hand-over is recent (a hung
    loop lets its leases run out after :data:`ALIVE_LEASES` leases) and keeps the
    tables whose lease turned out to be another server's for :meth:`take_lost`.

    It also fences its own server: once no renewal has succeeded for a whole
    lease (Redis unreachable, a network split), the leases may have run out and
    another server may own the tables, so :meth:`take_lost` gives all of them
    up and the server stops running them (it forwards their writes instead).

    And it takes the leases of the live tables the loop asks it to watch as
    soon as they run out, waking when the first of them is due rather than on a
    fixed beat: from the event loop of a server taking in a dead server's
    players, each round trip of that look waited for a turn of a busy loop, and
    the take-over came up to 1.4 s after the leases ran out.
    """

    def __init__(self, url: str, server_id: str, lease_s: float) -> None:
        self.server_id, self.lease_s = server_id, lease_s
        self.client = redis.Redis.from_url(
            url, socket_timeout=lease_s, socket_connect_timeout=lease_s
        )
        self._script = self.client.register_script(RENEW_MANY)
        self._ids: set[str] = set()
        self._added: dict[str, float] = {}
        """Leases acquired lately, kept even if the loop's list does not have them yet (a table
        whose take-over is still folding its log)."""
        self._heard = time.monotonic()
        self._renewed = time.monotonic()
        """When the last renewal that succeeded started: the leases last at least until then
        plus a lease."""
        self._lost: set[str] = set()
        self._watched: list[str] = []
        self._on_taken: Callable[[list[str]], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._take_script = self.client.register_script(TAKE_UNOWNED)
        self._release_script = self.client.register_script(RELEASE_MANY)
        self._forgotten: set[str] = set()
        """Leases released since the renewal running began."""
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def keep(self, table_ids: Sequence[str]) -> None:
        """From the event loop: these are the leases to keep now (and the loop is alive)."""
        now = time.monotonic()
        with self._lock:
            self._added = {t: at for t, at in self._added.items() if now - at < self.lease_s}
            self._ids = set(table_ids) | set(self._added)
        self._heard = now
        self._start()

    def add(self, table_id: str) -> None:
        """One more lease to keep (just acquired, so good for a lease from now); renewed from
        now on, even if the loop has not handed over a list yet."""
        with self._lock:
            if not self._ids:
                self._renewed = time.monotonic()
            self._ids.add(table_id)
            self._added[table_id] = time.monotonic()
        self._start()

    def watch(
        self,
        table_ids: Sequence[str],
        on_taken: Callable[[list[str]], None],
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        """From the event loop: the live tables to take once their lease runs out, and what
        to call there with the ids taken."""
        with self._lock:
            self._watched = list(table_ids)
            self._on_taken, self._loop = on_taken, loop
        self._heard = time.monotonic()
        self._start()

    def take_unowned(self) -> float | None:
        """Take the watched leases nobody holds and hand them to the loop; the seconds
        until the first of the others' runs out (``None``: none watched)."""
        with self._lock:
            watched, on_taken, loop = self._watched, self._on_taken, self._loop
        if not watched or on_taken is None or loop is None or not self.can_keep():
            return None
        taken: list[str] = []
        soonest: float | None = None
        for start in range(0, len(watched), RENEW_CHUNK):
            chunk = watched[start : start + RENEW_CHUNK]
            keys = [OWNER_PREFIX + t for t in chunk]
            positions, left = self._take_script(
                keys=keys, args=[self.server_id, int(self.lease_s * 1000)]
            )
            taken += [chunk[int(i) - 1] for i in positions]
            if int(left) >= 0:
                soonest = min(int(left) / 1000, soonest if soonest is not None else 1e9)
        if taken:
            now = time.monotonic()
            with self._lock:
                if not self._ids:
                    self._renewed = now
                self._ids.update(taken)
                self._added.update(dict.fromkeys(taken, now))
                gone = set(taken)
                self._watched = [t for t in self._watched if t not in gone]
            with contextlib.suppress(RuntimeError):  # the loop closed: the server is stopping
                loop.call_soon_threadsafe(on_taken, taken)
        return soonest

    def _start(self) -> None:
        if self._thread is None and not self._stopping.is_set():
            self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
            self._thread.start()

    def forget(self, table_ids: Sequence[str]) -> None:
        """Stop keeping these leases (they are being released)."""
        with self._lock:
            self._ids.difference_update(table_ids)
            self._forgotten.update(table_ids)
            for table_id in table_ids:
                self._added.pop(table_id, None)

    def take_lost(self) -> set[str]:
        """The tables found to be another server's (or nobody's) since the last call."""
        with self._lock:
            if time.monotonic() - self._renewed > self.lease_s and self._ids:
                log.warning("the table leases could not be renewed for a lease: giving them up")
                self._lost |= self._ids
                self._ids = set()
            lost, self._lost = self._lost, set()
        return lost

    def can_keep(self) -> bool:
        """Whether a renewal succeeded within the last lease (Redis answers the keeper)."""
        return time.monotonic() - self._renewed <= self.lease_s

    def renew_now(self, table_ids: Sequence[str]) -> set[str]:
        """Extend the leases still ours; the ids of the others. With none, check that Redis
        answers (so :meth:`can_keep` is true only while it does)."""
        lost: set[str] = set()
        if not table_ids:
            self.client.ping()
            return lost
        lease_ms = int(self.lease_s * 1000)
        for start in range(0, len(table_ids), RENEW_CHUNK):
            chunk = table_ids[start : start + RENEW_CHUNK]
            keys = [OWNER_PREFIX + t for t in chunk]
            missing = self._script(keys=keys, args=[self.server_id, lease_ms])
            lost.update(chunk[int(i) - 1] for i in missing)
        return lost

    def _run(self) -> None:
        beat = self.lease_s / 4
        renew_at = watch_at = time.monotonic() + beat
        while not self._stopping.wait(max(0.0, min(renew_at, watch_at) - time.monotonic())):
            now = time.monotonic()
            if now - self._heard > ALIVE_LEASES * self.lease_s:
                renew_at = watch_at = now + beat
                continue  # the event loop is stuck: let the leases run out, take none
            if now >= renew_at:
                renew_at = now + beat
                self._renew()
            if now >= watch_at:
                try:
                    soonest = self.take_unowned()
                except redis.RedisError as exc:
                    log.warning("looking for leases that ran out failed: %s", exc)
                    soonest = None
                # Just after the first lease due to run out, and at least every beat.
                wait = beat if soonest is None else min(beat, soonest + 0.005)
                watch_at = time.monotonic() + wait

    def _renew(self) -> None:
        with self._lock:
            ids = sorted(self._ids)
            self._forgotten = set()
        started = time.monotonic()
        try:
            lost = self.renew_now(ids)
            with self._lock:
                # Released while this renewal ran: it may have set them again (a lease that
                # ran out is taken back), so that a server stopping kept some for a lease.
                again = sorted(self._forgotten.intersection(ids))
            if again:
                self._release_script(keys=[OWNER_PREFIX + t for t in again], args=[self.server_id])
        except redis.RedisError as exc:
            log.warning("renewing the table leases failed: %s", exc)
            return
        with self._lock:
            self._renewed = started
            if lost:
                self._lost |= lost
                self._ids -= lost

    def stop(self) -> None:
        """Stop renewing and close the connection."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.client.close()
