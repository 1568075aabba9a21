"""The lobby's lists are built once for many requests and dropped on lobby news."""

from __future__ import annotations

import asyncio

from server_harness import run_async

from meeple.games.base import JSON
from meeple.tables.lobby.lobby import LobbyCache


def test_requests_share_one_build_until_news_or_the_ttl() -> None:
    built: list[tuple[str | None, str]] = []
    state = {"tables": 1}

    async def build(game: str | None, status: str) -> list[dict[str, JSON]]:
        built.append((game, status))
        await asyncio.sleep(0.05)
        return [{"id": str(i)} for i in range(state["tables"])]

    async def scenario() -> None:
        cache = LobbyCache(build, ttl_s=0.3)
        lists = await asyncio.gather(*(cache.get("slide", "open") for _ in range(50)))
        assert len(built) == 1 and all(listed == [{"id": "0"}] for listed in lists)
        assert await cache.get("slide", "open") == [{"id": "0"}]
        assert len(built) == 1
        await cache.get(None, "playing")  # another list is built on its own
        assert built == [("slide", "open"), (None, "playing")]

        state["tables"] = 2
        cache.changed()  # news: the very next request sees the change
        assert await cache.get("slide", "open") == [{"id": "0"}, {"id": "1"}]
        assert len(built) == 3

        state["tables"] = 3
        await asyncio.sleep(0.35)  # no news, but the list is old
        assert len(await cache.get("slide", "open")) == 3

        # News while a list is being built: that list may have read the old state.
        state["tables"] = 4
        first = asyncio.ensure_future(cache.get("slide", "playing"))
        await asyncio.sleep(0.01)
        state["tables"] = 5
        cache.changed()
        assert len(await cache.get("slide", "playing")) == 5
        await first

    run_async(scenario())
