"""The server's settings: one pydantic ``Settings``, from flags or ``MEEPLE_*`` variables.

With no settings at all the server keeps a SQLite file in the user's data
folder (``$XDG_DATA_HOME/meeple``, else ``~/.local/share/meeple``) and uses
the in-process event bus. Unless ``MEEPLE_SECRET_KEY`` is given, the key that
signs session cookies is generated once and kept in the database, so every
server sharing that database signs alike. A wrong setting is reported by :func:`load_settings` as a
:class:`ConfigError` whose one-line message names it, and so is a ``MEEPLE_*`` variable that
names no setting.
"""

from __future__ import annotations

import difflib
import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import SettingsConfigDict

from meeple.moderation_settings import ModerationSettings
from meeple.observe.settings import ObserveSettings
from meeple.tournament_settings import TournamentSettings

SECRET_KEY_FILE = "secret_key"
"""The file, in the data folder, that keeps the generated secret key."""

MIN_SECRET_KEY_LENGTH = 32


class ConfigError(ValueError):
    """A setting that stops start-up; the message names it in one line."""


def default_data_dir() -> Path:
    """The user's data folder for meeple, following the XDG base directory rule."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "meeple"


class Settings(ObserveSettings, TournamentSettings, ModerationSettings):
    """Every setting of the server; each is read from ``MEEPLE_<NAME>`` as well (those of
    what an operator watches are in :class:`~meeple.observe.settings.ObserveSettings`, those
    of tournaments in :class:`~meeple.tournament_settings.TournamentSettings`)."""

    model_config = SettingsConfigDict(env_prefix="MEEPLE_", extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    data_dir: Path = Field(default_factory=default_data_dir)
    db: str | None = Field(None, description="SQLAlchemy URL; default: SQLite in data_dir")
    redis: str | None = Field(
        None,
        description="redis:// URL; rediss://:PASSWORD@HOST:PORT/0?ssl_ca_certs=CA.pem for TLS"
        " (the bus carries seats' secrets, as the database does); default: the in-process bus",
    )
    secret_key: str | None = Field(
        None, description="signs session cookies; default: one kept in the database"
    )
    cookie_secure: bool = False
    bot_workers: int = Field(
        default_factory=lambda: max(1, min(64, os.cpu_count() or 2)),
        ge=1,
        le=64,
        description="bot worker processes; default: one per core",
    )
    bot_executor: str = Field("process", pattern="^(process|thread)$")
    bot_budget_s: float = Field(0.5, gt=0, le=60)
    bot_min_think_s: float = Field(
        0.7,
        ge=0,
        le=10,
        description="a bot's move lands no sooner than this after it starts thinking, so"
        " people see it think; 0 in tests",
    )
    lease_s: float = Field(
        2.0,
        gt=0.2,
        le=60,
        description="with several servers, how long a table's owner keeps it without renewing;"
        " a dead owner's tables are taken over within about this",
    )
    public_url: str | None = Field(
        None,
        description="with several servers, the address this server's players can reach it at"
        " (http(s)://host[:port][/path]); clients of a table it owns are told to connect"
        " here; default: none, a client stays where it connected",
    )
    site_url: str | None = Field(
        None,
        description="the site's address (http(s)://host[:port][/path]) that every link in an"
        " email points at; with email on it is needed, MEEPLE_PUBLIC_URL serving when unset",
    )
    max_message_bytes: int = Field(16384, ge=256)
    max_sockets_per_address: int = Field(
        200,
        ge=1,
        description="table and lobby sockets one client address may hold open on this server"
        " (the address the rate limits count, MEEPLE_TRUSTED_PROXIES); generous, as a school"
        " or a mobile carrier puts many people behind one address",
    )
    max_sockets_per_user: int = Field(
        30, ge=1, description="table sockets one signed-in user may hold open on this server"
    )
    chat_max_chars: int = Field(500, ge=1)
    limit_auth: str = Field("10/minute", description="log-in and sign-up tries per address")
    limit_guests: str = Field(
        "60/minute;300/hour",
        description="guest accounts made per address; a classroom behind one address makes"
        " 30-odd at once, a script thousands (docs/security.md, Limits)",
    )
    limit_chat: str = Field("20/minute", description="chat lines per user")
    limit_tables: str = Field("30/hour", description="tables opened per user")
    limit_analysis: str = Field(
        "60/minute", description="positions analysed per address (the analysis board, hints)"
    )
    limit_puzzle_answers: str = Field(
        "30/minute",
        description="puzzle answers per signed-in user, or per address for anonymous answers",
    )
    limit_challenges: str = Field(
        "20/minute", description="challenges sent per account (POST /api/challenges)"
    )
    challenge_ttl_s: float = Field(
        600, gt=0, description="an open challenge lapses this many seconds after it was sent"
    )
    max_challenges_sent: int = Field(
        20, ge=1, description="open challenges one account may have sent at once (all servers)"
    )
    max_challenges_received: int = Field(
        50,
        ge=1,
        description="open challenges one account may be sent at once, from everyone (all"
        " servers); one more is refused to its sender",
    )
    limit_challenge_notifications: str = Field(
        "30/hour",
        description="challenge notifications one account is given; a challenge beyond it is"
        " still sent, without a notification",
    )
    limit_api: str = Field(
        "300/minute",
        description="Bot API requests (acting, chatting, leaving, opening streams) per token,"
        " or per account with the session cookie",
    )
    smtp_url: str | None = Field(
        None,
        description="where email is sent: smtp://user:password@host:port?starttls=true or"
        " smtps://user:password@host:465; default: none, email is off (no addresses, no"
        " password reset by email, no notification emails)",
    )
    email_from: str = Field(
        "meeple <noreply@localhost>", description="the From of every email the server sends"
    )
    email_away_s: float = Field(
        900,
        gt=0,
        description="a player not seen on the site for this long (and with no tab open) is"
        " away: their turn in a turn-based game is emailed",
    )
    email_digest_after: int = Field(
        3,
        ge=2,
        description="a 'your turn' email due while this many were due within"
        " MEEPLE_EMAIL_DIGEST_WINDOW_S (itself included) becomes the day's one digest; the"
        " turns due later that day send no more email",
    )
    email_digest_window_s: float = Field(
        3600, gt=0, description="the window MEEPLE_EMAIL_DIGEST_AFTER counts due turns in"
    )
    limit_emails: str = Field(
        "5/hour;20/day",
        description="verification and password-reset emails per address and per account",
    )
    stream_keepalive_s: float = Field(
        5.0, gt=0, le=300, description="a blank line on a quiet NDJSON stream this often"
    )
    stream_buffer: int = Field(
        256,
        ge=4,
        le=100_000,
        description="lines waiting for an NDJSON stream's client before it is dropped",
    )
    stream_recheck_s: float = Field(
        10.0,
        gt=0,
        le=3600,
        description="the tokens and sessions of every open NDJSON stream are checked again this"
        " often, in one query per server (a revocation, a sign-out or a password change ends"
        " its streams at once, by broadcast; this catches an expiry)",
    )
    max_streams_per_token: int = Field(
        8, ge=1, description="NDJSON streams open at once per token, on all servers together"
    )
    max_streams_per_account: int = Field(
        16,
        ge=1,
        description="NDJSON streams open at once per account (its tokens and its sessions), on"
        " all servers together",
    )
    max_streams_per_address: int = Field(
        32,
        ge=1,
        description="NDJSON streams open at once per client address (IPv6: per /64), on all"
        " servers together",
    )
    max_streams_per_server: int = Field(
        4000,
        ge=1,
        description="NDJSON streams open at once on this server, whoever holds them (each idle"
        " one holds about 46 KiB: docs/benchmarks.md)",
    )
    bots_rated_vs_people: bool = Field(
        True,
        description="a game between a bot account and people may be rated (false: such a"
        " game rates nobody)",
    )
    puzzle_rater_games: int = Field(
        10,
        ge=0,
        description="a puzzle's rating and its attempts/solved counts move only with the first"
        " answers of accounts that have finished at least this many rated games of the"
        " puzzle's game (their rating there is no longer provisional); 0: every account",
    )
    puzzle_pool_target: int = Field(
        50,
        ge=0,
        description="puzzles of each game that cuts them the server keeps at least: while a"
        " game has fewer, its strongest bots play each other in the background (the bot"
        " pool's lowest priority) and their games' puzzles are stored; 0: no bot games",
    )
    trusted_proxies: str = Field(
        "",
        description="addresses (or networks) of reverse proxies whose X-Forwarded-For is"
        " believed, comma-separated; default: none, the peer's address is the client's",
    )
    min_password_length: int = Field(8, ge=4)
    timeouts_before_zombie: int = Field(3, ge=1)
    quick_play_bots_after_s: float = Field(
        15, ge=0, description="bots take a quick-play table's free seats after this; 0: never"
    )
    waiting_expiry_realtime_s: float = Field(
        1800,
        ge=60,
        description="a real-time table still waiting for players closes this long after its"
        " seats last changed (opened, joined, left)",
    )
    waiting_expiry_turn_s: float = Field(
        7 * 86_400,
        ge=60,
        description="the same for a turn-based table (pace turn), whose players come by days",
    )
    max_waiting_tables: int = Field(
        5,
        ge=1,
        description="tables one player may have opened that still wait for players, on all"
        " servers together (the next is refused: 409 too_many_tables)",
    )
    extra_games: str = Field(
        "",
        description="modules of games that are not built in, comma-separated; each has a"
        " register() (docs/adding-a-game.md)",
    )

    @field_validator("db")
    @classmethod
    def _known_database(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("sqlite", "postgresql")):
            raise ValueError("must be a sqlite:/// or postgresql:// URL")
        return value

    @field_validator("redis")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("must be a redis:// URL")
        return value

    @field_validator("public_url", "site_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("must be an http:// or https:// URL with a host")
        if parts.query or parts.fragment:
            raise ValueError("must have no query (?) or fragment (#)")
        return value.rstrip("/")

    @field_validator("smtp_url")
    @classmethod
    def _smtp_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("must be smtp://[user:password@]host[:port] or smtps://…")
        return value

    @model_validator(mode="after")
    def _links_need_an_address(self) -> Settings:
        if self.smtp_url and not self.links_url:
            raise ValueError(
                "MEEPLE_SMTP_URL needs MEEPLE_SITE_URL (or MEEPLE_PUBLIC_URL):"
                " the links in emails point there"
            )
        return self

    @property
    def links_url(self) -> str | None:
        """Where the links in emails point: ``MEEPLE_SITE_URL``, else ``MEEPLE_PUBLIC_URL``."""
        return self.site_url or self.public_url

    @field_validator("secret_key")
    @classmethod
    def _long_secret(cls, value: str | None) -> str | None:
        if value is not None and len(value) < MIN_SECRET_KEY_LENGTH:
            raise ValueError(f"must be at least {MIN_SECRET_KEY_LENGTH} characters")
        return value

    @field_validator(
        "limit_auth",
        "limit_guests",
        "limit_chat",
        "limit_tables",
        "limit_analysis",
        "limit_puzzle_answers",
        "limit_challenges",
        "limit_challenge_notifications",
        "limit_emails",
    )
    @classmethod
    def _readable_limit(cls, value: str) -> str:
        from meeple.ratelimit import parse_limit

        try:
            parse_limit(value)
        except ValueError as exc:
            raise ValueError(
                f"must read like '10/minute', '20 per hour' or '60/minute;300/hour' ({exc})"
            ) from None
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _proxy_addresses(cls, value: str) -> str:
        for part in filter(None, (p.strip() for p in value.split(","))):
            try:
                ipaddress.ip_network(part, strict=False)
            except ValueError:
                raise ValueError(f"{part!r} is not an IP address or network") from None
        return value

    def rate_limits(self) -> dict[str, str]:
        """Each limited kind of request and its limit (for :class:`meeple.ratelimit.RateLimits`)."""
        return {
            "login": self.limit_auth,
            "register": self.limit_auth,
            "guest": self.limit_guests,
            "chat": self.limit_chat,
            "tables": self.limit_tables,
            "analysis": self.limit_analysis,
            "puzzle_answers": self.limit_puzzle_answers,
            "challenges": self.limit_challenges,
            "challenge_notifications": self.limit_challenge_notifications,
            "api": self.limit_api,
            "emails": self.limit_emails,
        }

    def extra_game_modules(self) -> list[str]:
        """The modules of the games to load besides the built-in ones."""
        return [m.strip() for m in self.extra_games.split(",") if m.strip()]

    def proxy_addresses(self) -> list[str]:
        """The trusted proxies as a list (empty: trust no forwarding header)."""
        return [p.strip() for p in self.trusted_proxies.split(",") if p.strip()]

    @property
    def email_enabled(self) -> bool:
        """Whether the server sends email (``MEEPLE_SMTP_URL`` is set)."""
        return self.smtp_url is not None

    @property
    def database_url(self) -> str:
        """The database URL: the given one, else a SQLite file in the data folder."""
        return self.db or f"sqlite:///{self.data_dir / 'meeple.db'}"

    def kept_secret_key(self) -> str | None:
        """The secret key an earlier version kept in the data folder, if there is one.

        The key now lives in the database, shared by every server; a key found
        here becomes that key once, so existing sessions survive the upgrade.
        """
        path = self.data_dir / SECRET_KEY_FILE
        if path.exists():
            return path.read_text(encoding="utf-8").strip() or None
        return None


NOT_SETTINGS = frozenset(
    {"MEEPLE_TOKEN", "MEEPLE_NO_COMPILE", "MEEPLE_REQUIRE_COMPILED", "MEEPLE_SUMMY_ENGINE"}
    | {"MEEPLE_SLIDE_PLAYOUT_ENGINE", "MEEPLE_REQUIRE_SERVICES", "MEEPLE_TEST_PG"}
    | {"MEEPLE_TEST_REDIS"}
)
"""``MEEPLE_*`` variables other parts read, not refused: ``meeple bot run``'s token, ``pip
install``'s and the compiled cores' (:mod:`meeple.compiled`), the test suite's."""


