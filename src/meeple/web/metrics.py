"""The server's figures for Prometheus: ``GET /metrics``, behind ``MEEPLE_METRICS_TOKEN``.

Each app has its own :class:`Metrics` (its own ``CollectorRegistry``, never the
library's global one, so a test may run several servers in one process). What the
requests do is counted as it happens, by a counter increment or a histogram
observation and nothing more: the command latencies (:meth:`Metrics.command_done`,
from :class:`~meeple.tables.cluster.writes.Writes`), the actions applied (a subscriber
to the tables' ``ActionApplied`` facts) and the open sockets and streams
(:meth:`Metrics.connected`). Everything the server counts already (the bot pool, the
forwarded calls, the leases, the rate limits, the email sender, the tables in memory)
is read when Prometheus scrapes (:class:`ServerFigures`), and the scrape itself times
one database query and one Redis ping (:meth:`Metrics.scrape`). docs/deploy.md lists
every figure.
"""

from __future__ import annotations

import time
from collections import Counter as Tally
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import text
from sqlalchemy.orm import Session

from meeple.store.emails import outbox_counts
from meeple.tables.facade import ActionApplied

if TYPE_CHECKING:
    from meeple.web.services import Services

CONNECTION_KINDS = (
    "table_socket", "lobby_socket", "account_socket", "tournament_socket",
    "game_stream", "event_stream",
)  # fmt: skip
"""What :meth:`Metrics.connected` counts: the WebSockets (a table's, the lobby's, a page's
account socket ``/ws/me``, a tournament's) and the Bot API's game and event streams."""

