"""A page told that its table runs on another server (the ``owner`` message) connects there only
on its own host, from the version it had, and comes back through the site's address when that
connection fails. The server side (who is told, and playing on at the owner) is tested in
tests/tables/test_owner_address.py; here the socket is routed by the test, since one
host with a path per server needs a proxy in front of several servers."""

from __future__ import annotations

import json
import re
import time

import pytest
from browser_harness import NewPage, ServerProcess
from playwright.sync_api import WebSocketRoute, expect
from test_browser_summy import play_a_bot, version, wait_my_turn

pytestmark = pytest.mark.browser


def test_the_page_follows_an_owner_on_its_own_host_only_and_comes_back_when_it_fails(
    new_page: NewPage, live: ServerProcess
) -> None:
    page = new_page("en-GB")
    opened: list[str] = []
    to_site: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        opened.append(ws.url)
        if "/s/east/" in ws.url:
            ws.close()  # the owner went away just after saying where it was
            return
        ws.connect_to_server()  # the site's own address: the real server
        to_site.append(ws)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    play_a_bot(page)
    assert wait_my_turn(page) is not None
    table_id = page.url.rsplit("/", 1)[1]
    host = live.url.removeprefix("http://")
    seen = version(page)

    # Another host is not followed: this page's cookies and Origin would not be accepted.
    elsewhere = f"ws://elsewhere.example/ws/tables/{table_id}"
    to_site[-1].send(json.dumps({"type": "owner", "url": elsewhere}))
    owner = f"ws://{host}/s/east/ws/tables/{table_id}"
    to_site[-1].send(json.dumps({"type": "owner", "url": owner}))
    deadline = time.monotonic() + 10
    while len(opened) < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # the page runs, and the routes with it

    assert opened[1] == f"{owner}?since={seen}"
    assert not any("elsewhere.example" in url for url in opened)
    # The followed connection failed: back through the site's address, from the same version.
    assert opened[2] == f"ws://{host}/ws/tables/{table_id}?since={seen}"
    expect(page.locator("#offline")).to_be_hidden()
    assert wait_my_turn(page) is not None  # and the game goes on
    assert version(page) >= seen
