"""A bot for any meeple game, in 30 lines: it accepts every challenge, plays random legal actions.

    python examples/bot_api_example.py https://meeple.example meeple_xxxxxxxx

The token is a personal access token (scope bot:play) of a bot account. A game
stream's line lists the seat's legal actions (`legal`) whenever it must act, so
the bot needs no rules of its own. Ctrl-C stops it.
"""

import asyncio
import contextlib
import random
import sys

from meeple.client import MeepleClient, MeepleError


async def play(client, table_id):
    """Play one table to its end: a random legal action each time the seat must act."""
    acted = 0  # the version of our last action: a line before it was sent before we acted
    async for line in client.game(table_id):
        if line.get("legal") and line["version"] >= acted:
            acted = (await client.act(table_id, random.choice(line["legal"])))["version"]
    print("finished", table_id)


async def main(server, token):
    """Accept the challenges to this account; play every game it is seated at."""
    async with MeepleClient(server, token) as client:
        me, games = (await client.account())["name"], {}
        async for event in client.events():
            if event["type"] == "challenge" and event["challenge"]["to"]["name"] == me:
                with contextlib.suppress(MeepleError):  # taken back meanwhile
                    await client.accept(event["challenge"]["id"])
            elif event["type"] == "game_start" and event["table_id"] not in games:
                games[event["table_id"]] = asyncio.create_task(play(client, event["table_id"]))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