COMMAND_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""The latency buckets of a table command, in seconds (a forwarded call's time-out is 2 s)."""


class Metrics:
    """One server's figures, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.connections = Gauge(
            "meeple_connections",
            "Open WebSockets (table, lobby, account, tournament) and Bot API streams on this"
            " server, by kind.",
            ["kind"],
            registry=registry,
        )
        self._open = {kind: self.connections.labels(kind) for kind in CONNECTION_KINDS}
        self.commands = Histogram(
            "meeple_command_seconds",
            "Table commands from reaching Writes.run to their answer, by command and outcome"
            " (done; refused by a rule or a limit; failed: an error, or the request went away);"
            " command=act are the players' actions.",
            ["command", "outcome"],
            buckets=COMMAND_BUCKETS,
            registry=registry,
        )
        self.actions = Counter(
            "meeple_actions_applied",
            "Actions applied to the tables this server runs, by who played them"
            " (player, bot, zombie, timeout).",
            ["by"],
            registry=registry,
        )
        self.round_trips = Gauge(
            "meeple_round_trip_seconds",
            "One round trip, timed at this scrape: to=database, a SELECT 1 through the"
            " database's common queue; to=redis, a PING (only with MEEPLE_REDIS).",
            ["to"],
            registry=registry,
        )
        self.outbox = Gauge(
            "meeple_outbox_emails",
            "Emails in the outbox (all servers): pending (to send or retry) and failed (given up).",
            ["status"],
            registry=registry,
        )

    def command_done(self, command: str, outcome: str, seconds: float) -> None:
        """Count one table command and its latency (called by ``Writes.run``)."""
        self.commands.labels(command, outcome).observe(seconds)

    def action_applied(self, fact: ActionApplied) -> None:
        """Count one action applied (a subscriber to the tables' facts)."""
        self.actions.labels(fact.by).inc()

    @contextmanager
    def connected(self, kind: str) -> Iterator[None]:
        """Count one open connection of ``kind`` (:data:`CONNECTION_KINDS`) while inside."""
        gauge = self._open[kind]
        gauge.inc()
        try:
            yield
        finally:
            gauge.dec()

    def watch(self, services: Services) -> None:
        """Read the figures ``services`` keep already at each scrape (:class:`ServerFigures`)."""
        self.registry.register(ServerFigures(services))

    async def scrape(self, services: Services) -> bytes:
        """Time a database query and a Redis ping, count the outbox; every figure, as the
        Prometheus text format."""
        started = time.perf_counter()
        await services.db.run(one_query)
        self.round_trips.labels("database").set(time.perf_counter() - started)
        if services.settings.redis:
            started = time.perf_counter()
            await services.bus.ping()
            self.round_trips.labels("redis").set(time.perf_counter() - started)
        counts = await services.db.run(outbox_counts)
        for status in ("pending", "failed"):
            self.outbox.labels(status).set(counts.get(status, 0))
        return generate_latest(self.registry)


def one_query(session: Session) -> None:
    """The smallest query the database can answer."""
    session.execute(text("SELECT 1"))


class ServerFigures(Collector):
    """The figures the server's parts keep themselves, read at each scrape."""

    def __init__(self, services: Services) -> None:
        self.services = services

    def describe(self) -> Iterable[Metric]:
        """Nothing ahead of a scrape (the families depend on what the server holds)."""
        return []

    def collect(self) -> Iterable[Metric]:
        """Tables, the bot pool, forwarded calls, leases, rate limits, the email sender."""
        services = self.services
        yield self._tables()
        pool = services.bots
        yield GaugeMetricFamily(
            "meeple_bot_queue_depth",
            "Bot requests waiting for a worker on this server.",
            value=pool.queued,
        )
        yield _counter("meeple_bot_requests", "Bot moves asked of the pool.", pool.stats.requests)
        fallbacks = CounterMetricFamily(
            "meeple_bot_fallbacks",
            "Bot moves played as the greedy move instead, by reason (queue: no worker free in"
            " time; overrun: the bot ran past its budget).",
            labels=["reason"],
        )
        for reason in ("queue", "overrun"):
            fallbacks.add_metric([reason], pool.stats.fallbacks[reason])
        yield fallbacks
        calls = CounterMetricFamily(
            "meeple_forwarded_calls",
            "Table commands forwarded between servers (the counts /api/health gives): sent,"
            " sent_again, timed_out (this server's calls), answered, answered_again (other"
            " servers' calls run here).",
            labels=["kind"],
        )
        for kind, count in services.tables.cluster.calls.stats.to_json().items():
            calls.add_metric([kind], count)
        yield calls
        cluster = services.tables.cluster
        yield _counter(
            "meeple_lease_takeovers",
            "Tables this server began to run that it had not just opened: at start-up, a"
            " dead server's, or one a forwarded write found without an owner.",
            cluster.taken_over,
        )
        yield _counter(
            "meeple_leases_lost",
            "Tables this server ran whose lease another server took.",
            cluster.lost,
        )
        refusals = CounterMetricFamily(
            "meeple_rate_limit_refusals",
            "Requests refused by a rate limit on this server, by kind (MEEPLE_LIMIT_*).",
            labels=["kind"],
        )
        for kind, count in sorted(services.limits.refused.items()):
            refusals.add_metric([kind], count)
        yield refusals
        yield _counter("meeple_emails_sent", "Emails this server sent.", services.outbox.sent)
        yield _counter(
            "meeple_email_send_failures",
            "Emails this server failed to send (each try; retried later unless the email"
            " can never be sent).",
            services.outbox.failures,
        )

    def _tables(self) -> GaugeMetricFamily:
        counts: Tally[tuple[str, str]] = Tally()
        for table in list(self.services.tables.tables.values()):
            counts[table.snap.status, "true" if table.owned else "false"] += 1
        family = GaugeMetricFamily(
            "meeple_tables",
            "Tables in this server's memory, by status (open, playing, finished, closed) and"
            " whether this server runs them (owned) or keeps a copy.",
            labels=["status", "owned"],
        )
        for (status, owned), count in sorted(counts.items()):
            family.add_metric([status, owned], count)
        return family


def _counter(name: str, documentation: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, documentation, value=value)