def check_names(environ: Mapping[str, str]) -> None:
    """Refuse a ``MEEPLE_*`` variable that names no setting (a misspelt one would be ignored).

    :class:`ConfigError` names it, with the setting it most looks like.
    """
    known = sorted(f"MEEPLE_{name.upper()}" for name in Settings.model_fields)
    for variable in sorted(environ):
        name = variable.upper()
        if name.startswith("MEEPLE_") and name not in known and name not in NOT_SETTINGS:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise ConfigError(f"unknown setting {variable}{hint}: docs/server.md lists them")


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment with ``overrides`` (flags) on top.

    ``None`` overrides are ignored, so unset flags fall back to the
    environment. Raises :class:`ConfigError` naming the first wrong setting,
    or a ``MEEPLE_*`` variable that is no setting.
    """
    check_names(os.environ)
    given = {key: value for key, value in overrides.items() if value is not None}
    try:
        settings = Settings(**given)
    except ValidationError as exc:
        error = exc.errors()[0]
        if not error["loc"]:  # a rule between settings: its message names them
            raise ConfigError(f"bad settings: {error['msg']}") from exc
        name = ".".join(str(part) for part in error["loc"]) or "settings"
        shown = f"MEEPLE_{name.upper()}" if name not in given else f"--{name.replace('_', '-')}"
        raise ConfigError(f"bad setting {shown}: {error['msg']}") from exc
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"bad setting MEEPLE_DATA_DIR: {exc.strerror or exc}") from exc
    return settings
