"""Everything the routes share, built at start-up in one place: :meth:`Services.build`.

This is the server's one composition root: every service (store, bus, bots, the tables'
parts, the features around the tables) is built here, each handed what it needs when
it is built, and here the features subscribe to the facts the tables publish
(:mod:`meeple.tables.facts`): adding a feature that follows the tables (tournaments)
is building it here and subscribing it.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from meeple.bus import Bus, make_bus
from meeple.config import Settings
from meeple.ratelimit import RateLimits
from meeple.store.database import Database
from meeple.store.sessions import shared_secret
from meeple.store.tournaments import seen_since
from meeple.tables.facade import (
    ActionApplied,
    BotPool,
    CallRouter,
    Challenges,
    Clock,
    Cluster,
    Fact,
    Friends,
    GameFinished,
    GameStarted,
    LobbyCache,
    LobbyNews,
    Matchmaking,
    Moderation,
    MyTurns,
    Notifier,
    OnlineBots,
    OwnerStates,
    PuzzleSupply,
    RematchAsked,
    Reviewer,
    SeatLeft,
    SeatNews,
    SeatTaken,
    Sender,
    SystemClock,
    TableClosed,
    TableContext,
    TableFacts,
    TableManager,
    TableNotices,
    TableOpened,
    TableRegistry,
    TournamentRunner,
    Tournaments,
    TurnEmails,
    TurnStarted,
    UnsubscribeSigner,
    Writes,
    build_lobby,
    lease_ownership,
    let_go,
)
from meeple.web.last_seen import LastSeen
from meeple.web.metrics import Metrics
from meeple.web.presence import PresenceNews
from meeple.web.revocations import Revocations
from meeple.web.security import SessionSigner
from meeple.web.session_checks import SessionChecks
from meeple.web.socket_caps import SocketCaps
from meeple.web.stream_caps import StreamCounts, make_stream_counts
from meeple.web.token_checks import TokenChecks

LOBBY_STANDING = (TableOpened, SeatTaken, SeatLeft, GameStarted, GameFinished, TableClosed)
"""The facts that change a table's place in the lobby."""


