"""A person in the browser plays, to the end, a bot run by ``meeple bot run`` on the Bot API.

The person finds the bot online among "Play a bot"'s levels, challenges it;
the bridge (a child process with a token) accepts and plays its seat from the
game stream while the person plays theirs through the page alone. The record
replays to the result both saw, and every line the bridge got passes the
secret check.
"""

from __future__ import annotations

import secrets
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from bot_api_support import BridgeProcess, check_stream_secrets
from browser_harness import NewPage, ServerProcess
from playwright.sync_api import expect
from server_harness import GAMES
from test_browser_slide import play_one_step

from meeple.games.base import GameRecord, replay

pytestmark = pytest.mark.browser


class Reader:
    """The little of the harness client that the secret check uses: JSON GETs."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http

    def get(self, path: str) -> Any:
        """GET ``path``'s JSON (200 required)."""
        return self.http.get(path).raise_for_status().json()


def test_a_person_plays_a_bridge_bot_to_the_end(
    new_page: NewPage, live: ServerProcess, tmp_path: Path
) -> None:
    name = f"bridge{secrets.token_hex(3)}"
    with live.client() as owner:
        owner.post("/api/auth/register", json={"name": name, "password": "Tile-Slider-42"})
        assert owner.post("/api/account/bot").json()["bot"] is True
        made = owner.post(
            "/api/account/tokens", json={"label": "b", "scopes": ["bot:play", "games:read"]}
        )
        token = made.json()["token"]
    bridge = BridgeProcess(tmp_path, live.url, token, "--bot", "greedy", "--accept", "slide")
    try:
        with live.client() as look:
            deadline = time.monotonic() + 30
            while name not in {b["name"] for b in look.get("/api/bots/online").json()}:
                assert time.monotonic() < deadline and bridge.process.poll() is None, (
                    bridge.output()
                )
                time.sleep(0.05)
        page = new_page()
        page.goto("/")
        level = page.locator('select[data-bot-level="slide"]')
        expect(level.locator(f'option[value="online:{name}"]')).to_be_attached()
        level.select_option(f"online:{name}")
        page.locator("#card-slide button[data-bot]").click()
        page.wait_for_url("**/table/*", timeout=30_000)
        table_id = page.url.rsplit("/", 1)[1]
        expect(page.locator(".slide-status")).to_contain_text("Round 1 of 16")
        deadline = time.monotonic() + 240
        while not page.locator("#summary[open]").count():
            assert time.monotonic() < deadline, "the game did not end in time"
            if not play_one_step(page):
                page.wait_for_timeout(100)
        summary = page.locator("#summary")
        expect(summary).to_contain_text("End of the game")
        expect(summary).to_contain_text(name)
        deadline = time.monotonic() + 30
        while not (lines := bridge.tables().get(table_id)) or lines[-1].get("kind") != "finish":
            assert time.monotonic() < deadline, bridge.output()
            time.sleep(0.05)
        bridge.process.send_signal(signal.SIGINT)
        assert bridge.wait(30) == 0, bridge.output()
    finally:
        bridge.stop()
    # The challenge's table is private: read it as the bot, its token reaches it.
    with live.client() as http:
        http.headers["Authorization"] = f"Bearer {token}"
        reader = Reader(http)
        table = reader.get(f"/api/tables/{table_id}")["table"]
        record = GameRecord.from_json(reader.get(f"/api/tables/{table_id}/record"))
        game = GAMES["slide"]
        assert table["result"] == game.result(replay(game, record)[-1]).to_json()  # type: ignore[union-attr]
        bot_seat = next(s["seat"] for s in table["seats"] if s["name"] == name)
        assert table["seats"][bot_seat]["bot_account"] and not table["seats"][bot_seat]["zombie"]
        assert check_stream_secrets(reader, table_id, lines, bot_seat) >= 30  # type: ignore[arg-type]
    assert f"game {table_id} (slide) finished" in bridge.output()
