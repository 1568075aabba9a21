"""Screenshots of both games against a bot, at 1280x800 and 390x844, in chosen languages.

Usage: ``python scripts/screenshots.py URL OUT_DIR [--langs en,fr] [--dark] [--jpeg]
[--pages /account,/profile/{me},/replay/ID] [--no-games]``

URL is a running ``meeple serve``; each shot is the first screen (the viewport, as a
player sees it without scrolling), not the full page, so what needs scrolling is missing.
A few Summy turns are played first (the best move by the engine's generator, sent on the
page's own connection) and one tile is staged, so the board, the last move and the
feedback line show; Slide is played until a pool card is chosen and its arrows show.
``--pages`` adds the first screen of other pages, seen by the same guest (``{me}`` in a
path is the guest's name), each saved as ``page-<path>-<size>-<lang>``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from meeple.games.summy.formats import position_from_json
from meeple.games.summy.movegen import legal_moves

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def my_turn(page: Page) -> dict | None:  # type: ignore[type-arg]
    """The page's view once it is its turn (None if the game ended)."""
    for _ in range(120):
        view = page.evaluate("window.meeple.view()")
        if view and view.get("game_over"):
            return None
        mine = "document.querySelector('#turn-line').classList.contains('mine')"
        if view and page.evaluate(mine):
            return view  # type: ignore[no-any-return]
        page.wait_for_timeout(250)
    return None


def play_summy(page: Page, turns: int) -> None:
    """Play ``turns`` good moves (or discards), then stage one tile next to the table."""
    for _ in range(turns):
        view = my_turn(page)
        if view is None:
            return
        moves = legal_moves(position_from_json(view))
        if moves:
            best = max(moves, key=lambda m: m.score)
            tiles = [{"row": r, "col": c, "tile": t} for (r, c), t in best.placement.tiles]
            action = {"type": "place", "dir": best.placement.dir, "tiles": tiles}
        else:
            action = {"type": "discard", "tiles": view["hand"][:3]}
        page.evaluate(
            "(a) => window.meeple.connection.send("
            "{type: 'action', id: crypto.randomUUID(), action: a})",
            action,
        )
        page.wait_for_timeout(400)
    if my_turn(page) is not None:
        page.wait_for_timeout(1200)
        page.locator(".rack button").first.click()
        # The target cell nearest the middle of the felt (others may be off screen).
        x, y = page.evaluate(
            """() => { const b = document.querySelector('.summy-viewport').getBoundingClientRect();
                const mid = [b.left + b.width / 2, b.top + b.height / 2];
                const boxes = [...document.querySelectorAll('.summy-plane .cell.target')]
                    .map((n) => n.getBoundingClientRect());
                const d = (r) => Math.hypot(r.left + r.width / 2 - mid[0],
                    r.top + r.height / 2 - mid[1]);
                const best = boxes.sort((p, q) => d(p) - d(q))[0];
                return [best.left + best.width / 2, best.top + best.height / 2]; }"""
        )
        page.mouse.click(x, y)
        page.wait_for_timeout(600)


def play_slide(page: Page) -> None:
    """Reveal when asked until this page takes a card; choose the first pool card."""
    for _ in range(120):
        pickable = page.locator(".slide-mine button.pickable")
        if pickable.count():
            pickable.first.click()
        pool = page.locator(".pool button")
        if pool.count():
            pool.first.click()
            page.wait_for_timeout(300)
            return
        page.wait_for_timeout(250)


def shoot_pages(
    page: Page, url: str, paths: list[str], out: Path, suffix: str, options: dict[str, object]
) -> None:
    """The first screen of each path, as this page's guest sees it (made a guest if needed)."""
    if not paths:
        return
    page.goto(f"{url}/")
    me = page.evaluate("fetch('/api/auth/me').then((r) => r.json())")
    if me is None:
        page.evaluate("fetch('/api/auth/guest', {method: 'POST'})")
        me = page.evaluate("fetch('/api/auth/me').then((r) => r.json())")
    for path in paths:
        page.goto(url + path.replace("{me}", str(me.get("name", ""))))
        page.wait_for_timeout(1500)
        slug = path.strip("/").replace("/", "-").replace("{me}", "me") or "home"
        page.screenshot(path=str(out / f"page-{slug}-{suffix}.{options['type']}"), **options)  # type: ignore[arg-type]


def main() -> None:
    """Play a bot at each game, size and language, and save the first screen of each table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("url")
    parser.add_argument("out", type=Path)
    parser.add_argument("--langs", default="en")
    parser.add_argument("--dark", action="store_true", help="ask for the dark colour scheme")
    parser.add_argument("--jpeg", action="store_true", help="JPEG at quality 70 (small files)")
    parser.add_argument("--pages", default="", help="other paths to shoot, comma-separated")
    parser.add_argument("--no-games", action="store_true", help="only the home and --pages")
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
                kind = "jpeg" if args.jpeg else "png"
                options = {"type": kind, "quality": 70} if args.jpeg else {"type": kind}
                page.screenshot(path=str(args.out / f"home-{suffix}.{kind}"), **options)  # type: ignore[arg-type]
                for game in () if args.no_games else ("summy", "slide"):
                    page.goto(f"{args.url}/")
                    page.click(f'[data-bot="{game}"]')
                    page.wait_for_url("**/table/**")
                    page.wait_for_timeout(1500)
                    if game == "summy":
                        play_summy(page, 4)
                    else:
                        play_slide(page)
                    page.screenshot(path=str(args.out / f"{game}-{suffix}.{kind}"), **options)  # type: ignore[arg-type]
                shoot_pages(
                    page,
                    args.url,
                    [p for p in args.pages.split(",") if p],
                    args.out,
                    suffix,
                    options,
                )
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
