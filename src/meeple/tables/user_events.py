"""An account's events: one bus channel per account, one message per event-stream line.

What happens to an account outside any one table (a challenge to or from it, a
game it sits at starting or finishing) is published on ``user:<user_id>``; the
account's event stream (``GET /api/stream/events``, docs/bot-api.md) sends each
message as one line, unchanged. A message holds only what the account may see,
since the stream forwards it as it is.
"""

from __future__ import annotations

from typing import Any

from meeple.bus import Bus

USER_CHANNEL = "user:{}"
"""The bus channel of an account's events, formatted with the account's id."""


def user_channel(user_id: str) -> str:
    """The bus channel of the events of the account ``user_id``."""
    return USER_CHANNEL.format(user_id)


async def publish_user_event(bus: Bus, user_id: str, line: dict[str, Any]) -> None:
    """Send ``line`` (a JSON object with a ``type``) to every event stream of ``user_id``."""
    await bus.publish(user_channel(user_id), line)
