"""Every finished game reviewed once, in the background, and stored; puzzles cut from it.

When a table this server runs finishes (:class:`~meeple.tables.facts.GameFinished`, which
it follows), :class:`Reviewer` reviews its record
a few actions at a time in the bot pool at the lowest priority (no live
table's bot waits behind more than one piece), then stores the review once
(servers sharing a store claim each game first, so only one reviews it), then cuts the puzzles of a
public game and stores the new ones. Which games are reviewed, and which cut
puzzles, their registration says (:mod:`meeple.analysis.features`). At
start-up it also reviews the most recent finished games that have none yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.exc import IntegrityError

from meeple.analysis.features import cutter_of, reviewer_of
from meeple.analysis.review import puzzles_in_record, review_chunk, reviewer_for, summary_of
from meeple.games.base import JSON, GameRecord
from meeple.store import queries
from meeple.store.database import Database
from meeple.tables.clock import Clock
from meeple.tables.core.bots import BotPool
from meeple.tables.core.ratings import MODEL
from meeple.tables.facts import GameFinished

log = logging.getLogger(__name__)

CATCH_UP = 50
"""At start-up, how many of the latest finished games without a review are reviewed."""

CLAIM_S = 600
"""How long a server's claim on reviewing a game keeps the other servers off it."""


async def always(_job: str, _ttl_s: float) -> bool:
    """The claim of a server alone: it reviews everything."""
    return True


class Reviewer:
    """Reviews finished games in the background and stores each review once."""

    def __init__(
        self,
        db: Database,
        bots: BotPool,
        clock: Clock,
        record_of: Callable[[str], Awaitable[GameRecord]],
        claim: Callable[[str, float], Awaitable[bool]] = always,
    ) -> None:
        self.db, self.bots, self.clock, self.record_of = db, bots, clock, record_of
        self.claim = claim
        """Whether this server is the one to review a game (servers sharing a store split them)."""
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._catching_up: asyncio.Task[None] | None = None
        self.done = 0
        """How many reviews this server stored."""
        self.puzzles = 0
        """How many new puzzles this server stored."""

    def finished(self, fact: GameFinished) -> None:
        """A game this server ran finished: review it soon."""
        info = fact.table.info
        self.schedule(info.id, info.game, info.private)

    def schedule(self, table_id: str, game: str, private: bool = True) -> None:
        """Review the finished game of ``table_id`` soon (once, whoever asks again).

        Puzzles are cut only from public games (``private`` False).
        """
        if reviewer_of(game) is None or table_id in self._tasks:
            return
        task = asyncio.get_running_loop().create_task(self._review(table_id, private))
        self._tasks[table_id] = task
        task.add_done_callback(lambda _t: self._tasks.pop(table_id, None))

    def start(self) -> None:
        """Review, in the background, the latest finished games that have none yet."""
        if self._catching_up is None:
            self._catching_up = asyncio.get_running_loop().create_task(self.catch_up())

    async def catch_up(self) -> None:
        """Review the latest finished games that have no review yet."""
        for table_id, private in await self.db.run(queries.finished_without_review, CATCH_UP):
            with contextlib.suppress(Exception):
                record = await self.record_of(table_id)
                self.schedule(table_id, record.game, private)

    async def wait(self) -> None:
        """Wait for the reviews under way (tests and benches)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Give up the reviews under way (the next start-up catches up)."""
        running = list(self._tasks.values())
        if self._catching_up is not None:
            running.append(self._catching_up)
            self._catching_up = None
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    async def _review(self, table_id: str, private: bool) -> None:
        try:
            if await self.db.run(queries.review_of, table_id) is not None:
                return
            if not await self.claim(f"review:{table_id}", CLAIM_S):
                return  # another server reviews it
            record = await self.record_of(table_id)
            text = json.dumps(record.to_json(), separators=(",", ":"))
            lines: list[dict[str, JSON]] = []
            chunk = reviewer_for(record.game).chunk
            for start in range(0, len(record.actions), chunk):
                lines += await self.bots.background(review_chunk, text, start, start + chunk)
            players = int(record.options.get("players", 2))
            data: dict[str, JSON] = {
                "game": record.game,
                "lines": lines,
                "summary": summary_of(record.game, lines, players),
            }
            with contextlib.suppress(IntegrityError):  # another server stored it first
                if await self.db.write(
                    queries.save_review, table_id, record.game, data, self.clock.now()
                ):
                    self.done += 1
            if not private and cutter_of(record.game) is not None:
                puzzles = await self.bots.background(puzzles_in_record, text)
                first = MODEL.rating()
                with contextlib.suppress(IntegrityError):
                    self.puzzles += await self.db.write(
                        queries.save_puzzles,
                        record.game,
                        puzzles,
                        table_id,
                        self.clock.now(),
                        (first.mu, first.sigma),
                    )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the review failed", table_id)
