"""An account's events: one bus channel per account, one message per event-stream line.

What happens to an account outside any one table (a challenge to or from it, a
game it sits at starting or finishing) is published on ``user:<user_id>``; the
account's event stream (``GET /api/stream/events``, docs/bot-api.md) sends each
message as one line, unchanged. A message holds only what the account may see,
since the stream forwards it as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from meeple.bus import Bus
from meeple.tables.core.log import FINISHED, PLAYING
from meeple.tables.facts import GameFinished, GameStarted

USER_CHANNEL = "user:{}"
"""The bus channel of an account's events, formatted with the account's id."""

NEWS = {PLAYING: "game_start", FINISHED: "game_finish"}
"""The line an account seated at a table gets when the table reaches each status."""


def user_channel(user_id: int | str) -> str:
    """The bus channel of the events of the account ``user_id``."""
    return USER_CHANNEL.format(user_id)


async def publish_user_event(bus: Bus, user_id: int | str, line: dict[str, Any]) -> None:
    """Send ``line`` (a JSON object with a ``type``) to every event stream of ``user_id``."""
    await bus.publish(user_channel(user_id), line)


class SeatNews:
    """``game_start`` and ``game_finish`` to each account seated at a table that starts or ends.

    Follows the facts :class:`~meeple.tables.facts.GameStarted` and
    :class:`~meeple.tables.facts.GameFinished` (published once, by the table's owner);
    the lines go out after the change is answered (``soon``). The event stream also
    sends ``game_start`` on every reconnect, so a client keys its games by table id.
    """

    def __init__(self, bus: Bus, soon: Callable[[Callable[[], Awaitable[None]]], None]) -> None:
        self.bus = bus
        self.soon = soon
        """Queues the lines to send after the change is answered."""

    def changed(self, fact: GameStarted | GameFinished) -> None:
        """Tell the accounts seated (and not gone) that the table started or finished."""
        table = fact.table
        status = table.snap.status
        if status not in NEWS:
            return
        lines = [
            (
                seat.user_id,
                {
                    "type": NEWS[status],
                    "table_id": table.info.id,
                    "game": table.info.game,
                    "seat": seat.seat,
                },
            )
            for seat in table.snap.seats
            if seat.user_id is not None and not seat.left
        ]
        self.soon(functools.partial(self._tell, lines))

    async def _tell(self, lines: list[tuple[int, dict[str, Any]]]) -> None:
        for user_id, line in lines:
            await publish_user_event(self.bus, user_id, line)
