"""Screenshots of the site's pages beyond a table's first screen, on a server of its own.

Usage: ``python scripts/screenshots_pages.py OUT_DIR``

Starts ``meeple serve`` (the browser tests' settings, with a small pool of puzzles from
the bots' games), makes a reviewed Summy game and a Slide game of three bots, then, for
English and French at 1280x800 and 390x844 and Japanese on the phone, signs up a new
player and saves the first screen of the home page, the account page, both replays (the
Summy one stepped four moves), a finished table's end-of-game dialog, the leaderboard, the
daily puzzle, a table against a bot and the player's profile, as
``<page>-<size>-<lang>.jpeg`` (quality 70).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT / "tests" / "support")]

from browser_harness import ServerProcess, reviewed_bot_game  # noqa: E402

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
SHOTS = (("en", ("desktop", "phone")), ("fr", ("desktop", "phone")), ("ja", ("phone",)))


def shoot_all(browser: Browser, url: str, out: Path, summy_id: str, slide_id: str) -> None:
    """Every page in every language and size of :data:`SHOTS`."""
    for lang, sizes in SHOTS:
        for size in sizes:
            phone = size == "phone"
            context = browser.new_context(
                viewport=PHONE if phone else DESKTOP, locale=lang, has_touch=phone, is_mobile=phone
            )
            page = context.new_page()

            def snap(name: str, page: Page = page, size: str = size, lang: str = lang) -> None:
                page.wait_for_timeout(1200)
                path = out / f"{name}-{size}-{lang}.jpeg"
                page.screenshot(path=str(path), type="jpeg", quality=70)

            page.goto(f"{url}/lang?code={lang}&next=/")
            name = f"ada{lang}{size[0]}{int(time.time()) % 10000}"
            page.evaluate(
                """(n) => fetch('/api/auth/register', {method: 'POST',
                    headers: {'Content-Type': 'application/json'},
                    body: JSON.stringify({name: n, password: 'correct horse battery'})})""",
                name,
            )
            page.goto(f"{url}/")
            snap("home")
            page.goto(f"{url}/account")
            snap("account")
            page.goto(f"{url}/replay/{summy_id}")
            page.wait_for_timeout(1500)
            for _ in range(4):
                page.locator("#replay-forward").click()
            snap("replay-summy")
            page.goto(f"{url}/replay/{slide_id}")
            snap("replay-slide")
            page.goto(f"{url}/table/{slide_id}")
            snap("end-dialog-slide")
            page.goto(f"{url}/leaderboard/summy")
            snap("leaderboard")
            page.goto(f"{url}/puzzles/summy")
            snap("puzzle-from-bots")
            page.goto(f"{url}/")
            page.locator("#card-summy [data-bot]").click()
            page.wait_for_url("**/table/*")
            page.wait_for_timeout(2500)
            snap("summy-table")
            page.goto(f"{url}/profile/{name}")
            snap("profile")
            context.close()


def main() -> None:
    """Start a server, make the games, shoot the pages into the folder given."""
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(Path(tempfile.mkdtemp()), {"MEEPLE_PUZZLE_POOL_TARGET": "3"})
    try:
        summy_id, _ = reviewed_bot_game(server, "summy", ("strong", "greedy"))
        slide_id, _ = reviewed_bot_game(server, "slide", ("greedy", "greedy", "greedy"))
        with server.client() as client:
            for _ in range(240):  # the bots' games fill the pool in the background
                if client.get("/api/puzzles/summy/daily").status_code == 200:
                    break
                time.sleep(1)
        with sync_playwright() as play:
            browser = play.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox"]
            )
            shoot_all(browser, server.url, out, summy_id, slide_id)
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
