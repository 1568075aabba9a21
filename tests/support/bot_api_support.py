"""Helpers of the Bot API tests: a bot account with a token, and the secret check of its lines."""

from __future__ import annotations

from typing import Any

from secrets_check import check_messages
from server_harness import GAMES, Client, LiveServer

from meeple.games.base import GameRecord, replay

BOT_SCOPES = ("bot:play", "games:read")


def bot_account(
    server: LiveServer, name: str, scopes: tuple[str, ...] = BOT_SCOPES
) -> tuple[Client, str]:
    """A new account turned into a bot account, and a fresh token of it with ``scopes``."""
    client = server.client(name)
    client.register(name)
    assert client.post("/api/account/bot")["bot"] is True
    made = client.post("/api/account/tokens", {"label": "test", "scopes": list(scopes)}, 201)
    return client, str(made["token"])


def record_of(client: Client, table_id: str) -> GameRecord:
    """A finished table's record."""
    return GameRecord.from_json(client.get(f"/api/tables/{table_id}/record"))


def check_stream_secrets(
    client: Client, table_id: str, lines: list[dict[str, Any]], seat: int | None
) -> int:
    """Run the socket tests' secret check on every game-stream line a seat received.

    Returns how many views were checked (each must be exactly the seat's own).
    """
    table = client.get(f"/api/tables/{table_id}")["table"]
    game = GAMES[table["game"]]
    record = record_of(client, table_id)
    states = replay(game, record)
    versions: dict[int, int] = {}
    actions: dict[int, Any] = {}
    count, started = 0, False
    for event in client.get(f"/api/tables/{table_id}/events"):
        if event["kind"] == "start":
            started = True
        if event["kind"] == "action":
            actions[event["version"]] = record.actions[count][1]
            count += 1
        if started:
            versions[event["version"]] = count
    return check_messages(game, states, versions, actions, lines, seat)


def consecutive(lines: list[dict[str, Any]]) -> list[int]:
    """The versions of the hello and events of a stream, checked to follow each other by one."""
    versions = [line["version"] for line in lines if line["type"] in ("hello", "event")]
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    return versions
