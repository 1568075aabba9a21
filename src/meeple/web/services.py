"""Everything the routes share, built at start-up: settings, store, bus, bots, tables."""

from __future__ import annotations

from dataclasses import dataclass

from meeple.bus import Bus, make_bus
from meeple.config import Settings
from meeple.store.database import Database
from meeple.tables.bots import BotPool
from meeple.tables.clock import Clock, SystemClock
from meeple.tables.manager import TableManager
from meeple.web.security import RateLimiter, SessionSigner


@dataclass
class Services:
    """The running server's parts, kept on ``app.state.services``."""

    settings: Settings
    clock: Clock
    db: Database
    bus: Bus
    bots: BotPool
    tables: TableManager
    signer: SessionSigner
    auth_limiter: RateLimiter

    @classmethod
    def build(cls, settings: Settings, clock: Clock | None = None) -> Services:
        """Open the database (migrating it), the bus and the bot pool."""
        clock = clock or SystemClock()
        db = Database(settings.database_url)
        db.migrate()
        bus = make_bus(settings.redis)
        bots = BotPool(settings.bot_workers, settings.bot_executor)
        tables = TableManager(db, bus, clock, bots, settings)
        return cls(
            settings=settings,
            clock=clock,
            db=db,
            bus=bus,
            bots=bots,
            tables=tables,
            signer=SessionSigner(settings.resolved_secret_key()),
            auth_limiter=RateLimiter(settings.auth_attempts_per_minute),
        )

    async def close(self) -> None:
        """Stop tables, bots, bus and database, in that order."""
        await self.tables.stop()
        self.bots.close()
        await self.bus.close()
        self.db.close()
