"""Fixtures of the browser tests: one live server, one Chromium, a fresh context per player."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    WAIT_MS,
    NewPage,
    ServerProcess,
    require_chromium,
)
from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

# The machine may be busy (two cores shared): give every expectation the same patience.
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The server every browser test talks to."""
    require_chromium()
    server = ServerProcess(Path(tmp_path_factory.mktemp("meeple-browser")))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(live: ServerProcess) -> Iterator[Browser]:
    """Debian's Chromium, headless.

    Module scope, not session: Playwright's sync API keeps an event loop
    running on the main thread until it exits, and later tests (the server's)
    call ``asyncio.run``, which refuses to start inside a running loop.
    """
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser: Browser, live: ServerProcess) -> Iterator[NewPage]:
    """Open a page in a new browser context (a new person): ``new_page(lang="ja")``."""
    contexts = []
    errors: list[str] = []

    def open_page(
        lang: str = "en-GB", viewport: ViewportSize | None = None, **options: Any
    ) -> Page:
        """``options`` go to the browser context: ``has_touch=True``, ``color_scheme="dark"``,
        ``base_url=`` another server's..."""
        options = {"base_url": live.url, **options}
        context = browser.new_context(locale=lang, viewport=viewport or DESKTOP, **options)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        # What the Content-Security-Policy refused (an inline script or style) is only logged.
        page.on(
            "console",
            lambda message: (
                errors.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], f"script errors or refusals of the policy on the page: {errors}"
