"""Screenshots of both games against a bot, at 1280x800 and 390x844, in chosen languages.

Usage: ``python scripts/screenshots.py URL OUT_DIR [--langs en,fr] [--dark]``

URL is a running ``meeple serve``; each shot is the first screen (the viewport, as a
player sees it without scrolling), not the full page, so what needs scrolling is missing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def main() -> None:
    """Play a bot at each game, size and language, and save the first screen of each table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("url")
    parser.add_argument("out", type=Path)
    parser.add_argument("--langs", default="en")
    parser.add_argument("--dark", action="store_true", help="ask for the dark colour scheme")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for lang in args.langs.split(","):
            for size, viewport in SIZES.items():
                context = browser.new_context(
                    viewport=viewport,  # type: ignore[arg-type]
                    locale=lang,
                    color_scheme="dark" if args.dark else "light",
                    has_touch=size == "phone",
                    is_mobile=size == "phone",
                )
                page = context.new_page()
                page.goto(f"{args.url}/lang?code={lang}&next=/")
                suffix = f"{size}-{lang}{'-dark' if args.dark else ''}"
                page.screenshot(path=str(args.out / f"home-{suffix}.png"))
                for game in ("summy", "slide"):
                    page.goto(f"{args.url}/")
                    page.click(f'[data-bot="{game}"]')
                    page.wait_for_url("**/table/**")
                    page.wait_for_timeout(2500)
                    page.screenshot(path=str(args.out / f"{game}-{suffix}.png"))
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
