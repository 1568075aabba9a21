"""A tournament changed: one bus message on its channel, so every page watching it (the
tournament socket, ``/ws/tournaments/{id}``, docs/protocol.md) reads it again at once
instead of at its next poll.

The message says only *that* it changed (``{"type": "tournament_changed", "id": …}``),
never what: a private tournament's standings reach only those the socket let in, each
read through the same checks as the REST route. Whoever changed it publishes: the
service for a join, withdrawal, pause, bots added or a cancel; the runner for a start,
a round paired, a result recorded, the end. With Redis it reaches every server.
"""

from __future__ import annotations

import logging

from meeple.bus import Bus

log = logging.getLogger(__name__)

TOURNAMENT_CHANNEL = "tournament:{}"
"""The bus channel of a tournament's changes, formatted with its id."""


def tournament_channel(tournament_id: str) -> str:
    """The bus channel of tournament ``tournament_id``'s changes."""
    return TOURNAMENT_CHANNEL.format(tournament_id)


async def announce_changed(bus: Bus, tournament_ids: set[str] | list[str]) -> None:
    """Tell the watchers of each of these tournaments that it changed (a failure only
    loses the news: the pages still read it again within their poll)."""
    for tournament_id in tournament_ids:
        try:
            await bus.publish(
                tournament_channel(tournament_id),
                {"type": "tournament_changed", "id": tournament_id},
            )
        except Exception:
            log.warning("tournament %s: announcing a change failed", tournament_id, exc_info=True)
