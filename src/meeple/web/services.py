"""Everything the routes share, built at start-up: settings, store, bus, bots, tables."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from meeple.bus import Bus, make_bus
from meeple.config import Settings
from meeple.ratelimit import RateLimits
from meeple.store.database import Database
from meeple.store.sessions import shared_secret
from meeple.tables.bots import BotPool
from meeple.tables.challenges import Challenges
from meeple.tables.clock import Clock, SystemClock
from meeple.tables.manager import TableManager
from meeple.tables.online_bots import OnlineBots
from meeple.tables.turn_emails import TurnEmails
from meeple.tables.unsubscribe import UnsubscribeSigner
from meeple.web.last_seen import LastSeen
from meeple.web.ndjson import StreamCounts
from meeple.web.presence import PresenceNews
from meeple.web.security import SessionSigner
from meeple.web.session_checks import SessionChecks
from meeple.web.socket_caps import SocketCaps
from meeple.web.token_checks import TokenChecks


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
    limits: RateLimits
    session_checks: SessionChecks
    token_checks: TokenChecks
    """Personal access tokens looked up in the store, batched."""
    socket_caps: SocketCaps
    presence: PresenceNews
    online_bots: OnlineBots
    """The bot accounts with an event stream open ("Play a bot" lists them)."""
    challenges: Challenges
    """Challenges between accounts: sent, answered, lapsed (``meeple.tables.challenges``)."""
    last_seen: LastSeen
    """When each account was last on the site (written at most once a minute)."""
    turn_emails: TurnEmails | None = None
    """The emails that bring players back (listens to notifications; its signer makes and
    reads unsubscribe links)."""
    streams: StreamCounts = field(default_factory=StreamCounts)
    """The Bot API's NDJSON streams open here, per token (or account)."""

    @classmethod
    def build(cls, settings: Settings, clock: Clock | None = None) -> Services:
        """Open the database (migrating it), the bus and the bot pool."""
        clock = clock or SystemClock()
        db = Database(settings.database_url)
        db.migrate()
        bus = make_bus(settings.redis)
        bots = BotPool(settings.bot_workers, settings.bot_executor, settings.extra_game_modules())
        limits = RateLimits(settings.rate_limits(), settings.redis)
        tables = TableManager(db, bus, clock, bots, settings, limits)
        key = session_key(settings, db)
        caps = SocketCaps(settings.max_sockets_per_address, settings.max_sockets_per_user)
        turn_emails = TurnEmails(
            db, clock, settings, UnsubscribeSigner(key), lambda user_id: caps.open_for(user_id) > 0
        )
        tables.notifier.add_listener(turn_emails.on_note)
        return cls(
            turn_emails=turn_emails,
            settings=settings,
            clock=clock,
            db=db,
            bus=bus,
            bots=bots,
            tables=tables,
            signer=SessionSigner(key),
            limits=limits,
            session_checks=SessionChecks(db, clock.now),
            token_checks=TokenChecks(db, clock.now),
            socket_caps=caps,
            presence=PresenceNews(bus, tables.server_id),
            online_bots=OnlineBots(bus, tables.server_id),
            last_seen=LastSeen(db, clock.now),
            challenges=Challenges(db, bus, clock, settings, tables.matchmaking, tables.notifier),
        )

    async def close(self) -> None:
        """Stop tables, bots, bus and database, in that order."""
        self.presence.stop()
        await self.online_bots.stop()
        await self.challenges.stop()
        await self.tables.stop()
        self.bots.close()
        await self.bus.close()
        self.db.close()


def session_key(settings: Settings, db: Database) -> str:
    """The key that signs session cookies: the one given, else the one in the database.

    The first server to start on a database creates it (taking over a key an
    earlier version kept in the data folder), and every server after reads it,
    so a cookie from one server is good on all of them.
    """
    if settings.secret_key:
        return settings.secret_key
    return db.call(
        shared_secret,
        "session_key",
        lambda: settings.kept_secret_key() or secrets.token_urlsafe(48),
    )
