"""The online bots: a bot is listed while any of its event streams is open, on any server."""

from __future__ import annotations

import asyncio

import pytest
from server_harness import require_redis, run_async

from meeple.bus.memory import InProcessBus
from meeple.bus.redis import RedisBus
from meeple.store.models import User
from meeple.tables.lobby import online_bots
from meeple.tables.lobby.online_bots import OnlineBots


def names(listing: list[dict[str, object]]) -> list[object]:
    """The names of a listing, in its order."""
    return [item["name"] for item in listing]


def test_in_process_listing_counts_streams() -> None:
    async def scenario() -> None:
        bots = OnlineBots(InProcessBus(), "s1")
        zed, ada = User(id=7, name="zed-bot"), User(id=3, name="Ada-bot")
        assert await bots.listing() == []
        await bots.connected(zed, accept=["b", "a", "a"])
        await bots.connected(ada)
        await bots.connected(ada)
        listing = await bots.listing()
        assert names(listing) == ["Ada-bot", "zed-bot"]
        assert listing[1]["accept"] == ["a", "b"] and listing[0]["accept"] is None
        await bots.disconnected(ada)
        assert await bots.is_online(3)  # one stream of two still open
        await bots.disconnected(ada)
        await bots.disconnected(ada)  # a stray second end changes nothing
        assert names(await bots.listing()) == ["zed-bot"]
        assert not await bots.is_online(3) and await bots.is_online(7)
        await bots.stop()
        assert await bots.listing() == []

    run_async(scenario())


def test_two_servers_share_the_list_through_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    url = require_redis()
    monkeypatch.setattr(online_bots, "TTL_S", 1)
    monkeypatch.setattr(online_bots, "REFRESH_S", 0.3)

    async def scenario() -> None:
        bus_a, bus_b = RedisBus(url), RedisBus(url)
        east, west = OnlineBots(bus_a, "east-t"), OnlineBots(bus_b, "west-t")
        bot = User(id=910_001, name="shared-bot")
        quiet = User(id=910_002, name="quiet-bot")
        try:
            await east.connected(bot, accept=["a"])
            await west.connected(bot, accept=["b"])
            mine = [i for i in await west.listing() if i["id"] == bot.id]
            assert mine == [{"id": bot.id, "name": "shared-bot", "accept": ["a", "b"]}]
            await east.disconnected(bot)  # still streaming from west
            assert await east.is_online(bot.id)
            # The refresher keeps a key alive past its time to live.
            await asyncio.sleep(1.5)
            assert await east.is_online(bot.id)
            await west.disconnected(bot)
            assert not await east.is_online(bot.id)
            # A server that dies without removing its key: the bot goes after the TTL.
            await east.connected(quiet)
            assert await west.is_online(quiet.id)
            east._here.clear()  # what a dead server stops doing: refreshing
            await asyncio.sleep(1.3)
            assert not await west.is_online(quiet.id)
        finally:
            await east.stop()
            await west.stop()
            await bus_a.close()
            await bus_b.close()

    run_async(scenario())
