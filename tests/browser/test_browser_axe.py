"""axe-core (4.12, bundled by axe-playwright-python) over every page a player can reach, in the
light and the dark theme (the system's, emulated), at desktop size and a few at phone size,
anonymous and then signed in with a game waiting for the player's move (the header's "My
games" link then shows its count): no violation at all, each one printed with its rule,
impact, element and what fails."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_harness import DESKTOP, PHONE, NewPage, ServerProcess, guest, reviewed_bot_game
from playwright.sync_api import Page, expect
from test_browser_pages import rated_slide_game
from test_browser_summy import a_move, play_a_bot, wait_my_turn

from meeple.games.summy.analysis.puzzles import puzzle_from_position
from meeple.store import queries
from meeple.store.database import Database
from meeple.tables.core.ratings import MODEL

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "summy"))
from summy_positions import fresh_hand_position

pytestmark = pytest.mark.browser

AXE = Axe()
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    # Experimental in axe-core, so off unless asked: a voice-control user says what they see.
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
THEMES = ("light", "dark")


@pytest.fixture(scope="module")
def shared(live: ServerProcess) -> dict[str, str]:
    """What the pages show, made once for both themes: a reviewed finished game of each game
    (the Slide one rated: two people who left, so a profile and a leaderboard show it), and a
    Summy puzzle in the store."""
    summy, _ = reviewed_bot_game(live, "summy")
    with live.client() as alice, live.client() as bob:
        name = guest(alice)["name"]
        guest(bob)
        slide = rated_slide_game(alice, bob)
        for _ in range(600):
            if alice.get(f"/api/tables/{slide}/review").status_code == 200:
                break
            time.sleep(0.2)
    found = (puzzle_from_position(fresh_hand_position(seed)) for seed in (205, 225))
    puzzle = next(p for p in found if p is not None)
    db = Database(f"sqlite:///{live.data_dir / 'meeple.db'}")
    first = MODEL.rating()
    db.call(queries.save_puzzles, "summy", [puzzle.to_json()], None, 0.0, (first.mu, first.sigma))
    db.engine.dispose()
    return {"summy": summy, "slide": slide, "name": name, "puzzle": puzzle.id}


def violations(page: Page, where: str) -> list[str]:
    """Every axe-core violation on the page as it is now, one line per element."""
    # A transition or an entrance animation half-way would be measured half-faded.
    page.wait_for_timeout(350)
    results = AXE.run(page, options=AXE_OPTIONS)
    lines = []
    for rule in results.response["violations"]:
        for node in rule["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(
                f"{where}: {rule['id']} ({rule['impact']}) {node['target']}: "
                f"{rule['help']}. {summary}"
            )
    return lines


def visit(page: Page, path: str, ready: str | None = None) -> None:
    """Open ``path`` and wait until its script filled it in (``ready`` shows)."""
    page.goto(path)
    if ready:
        page.locator(ready).first.wait_for()


def static_pages(shared: dict[str, str]) -> list[tuple[str, str, str | None]]:
    """(name, path, what shows once ready) of the pages that need no seat at a table."""
    midgame = json.loads((EXAMPLES / "summy-midgame.json").read_text(encoding="utf-8"))
    return [
        ("home", "/", "#seat-rows select"),
        ("signin", "/signin", None),
        ("signup", "/signup", None),
        ("rules-summy", "/rules/summy", None),
        ("rules-slide", "/rules/slide", None),
        ("leaderboard-summy", "/leaderboard/summy", "#leaderboard-empty:not([hidden])"),
        ("leaderboard-slide", "/leaderboard/slide", "#leaderboard-rows tr"),
        ("profile", f"/profile/{shared['name']}", "#profile-chart > *"),
        ("finished-summy", f"/table/{shared['summy']}", "#summary[open]"),
        ("finished-slide", f"/table/{shared['slide']}", "#summary[open]"),
        ("replay-summy", f"/replay/{shared['summy']}", "#review-line:not(:empty)"),
        ("replay-slide", f"/replay/{shared['slide']}", "#review-line:not(:empty)"),
        ("analysis", f"/analysis/summy#position={quote(json.dumps(midgame))}", "#moves li"),
        ("puzzle", f"/puzzles/summy/{shared['puzzle']}", ".rack button"),
        ("learn-summy", "/learn/summy", ".rack button"),
        ("learn-slide", "/learn/slide", ".slide-mine button"),
    ]


def sign_up(page: Page, name: str) -> None:
    """Make an account with the sign-up form (the browser is then signed in)."""
    visit(page, "/signup")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill("a long enough passphrase")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url("**/")
    expect(page.locator("#account-name")).to_have_text(name)


def waiting_table(page: Page) -> None:
    """A 2-player Slide table made with the create form, its second seat open."""
    visit(page, "/", "#seat-rows select")
    form = page.locator("#create-form")
    form.get_by_label("Slide", exact=True).check()
    form.get_by_label("Number of seats").fill("2")
    form.get_by_label("Seat 2").select_option("open")
    form.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/table/*")
    expect(page.get_by_role("heading", name="Waiting for players")).to_be_visible()


def turn_waiting(page: Page) -> None:
    """A turn-based Slide game against a bot, waiting for this page's player (everyone reveals
    at once, so it is their move at once): the header's "My games" shows a count of 1."""
    made = page.request.post(
        "/api/tables",
        data={"game": "slide", "seats": 2, "bots": {"1": "random"}, "pace": "turn"},
    )
    assert made.status == 201, made.text()
    started = page.request.post(f"/api/tables/{made.json()['table']['id']}/start")
    assert started.status == 200, started.text()
    expect(page.locator("#my-turns-count")).to_have_text("1")


