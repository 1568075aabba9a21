"""A fresh server has a daily puzzle within a minute: its bots' games fill the empty pool.

The server is a ``meeple serve`` of its own with the default pool target, bots in worker
processes at the default budget, as a new site runs; nobody plays a game on it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from browser_harness import NewPage, own_server, shot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

FRESH_SITE = {
    "MEEPLE_PUZZLE_POOL_TARGET": "50",
    "MEEPLE_BOT_EXECUTOR": "process",
    "MEEPLE_BOT_BUDGET_S": "0.5",
    "MEEPLE_BOT_WORKERS": "1",
}
"""What a new site runs with (the harness's shared server turns the supply off)."""


def test_a_fresh_server_shows_a_daily_puzzle_within_a_minute(
    new_page: NewPage, tmp_path: Path
) -> None:
    started = time.monotonic()
    with own_server(tmp_path, FRESH_SITE) as server:
        page = new_page("en-GB", base_url=server.url)
        task = page.locator("#puzzle-task")
        # A player looking for today's puzzle reloads the page until there is one.
        while True:
            page.goto("/puzzles/summy/daily")
            page.wait_for_function(  # the page has asked for today's puzzle and shown the answer
                "() => document.getElementById('puzzle-task').textContent"
                " || !document.getElementById('puzzle-error').hidden"
            )
            if page.locator("#puzzle-error").is_hidden() and task.inner_text():
                break
            expect(page.locator("#puzzle-error")).to_contain_text("Try again in a minute")
            assert time.monotonic() - started < 60, "no daily puzzle a minute after start-up"
            page.wait_for_timeout(2000)
        waited = time.monotonic() - started
        expect(task).to_contain_text("Find the move worth")
        expect(page.locator("#puzzle-source")).to_have_text("From a game between bots.")
        expect(page.locator("#game .rack .tile").first).to_be_visible()
        assert page.url.startswith(f"{server.url}/puzzles/summy/")  # its own link, to share
        shot(page, "puzzle-daily-from-bots")
    print(f"daily puzzle after {waited:.1f} s")
    assert waited < 60
