"""The settings of tournaments: the cap on those one account holds open, and the ones the site
runs again and again (docs/tournaments.md, "Recurring tournaments").

:class:`TournamentSettings` is a base of :class:`meeple.config.Settings`, which reads each
from its ``MEEPLE_*`` variable like every other setting (docs/server.md lists them).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings


class TournamentSettings(BaseSettings):
    """``MEEPLE_MAX_OPEN_TOURNAMENTS`` and ``MEEPLE_RECURRING_TOURNAMENTS``."""

    max_open_tournaments: int = Field(
        3,
        ge=1,
        description="tournaments one account may have created that are not over yet, on all"
        " servers (the next is refused: 409 too_many_tournaments)",
    )
    recurring_tournaments: str = Field(
        "",
        description="tournaments the site runs again and again: a JSON list of objects, each"
        " the body of POST /api/tournaments without starts_at, plus every_minutes",
    )

    @field_validator("recurring_tournaments")
    @classmethod
    def _a_json_list_of_objects(cls, value: str) -> str:
        if value.strip():
            parsed = json.loads(value)
            if not isinstance(parsed, list) or not all(isinstance(o, dict) for o in parsed):
                raise ValueError("a JSON list of objects")
            for entry in parsed:
                every = entry.get("every_minutes")
                if not isinstance(every, int) or isinstance(every, bool) or every < 5:
                    raise ValueError("each one's every_minutes is a whole number, 5 or more")
        return value

    def recurring(self) -> list[dict[str, Any]]:
        """The recurring tournaments, as given."""
        if not self.recurring_tournaments.strip():
            return []
        entries: list[dict[str, Any]] = json.loads(self.recurring_tournaments)
        return entries