def step_replay(page: Page, steps: int) -> None:
    """Go ``steps`` moves into a replay (its review line then speaks of a played move)."""
    for _ in range(steps):
        page.locator("#replay-forward").click()


def summy_midgame(page: Page) -> None:
    """A Summy game against a bot, on this page's turn with a legal move staged by clicks."""
    for _game in range(3):
        play_a_bot(page)
        view = wait_my_turn(page)
        if view is None:
            continue
        move = a_move(page, view)
        if move is None:
            return
        for (row, col), tile in move.placement.tiles:
            page.locator(f'.rack button[data-tile="{tile}"]').first.click()
            page.locator(f'.summy-plane [data-cell="{row},{col}"]').click()
        if len(move.placement.tiles) == 1:
            page.locator(f'.dir-choice button[data-dir="{move.placement.dir}"]').click()
        expect(page.locator("#message")).to_contain_text("legal")
        return
    raise AssertionError("three Summy games ended before this page's turn")


def slide_midgame(page: Page) -> None:
    """A Slide game against a bot, this page's card revealed and the pool to take from."""
    page.goto("/")
    page.locator("#card-slide").get_by_role("button", name="Play a bot").click()
    page.wait_for_url("**/table/*")
    page.locator(".slide-mine button.pickable").first.click()
    expect(page.locator(".pool button:enabled").first).to_be_visible()


def hovered_pool_card_contrast(page: Page) -> float:
    """The contrast of a hovered pool card's text on its own background (hover is a state
    axe does not set by itself)."""
    card = page.locator(".pool button:enabled").first
    card.hover()
    page.wait_for_timeout(300)  # the background's transition
    ratio: float = card.evaluate(
        """(node) => {
            const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
            const lum = ([r, g, b]) => [r, g, b].map((c) => {
                c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
            }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
            const style = getComputedStyle(node);
            const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
            return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        }"""
    )
    return ratio


@pytest.mark.parametrize("theme", THEMES)
def test_every_page_has_no_axe_violation(
    new_page: NewPage, shared: dict[str, str], theme: str
) -> None:
    found: list[str] = []
    page = new_page("en-GB", DESKTOP, color_scheme=theme)
    for name, path, ready in static_pages(shared):
        visit(page, path, ready)
        if name == "replay-summy":
            step_replay(page, 3)
        if name == "replay-slide":
            # To the end of a round: every pool card taken, "The pool is empty." on the felt.
            for _ in range(12):
                if page.locator(".pool .muted").count():
                    break
                step_replay(page, 1)
            expect(page.locator(".pool .muted")).to_have_text("The pool is empty.")
        found += violations(page, f"{name} [{theme}]")
    for name in ("home", "replay-summy"):
        path, ready = next((p, r) for n, p, r in static_pages(shared) if n == name)
        page.set_viewport_size(PHONE)
        visit(page, path, ready)
        found += violations(page, f"{name} [{theme}, phone]")
        if name == "home":
            page.locator("#menu-toggle").click()
            expect(page.locator("#site-menu")).to_be_visible()
            found += violations(page, f"home, its menu open [{theme}, phone]")
        page.set_viewport_size(DESKTOP)

    # Signed up, with a game waiting for the player's move: every page again (the header's
    # "My games" shows its count), the account page, then seated at a table waiting for
    # players, then each game mid-way against a bot.
    sign_up(page, f"axe_{theme}_{int(time.time() * 1000) % 100_000}")
    turn_waiting(page)
    # In Japanese: a link's name must hold its visible text in every language's word order.
    page.goto("/lang?code=ja&next=/")
    for name, path, ready in static_pages(shared):
        visit(page, path, ready)
        expect(page.locator("#my-turns-count")).to_have_text("1")
        found += violations(page, f"{name}, signed in, ja [{theme}]")
    page.set_viewport_size(PHONE)
    visit(page, "/", "#seat-rows select")
    page.locator("#menu-toggle").click()
    expect(page.locator("#nav-my-games")).to_be_visible()
    found += violations(page, f"home, signed in, ja, its menu open [{theme}, phone]")
    page.set_viewport_size(DESKTOP)
    page.goto("/lang?code=en&next=/")
    visit(page, "/account", "#settings-sections:not([hidden])")
    found += violations(page, f"account [{theme}]")
    visit(page, "/my-games", "#my-games-list li")
    found += violations(page, f"my-games [{theme}]")
    visit(page, "/tournaments/new", "#tournament-form")
    found += violations(page, f"tournament-new [{theme}]")
    waiting_table(page)
    found += violations(page, f"waiting-table [{theme}]")
    visit(page, "/", "#seat-rows select")
    found += violations(page, f"home-signed-in [{theme}]")
    summy_midgame(page)
    found += violations(page, f"summy-midgame [{theme}]")
    page.set_viewport_size(PHONE)
    found += violations(page, f"summy-midgame [{theme}, phone]")
    page.set_viewport_size(DESKTOP)
    # Discard mode: its pressed toggle and a tile picked to throw back.
    page.get_by_role("button", name="Discard…").click()
    page.locator(".rack button").first.click()
    expect(page.locator(".rack .discard-pick")).to_have_count(1)
    found += violations(page, f"summy-midgame, discarding [{theme}]")
    slide_midgame(page)
    found += violations(page, f"slide-midgame [{theme}]")
    ratio = hovered_pool_card_contrast(page)
    if ratio < 4.5:
        found.append(f"slide-midgame [{theme}]: a hovered pool card's text is {ratio:.2f}:1")
    found += violations(page, f"slide-midgame, a pool card hovered [{theme}]")
    page.set_viewport_size(PHONE)
    found += violations(page, f"slide-midgame [{theme}, phone]")
    print("\n".join(found))
    assert found == [], f"{len(found)} accessibility violations:\n" + "\n".join(found)
