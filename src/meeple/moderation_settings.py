"""The settings of chat safety: how many reports and blocks a player may make (docs/moderation.md).

:class:`ModerationSettings` is a base of :class:`meeple.config.Settings`, which reads each from
its ``MEEPLE_*`` variable like every other setting (docs/server.md lists them); the rate
limits they set join the server's others through :meth:`ModerationSettings.safety_limits`.
"""

from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings


class ModerationSettings(BaseSettings):
    """``MEEPLE_LIMIT_REPORTS`` and ``MEEPLE_LIMIT_BLOCKS``."""

    limit_reports: str = Field(
        "10/hour;30/day",
        description="reports a player makes, per account and per address (one report per"
        " reporter and reported player a day is stored; a second is the first again)",
    )
    limit_blocks: str = Field("60/hour", description="blocks a player sets, per account")

    @field_validator("limit_reports", "limit_blocks")
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

    def safety_limits(self) -> dict[str, str]:
        """The limited kinds of chat safety and their limits (for
        :class:`meeple.ratelimit.RateLimits`, beside the settings' ``rate_limits()``)."""
        return {"reports": self.limit_reports, "blocks": self.limit_blocks}
