"""Pages on other sites, in a real Chromium, cannot act for the site's visitor nor frame its pages;
only a table's creator is offered to fill the free seats with bots.

The other sites are a small HTTP server of the test's own: ``localhost`` is
another site than the game server's ``127.0.0.1`` (the browser sends no
``SameSite=Lax`` cookie with its POSTs), and ``127.0.0.1`` on another port is
the same site but another origin, as a sibling subdomain is in production
(the browser does send the cookie).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_harness import DESKTOP, NewPage, ServerProcess, guest, own_server
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of this module's own: the quick-play table below is surely a new one."""
    with own_server(Path(tmp_path_factory.mktemp("meeple-cross-site")), {}) as server:
        yield server


def attack_pages(target: str) -> dict[str, str]:
    """Another site's pages aimed at the game server ``target``: a form, a fetch, a frame."""
    return {
        "/form.html": f"""<!doctype html><title>win a prize</title>
            <form method="post" action="{target}/api/auth/logout">
            <button id="go">Claim</button></form>""",
        "/fetch.js": """window.leave = (url) =>
            fetch(url, {method: "POST", mode: "no-cors", credentials: "include"})
              .then(() => "sent", (error) => String(error));""",
        "/fetch.html": '<!doctype html><title>news</title><script src="/fetch.js"></script>',
        "/frame.html": f"""<!doctype html><title>framed</title>
            <iframe id="victim" src="{target}/" width="800" height="600"></iframe>""",
    }


@pytest.fixture(scope="module")
def other_site(live: ServerProcess) -> Iterator[int]:
    """The port of a plain HTTP server with :func:`attack_pages`, on every loopback name."""
    pages = attack_pages(live.url)

    class Pages(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            """Serve one of the pages, or 404."""
            body = pages.get(self.path)
            self.send_response(200 if body else 404)
            kind = "text/javascript" if self.path.endswith(".js") else "text/html"
            self.send_header("Content-Type", kind)
            self.end_headers()
            self.wfile.write((body or "").encode())

        def log_message(self, *_args: Any) -> None:
            """Quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def seated_in_a_running_game(page: Page, live: ServerProcess) -> str:
    """Sign the page's person in as a guest at a started two-seat Slide table; its id."""
    page.goto("/")
    assert page.request.post(f"{live.url}/api/auth/guest").ok
    answer = page.request.post(f"{live.url}/api/tables", data={"game": "slide", "seats": 2})
    table_id: str = answer.json()["table"]["id"]
    with live.client() as other:
        guest(other)
        other.post(f"/api/tables/{table_id}/join", json={}).raise_for_status()
    assert page.request.post(f"{live.url}/api/tables/{table_id}/start").ok
    return table_id


def me(page: Page, live: ServerProcess) -> Any:
    """Who the page's person is signed in as (``None``: nobody)."""
    return page.request.get(f"{live.url}/api/auth/me").json()


def test_another_sites_form_does_not_sign_the_visitor_out(
    new_page: NewPage, live: ServerProcess, other_site: int
) -> None:
    page = new_page()
    seated_in_a_running_game(page, live)
    signed_in = me(page, live)
    assert signed_in is not None and signed_in["guest"]
    page.goto(f"http://localhost:{other_site}/form.html")
    with page.expect_response(f"{live.url}/api/auth/logout") as answer:
        page.locator("#go").click()  # the cookie does not come along: SameSite=Lax
    assert me(page, live) == signed_in
    assert any(c["name"] == "meeple_session" for c in page.context.cookies(live.url))
    assert answer.value.status == 403


def test_a_same_site_page_cannot_leave_the_visitors_seat(
    new_page: NewPage, live: ServerProcess, other_site: int
) -> None:
    page = new_page()
    table_id = seated_in_a_running_game(page, live)
    user_id = me(page, live)["id"]
    page.goto(f"http://127.0.0.1:{other_site}/fetch.html")  # same site, another origin
    outcome = page.evaluate("(url) => window.leave(url)", f"{live.url}/api/tables/{table_id}/leave")
    assert outcome == "sent"
    seats = httpx.get(f"{live.url}/api/tables/{table_id}").json()["table"]["seats"]
    mine = next(seat for seat in seats if seat["user_id"] == user_id)
    assert mine["zombie"] is False and mine["left"] is False
    # The same request from the site's own page is honoured: the refusal was for the origin.
    page.goto(f"/table/{table_id}")
    assert (
        page.evaluate(
            "(url) => fetch(url, {method: 'POST'}).then((r) => r.status)",
            f"/api/tables/{table_id}/leave",
        )
        == 200
    )


def test_another_site_cannot_frame_the_pages(browser: Browser, other_site: int) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        refused: list[str] = []
        page.on("console", lambda message: refused.append(message.text))
        page.goto(f"http://localhost:{other_site}/frame.html", wait_until="load")
        frame = page.frame_locator("#victim")
        page.wait_for_timeout(500)  # an error page, if any, is drawn by now
        expect(frame.locator("a.brand")).to_have_count(0)
        assert any("frame-ancestors" in text for text in refused), refused
    finally:
        context.close()


def test_only_the_creator_is_offered_bots_now(new_page: NewPage, live: ServerProcess) -> None:
    creator = new_page("en-GB")
    creator.goto("/")
    creator.locator("#card-slide").get_by_role("button", name="Quick play").click()
    creator.wait_for_url("**/table/*")
    expect(creator.locator("#bots-now")).to_be_visible()
    table_id = creator.url.rsplit("/", 1)[1]

    joiner = new_page("en-GB")
    joiner.goto("/")
    assert joiner.request.post(f"{live.url}/api/auth/guest").ok
    assert joiner.request.post(f"{live.url}/api/tables/{table_id}/join", data={}).ok
    joiner.goto(f"/table/{table_id}")
    expect(joiner.locator("#quick-search")).to_contain_text("Looking for players")
    expect(joiner.locator("#bots-now")).to_be_hidden()
    expect(creator.locator("#bots-now")).to_be_visible()
