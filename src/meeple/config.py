"""The server's settings: one pydantic ``Settings``, from flags or ``MEEPLE_*`` variables.

With no settings at all the server keeps a SQLite file in the user's data
folder (``$XDG_DATA_HOME/meeple``, else ``~/.local/share/meeple``), uses the
in-process event bus, and generates a secret key on first run, kept in that
folder. A wrong setting is reported by :func:`load_settings` as a
:class:`ConfigError` whose one-line message names it.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

SECRET_KEY_FILE = "secret_key"
"""The file, in the data folder, that keeps the generated secret key."""

MIN_SECRET_KEY_LENGTH = 32


class ConfigError(ValueError):
    """A setting that stops start-up; the message names it in one line."""


def default_data_dir() -> Path:
    """The user's data folder for meeple, following the XDG base directory rule."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "meeple"


class Settings(BaseSettings):
    """Every setting of the server; each is read from ``MEEPLE_<NAME>`` as well."""

    model_config = SettingsConfigDict(env_prefix="MEEPLE_", extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    data_dir: Path = Field(default_factory=default_data_dir)
    db: str | None = Field(None, description="SQLAlchemy URL; default: SQLite in data_dir")
    redis: str | None = Field(None, description="redis:// URL; default: the in-process bus")
    secret_key: str | None = Field(None, description="signs session cookies; generated if unset")
    cookie_secure: bool = False
    bot_workers: int = Field(2, ge=1, le=64)
    bot_executor: str = Field("process", pattern="^(process|thread)$")
    bot_budget_s: float = Field(0.5, gt=0, le=60)
    max_message_bytes: int = Field(16384, ge=256)
    chat_max_chars: int = Field(500, ge=1)
    chat_per_minute: int = Field(20, ge=1)
    auth_attempts_per_minute: int = Field(10, ge=1)
    min_password_length: int = Field(8, ge=4)
    timeouts_before_zombie: int = Field(3, ge=1)

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

    @field_validator("secret_key")
    @classmethod
    def _long_secret(cls, value: str | None) -> str | None:
        if value is not None and len(value) < MIN_SECRET_KEY_LENGTH:
            raise ValueError(f"must be at least {MIN_SECRET_KEY_LENGTH} characters")
        return value

    @property
    def database_url(self) -> str:
        """The database URL: the given one, else a SQLite file in the data folder."""
        return self.db or f"sqlite:///{self.data_dir / 'meeple.db'}"

    def resolved_secret_key(self) -> str:
        """The secret key: the given one, else the one kept in the data folder.

        The first call without a key generates one and writes it (mode 0600),
        so sessions survive a restart.
        """
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / SECRET_KEY_FILE
        if path.exists():
            return path.read_text(encoding="utf-8").strip()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(key + "\n")
        return key


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment with ``overrides`` (flags) on top.

    ``None`` overrides are ignored, so unset flags fall back to the
    environment. Raises :class:`ConfigError` naming the first wrong setting.
    """
    given = {key: value for key, value in overrides.items() if value is not None}
    try:
        settings = Settings(**given)
    except ValidationError as exc:
        error = exc.errors()[0]
        name = ".".join(str(part) for part in error["loc"]) or "settings"
        shown = f"MEEPLE_{name.upper()}" if name not in given else f"--{name.replace('_', '-')}"
        raise ConfigError(f"bad setting {shown}: {error['msg']}") from exc
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"bad setting MEEPLE_DATA_DIR: {exc.strerror or exc}") from exc
    return settings
