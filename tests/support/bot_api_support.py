"""Helpers of the Bot API tests: a bot account with a token, the secret check of its lines,
and ``meeple bot run`` as a child process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from secrets_check import check_messages
from server_harness import GAMES, Client, LiveServer

import meeple
from meeple.games.base import GameRecord, replay

ENTRY = "import sys; from meeple.cli import main; sys.exit(main())"

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


class BridgeProcess:
    """``meeple bot run`` in a child process, tracing its game lines to ``trace``."""

    def __init__(self, tmp_path: Path, server_url: str, token: str, *args: str) -> None:
        self.trace = tmp_path / "trace"
        self.log_path = tmp_path / "bridge.log"
        src = str(Path(meeple.__file__).resolve().parents[1])
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEEPLE_")}
        env.update(PYTHONPATH=os.pathsep.join([src, str(tmp_path)]), COLUMNS="200")
        env["MEEPLE_TOKEN"] = token  # the token stays out of the process list
        command = ["bot", "run", "--server", server_url, "--trace", str(self.trace), *args]
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-c", ENTRY, *command],
            env=env,
            cwd=tmp_path,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait(self, timeout: float = 180) -> int:
        """Its exit status once it ends (it ends by itself once its tables are over)."""
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self.log.close()

    def output(self) -> str:
        """What it logged."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def tables(self) -> dict[str, list[dict[str, Any]]]:
        """Every game's stream lines, by table id."""
        if not self.trace.exists():
            return {}
        return {
            path.stem: [json.loads(text) for text in path.read_text().splitlines() if text]
            for path in self.trace.glob("*.ndjson")
        }

    def wait_lines(self, count: int, timeout: float = 60) -> tuple[str, list[dict[str, Any]]]:
        """Wait until one game has ``count`` lines; its table id and lines."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            for table_id, lines in self.tables().items():
                if len(lines) >= count:
                    return table_id, lines
            time.sleep(0.05)
        raise AssertionError(f"no game reached {count} lines\n{self.output()}")

    def stop(self) -> None:
        """Kill it if it is still running (a failed test)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.log.close()
