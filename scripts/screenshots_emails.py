"""Screenshots of every email a player can receive, rendered in Chromium from its HTML part.

Usage: ``python scripts/screenshots_emails.py OUT_DIR``

Each email is made by the function the server sends them with
(:func:`meeple.tables.notices.outbox.render`, the templates under
``web/pages/templates/emails/``) from the values the server gives it, with a real
unsubscribe link (a throwaway key) where the email carries one; its HTML part is
opened in headless Chromium at 640 px wide and saved whole as
``email-<kind>-<lang>.jpeg`` (quality 70), in English and French.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from meeple.games import GAME_NAMES
from meeple.i18n import catalog
from meeple.tables.notices.outbox import render
from meeple.tables.notices.unsubscribe import UnsubscribeSigner

SITE = "https://meeple.example"
LANGS = ("en", "fr")
SIGNER = UnsubscribeSigner("a throwaway key for the screenshots, never a server's")


def emails(lang: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each kind of email: its template and the values the server would give it."""
    games = [catalog(lang).gettext(f"game.{name}") for name in GAME_NAMES]
    first, second = games[0], games[-1]
    unsubscribe = {
        "unsubscribe_all_url": SIGNER.url(SITE, 7, "all"),
        "site_url": SITE,
        "name": "Ada",
    }
    tables = [
        {"game": game, "url": f"{SITE}/tables/{table_id}", "table_id": table_id, "opponents": ""}
        for game, table_id in (
            (first, "Hk3sP0aQ1xZb"),
            (second, "Rt9vLm2Wq8Cd"),
            (first, "Zp4Nc7Yx5Ke2"),
        )
    ]
    return {
        "verify": ("verify", {"name": "Ada", "link": f"{SITE}/email/verify?token=Xq8…"}),
        "reset": ("reset", {"name": "Ada", "link": f"{SITE}/password/reset?token=Vb2…"}),
        "your-turn": (
            "your_turn",
            {
                **unsubscribe, "unsubscribe_url": SIGNER.url(SITE, 7, "your_turn"),
                "game": first, "opponents": "Grace", "table_id": "Hk3sP0aQ1xZb",
                "table_url": f"{SITE}/tables/Hk3sP0aQ1xZb",
            },
        ),
        "digest": (
            "turn_digest",
            {
                **unsubscribe, "unsubscribe_url": SIGNER.url(SITE, 7, "your_turn"),
                "count": len(tables), "tables": tables, "my_games_url": SITE,
            },
        ),
        "game-finished": (
            "game_finished",
            {
                **unsubscribe, "unsubscribe_url": SIGNER.url(SITE, 7, "game_finished"),
                "game": second, "opponents": "Grace, Linus", "rank": 1, "players": 3,
                "score": 42, "table_id": "Rt9vLm2Wq8Cd",
                "table_url": f"{SITE}/tables/Rt9vLm2Wq8Cd",
            },
        ),
    }  # fmt: skip


def main(out: Path) -> None:
    """Render and shoot every email in every language of :data:`LANGS`."""
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            for lang in LANGS:
                for kind, (template, values) in emails(lang).items():
                    _subject, _text, html = render(lang, template, **values)
                    page = browser.new_page(viewport={"width": 640, "height": 480}, locale=lang)
                    page.set_content(html, wait_until="load")
                    path = out / f"email-{kind}-{lang}.jpeg"
                    page.screenshot(path=str(path), type="jpeg", quality=70, full_page=True)
                    page.close()
                    print(path)
        finally:
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots/issue31"))
