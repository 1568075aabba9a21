"""Puzzles from the first day: a short pool filled from games between the server's own bots.

Puzzles are cut from public games between people (:mod:`meeple.tables.study.reviews`),
so a new site has none. While a game that cuts puzzles (its registration,
:func:`meeple.games.games_with`) has fewer than ``MEEPLE_PUZZLE_POOL_TARGET``
stored, :class:`PuzzleSupply` has its bots play each other with fresh seeds
and stores the puzzles the game's cutter finds in them (the same cutter, the
same uniqueness rule: a puzzle's id is its position, stored once), marked
``from_bots``. Human public games keep adding theirs.

The games are played in the bot pool's background worker, a piece of about a
second at a time (:func:`meeple.analysis.bot_games.play_piece`): one process
at a low OS priority that no live table's bot ever waits for, shared with the
reviews piece by piece. The supply is a task started with the server: start-up
does not wait for it; stopping cancels it between pieces; after a restart it
counts the pool again and goes on. Servers sharing a store take turns per game
through a claim that lasts :data:`CLAIM_S` (:meth:`Ownership.claim_job`), so
one server plays at a time; were two to overlap as a claim runs out, a puzzle
both find is still stored once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable

from sqlalchemy.exc import IntegrityError

from meeple.analysis.bot_games import play_piece, start_record
from meeple.analysis.review import puzzles_in_record
from meeple.games import games_with
from meeple.games.base import GameRecord
from meeple.store import queries
from meeple.store.database import Database
from meeple.tables.clock import Clock
from meeple.tables.core.bots import BotPool
from meeple.tables.core.ratings import MODEL
from meeple.tables.study.reviews import always
from meeple.tasks import cancel_and_wait

log = logging.getLogger(__name__)

PIECE_S = 1.0
"""About how long one piece of a bot game runs in the background worker."""

IDLE_S = 60.0
"""How long the supply rests when no pool is short (or another server fills them all)."""

FAILED_S = 30.0
"""How long it rests after a game failed (a bug is logged, not repeated in a tight loop)."""

CLAIM_S = 30.0
"""How long a server's turn at filling one game's pool keeps the other servers off it."""


class PuzzleSupply:
    """Keeps each puzzle pool at its target with games between the server's bots."""

    def __init__(
        self,
        db: Database,
        bots: BotPool,
        clock: Clock,
        target: int,
        budget_s: float,
        claim: Callable[[str, float], Awaitable[bool]] = always,
    ) -> None:
        self.db, self.bots, self.clock = db, bots, clock
        self.target = target
        """The fewest puzzles of a game the pool should hold; 0: no bot games at all."""
        self.budget_s = budget_s
        """Each bot's time budget per move."""
        self.claim = claim
        """Whether this server takes the next turn at a game's pool (servers sharing a store)."""
        self.games = 0
        """How many bot games this server finished."""
        self.puzzles = 0
        """How many new puzzles it stored from them."""
        self._task: asyncio.Task[None] | None = None
        self._turn_ends: dict[str, float] = {}

    def start(self) -> None:
        """Begin filling short pools in the background (nothing if the target is 0)."""
        if self.target > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Give up the game under way (a restart plays a new one if the pool is still short)."""
        await cancel_and_wait(self._task)
        self._task = None

    async def short_games(self) -> list[str]:
        """The games that cut puzzles and have fewer than the target stored."""
        return [
            game
            for game in games_with("puzzles")
            if await self.db.run(queries.puzzle_count, game) < self.target
        ]

    async def play_one(self, game: str) -> int:
        """Play one game of ``game`` between its puzzle lineup, with a fresh seed, piece by
        piece in the background worker; store its new puzzles (marked ``from_bots``) and
        return how many there were."""
        record = start_record(game, secrets.randbits(62))
        over = False
        while not over:
            text = json.dumps(record.to_json(), separators=(",", ":"))
            played, over = await self.bots.background(play_piece, text, self.budget_s, PIECE_S)
            actions = record.actions + tuple((seat, action) for seat, action in played)
            record = GameRecord(record.game, record.options, record.seed, actions)
        text = json.dumps(record.to_json(), separators=(",", ":"))
        puzzles = await self.bots.background(puzzles_in_record, text)
        first = MODEL.rating()
        added = 0
        with contextlib.suppress(IntegrityError):  # another server stored one of them first
            added = await self.db.write(
                queries.save_puzzles,
                game,
                puzzles,
                None,
                self.clock.now(),
                (first.mu, first.sigma),
                True,
            )
        self.games += 1
        self.puzzles += added
        return added

    async def _my_turn(self, game: str) -> bool:
        """Whether this server fills ``game``'s pool now: its turn runs on, or it takes one."""
        loop = asyncio.get_running_loop()
        if loop.time() < self._turn_ends.get(game, 0.0):
            return True
        if not await self.claim(f"puzzle-supply:{game}", CLAIM_S):
            return False
        # Ended a little early, so the claim has lapsed when this server asks again.
        self._turn_ends[game] = loop.time() + CLAIM_S - 2
        return True

    async def _run(self) -> None:
        while True:
            played = False
            try:
                for game in await self.short_games():
                    if await self._my_turn(game):
                        await self.play_one(game)
                        played = True
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a bot game for puzzles failed")
                await asyncio.sleep(FAILED_S)
                continue
            if not played:
                await asyncio.sleep(IDLE_S)
