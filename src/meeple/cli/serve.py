"""``meeple serve``: run the game server (REST, WebSockets, bots) with no settings needed."""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.util
import logging
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy.exc import SQLAlchemyError

from meeple.config import ConfigError, Settings, load_settings
from meeple.games.kit.commands import fail
from meeple.observe.logs import configure_logging

LOG_LEVELS = {
    "trace": 5,
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
}
"""``--log-level``'s names (uvicorn's: its ``trace`` is below debug) and their levels."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` command."""
    parser = subparsers.add_parser(
        "serve",
        help="run the game server",
        description=(
            "Run the game server. With no settings it keeps a SQLite file in the user's data"
            " folder and uses an in-process event bus. Every flag can also be set with a"
            " MEEPLE_* environment variable (MEEPLE_HOST, MEEPLE_PORT, MEEPLE_DB, ...)."
        ),
    )
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (default 8000)")
    parser.add_argument("--db", help="database URL: sqlite:///FILE or postgresql://...")
    parser.add_argument(
        "--redis",
        help="redis:// URL, to share tables between servers; rediss://:PASSWORD@HOST:PORT/0"
        "?ssl_ca_certs=CA.pem for TLS with a password",
    )
    parser.add_argument(
        "--public-url",
        help="with --redis: the address players reach this server at; the clients of a table"
        " it owns are told to connect there",
    )
    parser.add_argument("--data-dir", help="folder for the SQLite file and the secret key")
    parser.add_argument(
        "--log-level",
        default="info",
        choices=sorted(LOG_LEVELS),
        help="the least a record must be to be logged (default info); MEEPLE_LOG_FORMAT=json"
        " writes JSON lines (docs/operations.md)",
    )
    parser.set_defaults(func=run)


def preflight(settings: Settings) -> None:
    """Load the extra games, open and migrate the database (and reach Redis) now.

    So that each failure is one line naming its setting.
    """
    from meeple.plugins import load_games
    from meeple.store.database import Database, MigrationRefused

    try:
        load_games(settings.extra_game_modules())
    except Exception as exc:
        fail(f"cannot load the games of MEEPLE_EXTRA_GAMES ({settings.extra_games}): {exc}")

    shown_db = without_password(settings.database_url)
    try:
        db = Database(settings.database_url)
        try:
            db.migrate()
        finally:
            db.close()
    except MigrationRefused as exc:
        fail(f"cannot upgrade the database MEEPLE_DB ({shown_db}): {exc}")
    except (SQLAlchemyError, OSError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        fail(f"cannot open the database MEEPLE_DB ({shown_db}): {reason}")
    if settings.redis:
        from meeple.bus.redis import RedisBus

        async def ping(url: str) -> None:
            bus = RedisBus(url)
            try:
                await bus.ping()
            finally:
                await bus.close()

        try:
            asyncio.run(ping(settings.redis))
        except Exception as exc:
            fail(f"cannot reach MEEPLE_REDIS ({without_password(settings.redis)}): {exc}")


def without_password(url: str) -> str:
    """``url`` with its password (if any) shown as ``***``, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def event_loop() -> str:
    """uvicorn's ``loop`` setting: uvloop accepting connections in batches where uvloop is
    installed (:class:`meeple.web.reconnect_rush.BatchAcceptLoop`), asyncio's loop elsewhere."""
    if importlib.util.find_spec("uvloop") is None:
        return "asyncio"
    return "meeple.web.reconnect_rush:new_event_loop"


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn serves the app: address, WebSocket implementation, proxy trust.

    ``X-Forwarded-For`` is believed only from the operator's trusted proxies;
    uvicorn's own default would believe it from 127.0.0.1, so that anyone on
    the machine (or a proxy passing the header through) picks their address.
    """
    proxies = settings.proxy_addresses()
    return {
        "host": settings.host,
        "port": settings.port,
        # websockets' sans-I/O protocol, writing once per turn of the loop (web/joined_writes).
        "ws": "meeple.web.joined_writes:JoinedWritesProtocol",
        "loop": event_loop(),
        # Views are small and sent often: compressing each costs more CPU than it saves.
        "ws_per_message_deflate": False,
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies or [],
    }


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    import uvicorn

    from meeple.web.app import create_app

    try:
        settings = load_settings(
            host=args.host,
            port=args.port,
            db=args.db,
            redis=args.redis,
            data_dir=args.data_dir,
            public_url=args.public_url,
        )
    except ConfigError as exc:
        fail(str(exc))
    configure_logging(settings.log_format, LOG_LEVELS[args.log_level])
    preflight(settings)
    app = create_app(settings)
    tune_gc()
    # No log_config: uvicorn's records go to the root logger's one handler, as every other.
    uvicorn.run(app, **uvicorn_options(settings), log_level=args.log_level, log_config=None)
    return 0


GC_THRESHOLDS = (20_000, 20, 50)
"""The collector's thresholds in the server (Python's default is (700, 10, 10))."""


def tune_gc() -> None:
    """Fewer, cheaper garbage collections in the server process.

    With hundreds of tables in memory (their states, views, sockets) a full
    collection walks millions of objects, and its pauses make the tail of the
    round trips (docs/benchmarks.md). What exists at start-up (modules, the app)
    is frozen out of the collector's sight, and the young generation is
    collected every 20,000 allocations instead of 700: the server makes few
    reference cycles, so memory barely grows for it.
    """
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
