"""The settings of what an operator watches: the metrics' token and the log's format.

:class:`ObserveSettings` is a base of :class:`meeple.config.Settings`, which reads each
from its ``MEEPLE_*`` variable like every other setting (docs/server.md lists them).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings

MIN_METRICS_TOKEN_LENGTH = 32
"""The shortest ``MEEPLE_METRICS_TOKEN``: guessing it must be out of reach."""


class ObserveSettings(BaseSettings):
    """``MEEPLE_METRICS_TOKEN`` and ``MEEPLE_LOG_FORMAT``."""

    metrics_token: str = Field(
        "",
        description="the bearer token GET /metrics asks for (32+ characters); empty: /metrics"
        " is off and answers 404",
    )

    log_format: Literal["text", "json"] = Field(
        "text",
        description="the log's lines: text, or json (one JSON object a line; docs/operations.md)",
    )

    @field_validator("metrics_token")
    @classmethod
    def _long_token(cls, value: str) -> str:
        if value and len(value) < MIN_METRICS_TOKEN_LENGTH:
            least = MIN_METRICS_TOKEN_LENGTH
            raise ValueError(f"must be empty (off) or at least {least} characters")
        return value
