"""Life on the table: a bot takes a visible moment to think and says so, its tiles land with an
animation, the last turn is said on the felt and beside its player, the last move is marked
apart from the keyboard cursor, the turn chimes (with a mute), avatars, the phone menu and a
dark theme that follows the system.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import CHROMIUM, CHROMIUM_ARGS, ServerProcess, own_server
from playwright.sync_api import Browser, Page, expect, sync_playwright
from test_browser_summy import play_a_bot, version, view_of, wait_applied, wait_my_turn

pytestmark = pytest.mark.browser

THINK_S = 1.5


@pytest.fixture(scope="module")
def slow_bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose bots take at least THINK_S to move, as on a real site."""
    folder = Path(tmp_path_factory.mktemp("meeple-life"))
    with own_server(folder, {"MEEPLE_BOT_MIN_THINK_S": str(THINK_S)}) as server:
        yield server


@pytest.fixture(scope="module")
def chromium(slow_bots: ServerProcess) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def open_page(browser: Browser, server: ServerProcess, **options: object) -> Page:
    context = browser.new_context(base_url=server.url, locale="en-GB", **options)  # type: ignore[arg-type]
    context.set_default_timeout(20_000)
    page = context.new_page()
    # Count the turn chimes and the tiles that land with an animation.
    page.add_init_script(
        """window.chimes = 0;
        document.addEventListener('meeple:sound', () => { window.chimes += 1; });
        window.arrived = 0; // the most tiles landing at once
        new MutationObserver(() => {
            const now = document.querySelectorAll('.tile.arrive').length;
            window.arrived = Math.max(window.arrived, now);
        }).observe(document, { childList: true, subtree: true });"""
    )
    return page


def discard_one(page: Page) -> float:
    """Discard one tile; the moment the server applied it."""
    page.get_by_role("button", name="Discard…").click()
    page.locator(".rack button").first.click()
    before = version(page)
    page.get_by_role("button", name="Discard the chosen tiles").click()
    wait_applied(page, before)
    return time.monotonic()


def test_a_bot_thinks_visibly_its_tiles_land_and_the_turn_chimes(
    chromium: Browser, slow_bots: ServerProcess
) -> None:
    page = open_page(chromium, slow_bots)
    play_a_bot(page)
    view = wait_my_turn(page)
    assert view is not None and view["stock"] > 0
    chimes = page.evaluate("window.chimes")
    assert chimes >= 1  # the sound is on by default: the first turn chimed
    page.evaluate("window.arrived = 0")
    applied = discard_one(page)
    # My turn is said on the felt's edge and beside my name.
    expect(page.locator(".felt-note")).to_have_text(re.compile(r"discarded 1 tile"))
    expect(page.locator("#players li.me .note")).to_have_text("changed tiles")
    # The bot thinks, and says so, for at least the configured moment.
    bot = page.locator('#players li[data-seat="1"]')
    expect(bot.locator(".thinking")).to_have_text("thinking")
    expect(bot).to_have_class(re.compile("to-act"))
    expect(page.locator("#turn-line")).to_have_text("Your turn", timeout=30_000)
    waited = time.monotonic() - applied
    assert waited >= THINK_S - 0.3, waited
    expect(bot.locator(".thinking")).to_have_count(0)
    last = view_of(page)["last_move"]
    assert last["seat"] == 1
    if last["type"] == "place":
        assert page.evaluate("window.arrived") == len(last["tiles"])
        expect(page.locator(".summy-plane .tile.last")).to_have_count(len(last["tiles"]))
        expect(page.locator(".felt-note")).to_contain_text(f"for {last['score']}")
        expect(bot.locator(".note")).to_have_text(f"+{last['score']}")
    else:
        assert page.evaluate("window.arrived") == 0
    # The turn came back: a chime. Muted, the next one is silent.
    page.wait_for_function("(n) => window.chimes > n", arg=chimes)
    page.get_by_role("button", name="Mute").click()
    expect(page.get_by_role("button", name="Mute")).to_have_attribute("aria-pressed", "true")
    chimes = page.evaluate("window.chimes")
    if view_of(page)["stock"] > 0:
        discard_one(page)
        expect(page.locator("#turn-line")).to_have_text("Your turn", timeout=30_000)
        assert page.evaluate("window.chimes") == chimes
    page.reload()  # the mute is remembered
    expect(page.get_by_role("button", name="Mute")).to_have_attribute("aria-pressed", "true")


