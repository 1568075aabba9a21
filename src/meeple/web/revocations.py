"""The end of a token or a session, told to every server, so the streams it opened end at once.

Revoking a token, signing out, changing the password, signing out everywhere
and deleting the account each call :meth:`Revocations.announce` with the
account's id: one message on the bus's :data:`CHANNEL`. Every server listens
on it once (one subscription per process, whatever the number of streams) and
checks again only the streams of that account, in one batched query per kind
(:class:`~meeple.web.token_checks.TokenChecks`,
:class:`~meeple.web.session_checks.SessionChecks`); each stream whose token or
session is gone ends. A quiet stream costs no query at all.

Pub/sub keeps nothing, and a session also ends by running out: so every
``MEEPLE_STREAM_RECHECK_S`` each server checks all its streams' tokens and
sessions together, one query per kind, not one per stream.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from meeple.bus import Bus
from meeple.tasks import cancel_and_wait

CHANNEL = "revocations"
"""The bus channel of ``{"user": <id>}``: a token or session of that account ended."""

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Watch:
    """One open stream: whose, how to ask whether its token or session is still live, and
    how to end it."""

    user_id: int
    still_valid: Callable[[], Awaitable[bool]]
    end: Callable[[], None]
    ended: bool = field(default=False)


class Revocations:
    """Ends the streams whose token or session has ended, on every server."""

    def __init__(self, bus: Bus, recheck_s: float) -> None:
        self.bus, self.recheck_s = bus, recheck_s
        self._watches: dict[int, set[Watch]] = {}
        self._listener: asyncio.Task[None] | None = None
        self._subscribed: asyncio.Future[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.checks = 0
        """How many times a stream's token or session was asked about (tests)."""

    async def announce(self, user_id: int) -> None:
        """A token or session of ``user_id`` ended: every server checks that account's
        streams again."""
        await self.bus.publish(CHANNEL, {"user": user_id})

    def watch(
        self, user_id: int, still_valid: Callable[[], Awaitable[bool]], end: Callable[[], None]
    ) -> Watch:
        """Call ``end`` once the stream's token or session is gone (until :meth:`unwatch`)."""
        watch = Watch(user_id, still_valid, end)
        self._watches.setdefault(user_id, set()).add(watch)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep())
        return watch

    def unwatch(self, watch: Watch) -> None:
        """The stream ended: forget it."""
        held = self._watches.get(watch.user_id)
        if held is not None:
            held.discard(watch)
            if not held:
                del self._watches[watch.user_id]

    async def listening(self) -> None:
        """Once this server hears every announcement made from now on (subscribed once, at
        the first stream)."""
        subscribed = self._subscribed
        if subscribed is None or self._listener is None or self._listener.done():
            subscribed = self._subscribed = asyncio.get_running_loop().create_future()
            self._listener = asyncio.create_task(self._listen(subscribed))
        await asyncio.shield(subscribed)

    async def _listen(self, subscribed: asyncio.Future[None]) -> None:
        try:
            subscription = await self.bus.subscribe(CHANNEL)
        except Exception as exc:
            subscribed.set_exception(exc)
            raise
        subscribed.set_result(None)
        try:
            while True:
                message = await subscription.get()
                user_id = message.get("user")
                if isinstance(user_id, int) and user_id in self._watches:
                    try:
                        await self.check(list(self._watches[user_id]))
                    except Exception:  # the store away: the sweep asks again
                        log.warning("could not check an account's streams", exc_info=True)
        finally:
            await subscription.close()

    async def _sweep(self) -> None:
        while self._watches:
            await asyncio.sleep(self.recheck_s)
            try:
                await self.check([w for held in self._watches.values() for w in held])
            except Exception:  # the store away for a moment: the next round tries again
                log.warning("could not check the open streams' tokens", exc_info=True)

    async def check(self, watches: list[Watch]) -> None:
        """Ask again about ``watches`` (the asks share a query per kind), and end those gone."""
        self.checks += len(watches)
        verdicts = await asyncio.gather(*(w.still_valid() for w in watches))
        for watch, valid in zip(watches, verdicts, strict=True):
            if not valid and not watch.ended:
                watch.ended = True
                watch.end()

    async def stop(self) -> None:
        """Stop listening and sweeping (the server is stopping)."""
        await cancel_and_wait(self._listener, self._sweeper)