@dataclass
class Services:
    """The running server's parts, kept on ``app.state.services``."""

    settings: Settings
    clock: Clock
    db: Database
    bus: Bus
    bots: BotPool
    tables: TableManager
    facts: TableFacts
    """The hook the tables publish what happens to them on; features subscribe in :meth:`build`."""
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
    """Challenges between accounts: sent, answered, lapsed (``meeple.tables.lobby.challenges``)."""
    last_seen: LastSeen
    """When each account was last on the site (written at most once a minute)."""
    revocations: Revocations
    """Tells every server that a token or session ended, so its streams end."""
    notifier: Notifier
    """Makes the notifications in the site (:mod:`meeple.tables.notices.notifications`)."""
    turn_emails: TurnEmails
    """The emails that bring players back (listens to notifications; its signer makes and
    reads unsubscribe links)."""
    outbox: Sender
    """Sends the outbox's emails (:mod:`meeple.tables.notices.outbox`), once across servers."""
    reviewer: Reviewer
    """Reviews every finished game once, in the background."""
    puzzle_supply: PuzzleSupply
    """Fills a short puzzle pool from games between the server's bots, in the background."""
    tournaments: Tournaments
    """Tournaments: created, joined, read (:mod:`meeple.tables.tournaments.service`); its
    runner pairs them (:mod:`meeple.tables.tournaments.runner`)."""
    moderation: Moderation
    """Reports, blocks, the moderators' queue and actions (docs/moderation.md)."""
    friends: Friends
    """Follows, the friends list, and the notices about followed accounts
    (:mod:`meeple.tables.notices.friends`)."""
    streams: StreamCounts = field(default_factory=StreamCounts)
    """The Bot API's open NDJSON streams per token, account and address (in Redis when
    servers share one)."""
    metrics: Metrics = field(default_factory=Metrics)
    """The server's figures for ``/metrics`` (:mod:`meeple.web.metrics`)."""

    @classmethod
    def build(cls, settings: Settings, clock: Clock | None = None) -> Services:
        """Open the database (migrating it), the bus and the bot pool; build the tables and
        every feature around them, each following the tables' facts it needs."""
        clock = clock or SystemClock()
        db = Database(settings.database_url)
        db.migrate()
        bus = make_bus(settings.redis)
        bots = BotPool(settings.bot_workers, settings.bot_executor, settings.extra_game_modules())
        safety = settings.safety_limits()  # reports and blocks (docs/moderation.md)
        limits = RateLimits({**settings.rate_limits(), **safety}, settings.redis)
        key = session_key(settings, db)
        caps = SocketCaps(settings.max_sockets_per_address, settings.max_sockets_per_user)

        # The tables: their hook, the cluster that runs them, the one way to change them.
        facts = TableFacts()
        states = OwnerStates()
        ownership = lease_ownership(bus, settings)
        ctx = TableContext(db, bus, clock, bots, settings, limits, states, facts)
        shared = settings.redis is not None
        registry = TableRegistry(db, ctx, shared, functools.partial(let_go, states, ownership))
        calls = CallRouter(bus, ownership.server_id, registry.get, settings.public_url)
        cluster = Cluster(db, settings, states, registry, ownership, calls)
        lobby_cache = LobbyCache(functools.partial(build_lobby, db, registry))
        matchmaking = Matchmaking(db, bus, clock, registry, cluster, lobby_cache, facts)
        metrics = Metrics()
        writes = Writes(cluster, matchmaking.rematch, metrics.command_done)
        tables = TableManager(settings, db, bus, registry, cluster, matchmaking, writes, facts)

        # The features around the tables.
        turn_emails = TurnEmails(
            db, clock, settings, UnsubscribeSigner(key), lambda user_id: caps.open_for(user_id) > 0
        )
        notifier = Notifier(db, bus, clock, [turn_emails.on_note])
        notices = TableNotices(notifier, facts.soon)
        news = LobbyNews(bus, lobby_cache)
        seat_news = SeatNews(bus, facts.soon)
        my_turns = MyTurns(bus, db, registry)
        reviewer = Reviewer(db, bots, clock, registry.record, ownership.claim_job)
        puzzle_supply = PuzzleSupply(
            db, bots, clock, settings.puzzle_pool_target, settings.bot_budget_s, reviewer.claim
        )
        online_bots = OnlineBots(bus, tables.server_id)
        present = functools.partial(present_accounts, db, clock, caps, online_bots)
        runner = TournamentRunner(
            db, clock, ownership, registry, matchmaking, present, notifier, settings.recurring()
        )
        friends = Friends(db, clock, notifier, facts.soon, caps.open_for, online_bots)

        # What follows each table's change, after its answer.
        for kind in LOBBY_STANDING:
            facts.subscribe(kind, news.changed)
        facts.each_pass(news.tell_due)
        facts.subscribe(GameStarted, seat_news.changed)
        facts.subscribe(GameFinished, seat_news.changed)
        facts.subscribe(Fact, my_turns.noted)
        facts.each_pass(my_turns.tell_due)
        facts.subscribe(TurnStarted, notices.turn_started)
        facts.subscribe(GameFinished, notices.game_finished)
        facts.subscribe(RematchAsked, notices.rematch_asked)
        facts.subscribe(GameFinished, reviewer.finished)
        facts.subscribe(GameFinished, registry.table_over)
        facts.subscribe(TableClosed, registry.table_over)
        facts.subscribe(ActionApplied, metrics.action_applied)
        facts.subscribe(GameFinished, runner.game_finished)
        facts.each_pass(runner.record_due)

        return cls(
            settings=settings,
            clock=clock,
            db=db,
            bus=bus,
            bots=bots,
            tables=tables,
            facts=facts,
            signer=SessionSigner(key),
            limits=limits,
            session_checks=SessionChecks(db, clock.now),
            token_checks=TokenChecks(db, clock.now),
            socket_caps=caps,
            presence=PresenceNews(bus, tables.server_id),
            online_bots=online_bots,
            last_seen=LastSeen(db, clock.now, friends.arrived),
            challenges=Challenges(db, bus, clock, settings, matchmaking, notifier, limits),
            notifier=notifier,
            turn_emails=turn_emails,
            outbox=Sender(db, clock, settings, ownership.server_id),
            reviewer=reviewer,
            puzzle_supply=puzzle_supply,
            moderation=Moderation(db, clock, notifier, limits),
            tournaments=Tournaments(db, clock, settings, runner, friends.entered),
            friends=friends,
            streams=make_stream_counts(bus, tables.server_id),
            revocations=Revocations(bus, settings.stream_recheck_s),
            metrics=metrics,
        )

    async def start(self) -> None:
        """Run the tables (taking over those nobody runs), then the background work: the
        reviews this server missed, the puzzle supply, the outbox's sender."""
        self.metrics.watch(self)
        await self.tables.start()
        self.reviewer.start()
        self.puzzle_supply.start()
        self.outbox.start()
        self.tournaments.runner.start()

    async def close(self) -> None:
        """Stop tables, background work, bots, bus and database, in that order."""
        self.presence.stop()
        await self.online_bots.stop()
        await self.streams.stop()
        await self.revocations.stop()
        await self.challenges.stop()
        await self.tournaments.runner.stop()
        await self.tables.stop()
        await self.reviewer.stop()
        await self.puzzle_supply.stop()
        await self.outbox.stop()
        self.bots.close()
        await self.bus.close()
        self.db.close()


PRESENT_SEEN_S = 90.0
"""An account seen on the site this recently (``last_seen_at``: a page's account socket
writes it every minute, on any server) is present for a tournament's pairing."""


async def present_accounts(
    db: Database, clock: Clock, caps: SocketCaps, bots: OnlineBots, user_ids: Sequence[int]
) -> set[int]:
    """Which of ``user_ids`` are on the site now, for a tournament's pairing: a socket open
    here, a Bot API stream open on any server, or seen in the last :data:`PRESENT_SEEN_S`."""
    here = {user_id for user_id in user_ids if caps.open_for(user_id) > 0}
    for user_id in user_ids:
        if user_id not in here and await bots.is_online(user_id):
            here.add(user_id)
    rest = [user_id for user_id in user_ids if user_id not in here]
    if rest:
        here |= await db.run(seen_since, rest, clock.now() - PRESENT_SEEN_S)
    return here


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