def test_the_last_move_is_marked_apart_from_the_keyboard_cursor(
    chromium: Browser, slow_bots: ServerProcess
) -> None:
    page = open_page(chromium, slow_bots)
    play_a_bot(page)
    for _turn in range(6):  # until the bot has placed tiles
        view = wait_my_turn(page)
        assert view is not None
        if view["last_move"] and view["last_move"]["type"] == "place":
            break
        discard_one(page)
    last = page.locator(".summy-plane .tile.last").first
    expect(last).to_be_visible()
    glow = last.evaluate("(n) => getComputedStyle(n).boxShadow")
    assert glow != "none"
    cursor = page.locator(".summy-plane .cell.cursor")
    assert (
        cursor.evaluate("(n) => getComputedStyle(n).outlineStyle") == "none"
    )  # no ring until the keyboard is used
    page.keyboard.press("Tab")
    board = page.get_by_role("application", name="The table")
    board.focus()
    page.keyboard.press("ArrowRight")
    ring = cursor.evaluate(
        "(n) => [getComputedStyle(n).outlineStyle, getComputedStyle(n).outlineColor]"
    )
    assert ring[0] == "solid"
    assert ring[1] not in glow  # the cursor's colour is not the last move's


def test_players_have_avatars_and_bots_look_like_bots(
    chromium: Browser, slow_bots: ServerProcess
) -> None:
    page = open_page(chromium, slow_bots)
    play_a_bot(page)
    expect(page.locator("#players li .avatar")).to_have_count(2)
    me, bot = page.locator("#players li .avatar").all()
    name = page.locator("#players li.me .name").inner_text()
    assert me.inner_text() == "G" + name.split("-")[1][0].upper()
    assert bot.inner_text() == "CB" and "bot" in (bot.get_attribute("class") or "")
    expect(page.locator("#me-chip .avatar")).to_have_text(me.inner_text())


@pytest.mark.parametrize("lang", ["en-GB", "fr-FR", "ja-JP", "it-IT"])
def test_the_phone_header_is_one_line_with_a_menu(
    chromium: Browser, slow_bots: ServerProcess, lang: str
) -> None:
    context = chromium.new_context(
        base_url=slow_bots.url, locale=lang, viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    page.goto(f"/lang?code={lang[:2]}&next=/")
    header = page.locator("header.site").bounding_box()
    assert header is not None and header["height"] <= 64, header
    leaderboard = page.locator("header.site nav a[href^='/leaderboard']")
    expect(leaderboard).to_be_hidden()
    page.locator("#menu-toggle").click()
    expect(page.locator("#menu-toggle")).to_have_attribute("aria-expanded", "true")
    expect(leaderboard).to_be_visible()
    expect(page.locator("#lang-select")).to_be_visible()
    page.keyboard.press("Escape")
    expect(leaderboard).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def luminance(colour: str) -> float:
    r, g, b = (int(n) / 255 for n in re.findall(r"\d+", colour)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_theme_follows_the_system(
    chromium: Browser, slow_bots: ServerProcess, scheme: str
) -> None:
    page = open_page(chromium, slow_bots, color_scheme=scheme)
    page.goto("/")
    paper, ink = page.evaluate(
        "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]"
    )
    paper = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    if scheme == "dark":
        assert luminance(paper) < 0.2 and luminance(ink) > 0.7, (paper, ink)
    else:
        assert luminance(paper) > 0.85 and luminance(ink) < 0.2, (paper, ink)
    # Contrast of the muted text and links on the panel colour stays readable (WCAG 4.5:1).
    pairs = page.evaluate(
        """() => { const s = getComputedStyle(document.documentElement);
            const panel = s.getPropertyValue('--panel').trim();
            return ['--muted', '--link', '--ink'].map((v) => [s.getPropertyValue(v).trim(), panel]);
        }"""
    )
    for fg, bg in pairs:
        assert contrast(fg, bg) >= 4.5, (scheme, fg, bg)


def contrast(fg: str, bg: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    def rel(hex_colour: str) -> float:
        value = hex_colour.lstrip("#")
        r, g, b = (channel(int(value[i : i + 2], 16) / 255) for i in (0, 2, 4))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    a, b = sorted((rel(fg), rel(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)
