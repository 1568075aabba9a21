"""A real ``meeple serve`` process and Debian's Chromium driven by Playwright, for the page tests.

The server runs as a subprocess on a free loopback port with its own data
folder (SQLite, wall clock, bots in threads with a short budget). Chromium is
``/usr/bin/chromium``; no browser is ever downloaded. Screenshots go to
``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).parents[1] / "artifacts"
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 375, "height": 740}
WAIT_MS = 20_000

NewPage = Callable[..., Page]
"""``new_page(lang="ja-JP", viewport=PHONE)``: a page in a fresh browser context."""

KEY_SHAPE = re.compile(
    r"\b(?:nav|home|lobby|create|account|profile|leaderboard|rules|table|replay|tournament|"
    r"site|game|bot|pace|js|engine|mod|safety)\.[a-z_]+(?:\.[a-z_]+)*\b"
)
"""What a catalog key looks like: one showing on a page is an untranslated text."""


def require_chromium() -> None:
    """Skip when Chromium is absent, unless CI requires every service (then fail)."""
    if Path(CHROMIUM).exists():
        return
    message = f"{CHROMIUM} is not installed (apt-get install chromium)"
    if os.environ.get("MEEPLE_REQUIRE_SERVICES") == "1":
        pytest.fail(message + " and MEEPLE_REQUIRE_SERVICES=1")
    pytest.skip(message)


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``meeple serve`` on a free port, stopped by :meth:`stop`."""

    def __init__(self, data_dir: Path, extra_env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data_dir = data_dir
        env = {
            **os.environ,
            "MEEPLE_BOT_EXECUTOR": "thread",
            "MEEPLE_BOT_BUDGET_S": "0.1",
            "MEEPLE_BOT_MIN_THINK_S": "0",
            "MEEPLE_BOT_WORKERS": "2",
            # Every browser is a guest from 127.0.0.1: limits are tested elsewhere.
            "MEEPLE_LIMIT_GUESTS": "1000/minute",
            "MEEPLE_LIMIT_AUTH": "1000/minute",
            "MEEPLE_LIMIT_TABLES": "1000/minute",
            # Each Summy turn of a page asks the analysis board for its count of placements.
            "MEEPLE_LIMIT_ANALYSIS": "1000/minute",
            # Two people meet at a quick-play table in the tests: no bots before a minute.
            "MEEPLE_QUICK_PLAY_BOTS_AFTER_S": "60",
            # The puzzle tests store their own puzzles; bot games only where a test asks.
            "MEEPLE_PUZZLE_POOL_TARGET": "0",
            **(extra_env or {}),
        }
        meeple = Path(sys.executable).with_name("meeple")
        self.log = (data_dir / "server.log").open("w")
        self.process = subprocess.Popen(
            [
                str(meeple),
                "serve",
                "--port",
                str(self.port),
                "--data-dir",
                str(data_dir),
                "--log-level",
                "warning",
            ],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        log = (data_dir / "server.log").read_text()[-2000:]
        raise RuntimeError(f"meeple serve did not start on port {self.port}:\n{log}")

    def stop(self) -> None:
        """Stop the server process."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()

    def client(self) -> httpx.Client:
        """An HTTP client with its own cookies (a separate player)."""
        return httpx.Client(base_url=self.url, timeout=10)


def guest(client: httpx.Client) -> dict[str, Any]:
    """Sign ``client`` in as a new guest."""
    response = client.post("/api/auth/guest")
    response.raise_for_status()
    user: dict[str, Any] = response.json()
    return user


def wait_finished(client: httpx.Client, table_id: str, seconds: float = 120) -> dict[str, Any]:
    """The table's summary once its game is over."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        table: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()["table"]
        if table["status"] == "finished":
            return table
        time.sleep(0.3)
    raise AssertionError(f"table {table_id} did not finish in {seconds} s")


def begin_slide(players: list[httpx.Client], table_id: str, rounds: int = 2) -> None:
    """The two players of a started Slide table make their first moves (``rounds`` takes
    each, FIRST_MOVES in meeple.tables.core.ratings), so a game they then leave is rated, not
    aborted. Each reveals down its first column (cells it has not touched) and takes a card
    from the pool, from the right: whichever value the pool holds."""
    path = f"/api/tables/{table_id}"
    for row in range(rounds):
        for client in players:
            reveal = {"action": {"type": "reveal", "cell": [row, 0]}}
            client.post(f"{path}/actions", json=reveal).raise_for_status()
        for _ in players:
            seat = players[0].get(path).json()["table"]["to_act"][0]
            client_to_act = players[seat]
            for value in range(1, 11):
                take = {"action": {"type": "take", "value": value, "side": "right"}}
                if client_to_act.post(f"{path}/actions", json=take).status_code == 200:
                    break
            else:
                raise AssertionError(f"seat {seat} found no card to take")


def reviewed_bot_game(
    live: ServerProcess, game: str, levels: tuple[str, ...] = ("random", "greedy")
) -> tuple[str, dict[str, Any]]:
    """A finished game of bots of these levels (one a seat), once the server reviewed it."""
    with live.client() as client:
        guest(client)
        bots = {str(seat): level for seat, level in enumerate(levels)}
        body = {"game": game, "seats": len(levels), "bots": bots, "sit": False}
        table_id = client.post("/api/tables", json=body).json()["table"]["id"]
        client.post(f"/api/tables/{table_id}/start").raise_for_status()
        wait_finished(client, table_id)
        for _ in range(600):
            answer = client.get(f"/api/tables/{table_id}/review")
            if answer.status_code == 200:
                review: dict[str, Any] = answer.json()
                return table_id, review
            time.sleep(0.2)
    raise AssertionError("the server never reviewed the game")


def shot(page: Page, name: str) -> None:
    """Save a full-page screenshot as tests/artifacts/<name>.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def untranslated(page: Page) -> list[str]:
    """Catalog keys showing on the page: in its text or in accessible names, titles, alt texts."""
    texts: list[str] = page.evaluate(
        """() => [document.body.innerText, document.title,
            ...[...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')]
              .flatMap((el) => ['aria-label', 'title', 'placeholder', 'alt']
                .map((name) => el.getAttribute(name) || ''))]"""
    )
    return sorted({key for text in texts for key in KEY_SHAPE.findall(text)})


@contextmanager
def own_server(folder: Path, env: dict[str, str]) -> Iterator[ServerProcess]:
    """A server of a test module's own, with extra settings (the shared one is ``live``)."""
    require_chromium()
    server = ServerProcess(folder, env)
    try:
        yield server
    finally:
        server.stop()
