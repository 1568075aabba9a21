"""An account's events: one bus channel per account, one message per event-stream line.

What happens to an account outside any one table (a challenge to or from it, a
game it sits at starting or finishing) is published on ``user:<user_id>``; the
account's event stream (``GET /api/stream/events``, docs/bot-api.md) sends each
message as one line, unchanged. A message holds only what the account may see,
since the stream forwards it as it is.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from meeple.bus import Bus
from meeple.tables.log import FINISHED, PLAYING

if TYPE_CHECKING:
    from meeple.tables.table import Table

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

    Told by the table's owner when it acts on a change of the table's lobby standing
    (:class:`~meeple.tables.lobby.LobbyNews`), once per status and table here. A server
    that takes a running table over may tell ``game_start`` again: the event stream
    also sends it on every reconnect, so a client keys its games by table id.
    """

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._told: weakref.WeakKeyDictionary[Table, str] = weakref.WeakKeyDictionary()

    async def changed(self, table: Table) -> None:
        """Tell the seated accounts if ``table`` started or finished since last told."""
        status = table.snap.status
        if not table.owned or status not in NEWS or self._told.get(table) == status:
            return
        self._told[table] = status
        for seat in table.snap.seats:
            if seat.user_id is not None and not seat.left:
                line = {
                    "type": NEWS[status],
                    "table_id": table.info.id,
                    "game": table.info.game,
                    "seat": seat.seat,
                }
                await publish_user_event(self.bus, seat.user_id, line)
