"""Requests from other sites change nothing; logout removes only the cookie it was sent;
every response carries the security headers (no framing by other sites, scripts from here only)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import httpx
import pytest
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from server_harness import Client, LiveServer, slide_pair

from meeple.web import pages

FOREIGN = [
    {"Origin": "https://evil.example"},
    {"Origin": "null"},  # a sandboxed frame, a redirect from elsewhere
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},  # a sibling subdomain
]
WRITE_METHODS = ("post", "put", "patch", "delete")


def seat_of(client: Client, table_id: str) -> dict[str, Any]:
    """The client's own seat as the table shows it."""
    seats = client.get(f"/api/tables/{table_id}")["table"]["seats"]
    assert client.user is not None
    return next(seat for seat in seats if seat["user_id"] == client.user["id"])


@pytest.mark.parametrize("headers", FOREIGN, ids=lambda h: "=".join(next(iter(h.items()))))
def test_a_page_on_another_site_cannot_take_a_players_seat(
    server: LiveServer, headers: dict[str, str]
) -> None:
    alice, _bob, table_id = slide_pair(server)
    answer = alice.http.post(f"/api/tables/{table_id}/leave", headers=headers)
    assert answer.status_code == 403 and answer.json()["code"] == "cross_site"
    assert seat_of(alice, table_id)["zombie"] is False


def test_every_route_that_changes_state_refuses_another_sites_page(server: LiveServer) -> None:
    alice, _bob, table_id = slide_pair(server)
    spec = alice.get("/openapi.json")
    writes = [
        (method, re.sub(r"\{[a-z_]+\}", table_id, path))
        for path, item in spec["paths"].items()
        for method in item
        if method in WRITE_METHODS
    ]
    assert len(writes) >= 15
    for method, path in writes:
        for headers in FOREIGN:
            answer = alice.http.request(method, path, json={}, headers=headers)
            assert (answer.status_code, answer.json()["code"]) == (403, "cross_site"), path
    assert alice.get("/api/auth/me") == alice.user  # logout above changed nothing
    assert seat_of(alice, table_id)["zombie"] is False


@pytest.mark.parametrize(
    "headers",
    [{}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, "own origin"],
    ids=["no header", "same-origin fetch", "typed in", "own origin"],
)
def test_this_sites_pages_and_programs_without_a_browser_still_act(
    server: LiveServer, headers: dict[str, str] | str
) -> None:
    alice, _bob, table_id = slide_pair(server)
    sent = {"Origin": server.url} if headers == "own origin" else headers
    assert isinstance(sent, dict)
    answer = alice.http.post(f"/api/tables/{table_id}/leave", headers=sent)
    assert answer.status_code == 200, answer.text
    assert seat_of(alice, table_id)["zombie"] is True


def test_logout_removes_only_a_cookie_it_was_sent(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as stranger:
        answer = stranger.post("/api/auth/logout")  # a form elsewhere: no cookie comes along
        assert answer.status_code == 204 and "set-cookie" not in answer.headers
    with httpx.Client(base_url=server.url, cookies={"meeple_session": "forged"}) as forger:
        answer = forger.post("/api/auth/logout")
        assert answer.status_code == 204 and "set-cookie" not in answer.headers
    alice = server.client("alice")
    alice.guest()
    answer = alice.http.post("/api/auth/logout")
    assert answer.status_code == 204 and "meeple_session" in answer.headers["set-cookie"]
    assert alice.get("/api/auth/me") is None


def csp(response: httpx.Response) -> dict[str, str]:
    """The response's Content-Security-Policy, directive name to its sources."""
    policy = response.headers["content-security-policy"]
    parts = [part.strip().split(" ", 1) for part in policy.split(";") if part.strip()]
    return {part[0]: part[1] if len(part) > 1 else "" for part in parts}


def assert_security_headers(response: httpx.Response) -> None:
    """Not framable by other sites, no type sniffing, no referrer to other sites."""
    assert response.headers["x-frame-options"] == "SAMEORIGIN"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"
    assert csp(response)["frame-ancestors"] == "'self'"


class ScriptFinder(HTMLParser):
    """Collects a page's inline scripts and inline event handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note a script without ``src`` and every ``on…=`` or ``style=`` attribute."""
        names = {name for name, _value in attrs}
        if tag == "script" and "src" not in names:
            self.inline.append(f"<script> without src in <{tag}>")
        self.inline += [f"{name} on <{tag}>" for name in names if name.startswith("on")]
        self.inline += [f"style on <{tag}>" for name in names if name == "style"]


def test_every_page_forbids_framing_and_inline_script(server: LiveServer) -> None:
    alice, _bob, table_id = slide_pair(server)
    assert alice.user is not None
    fill = {
        "game": "summy",
        "table_id": table_id,
        "name": alice.user["name"],
        "puzzle_id": "x",
        "tournament_id": "x",
    }
    paths = [
        route.path
        for route in pages.router.routes
        if isinstance(route, APIRoute) and route.response_class is HTMLResponse
    ]
    pages_here = [re.sub(r"\{([a-z_]+)\}", lambda m: fill[m.group(1)], path) for path in paths]
    assert {"/", "/signin", f"/table/{table_id}", "/rules/summy"} <= set(pages_here)
    for path in pages_here:
        response = alice.http.get(path)
        assert response.status_code == 200, path
        assert_security_headers(response)
        policy = csp(response)
        assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'", path
        finder = ScriptFinder()
        finder.feed(response.text)
        assert finder.inline == [], path


def test_api_answers_and_refusals_carry_the_headers_and_docs_have_their_own_policy(
    server: LiveServer,
) -> None:
    client = server.client()
    for response in (
        client.http.get("/api/health"),
        client.http.get("/static/js/table.js"),
        client.http.post("/api/auth/guest", headers={"Origin": "https://evil.example"}),
        client.http.get("/api/tables/nothing-here"),
    ):
        assert_security_headers(response)
    docs = client.http.get("/docs")
    assert_security_headers(docs)
    assert "https://cdn.jsdelivr.net" in csp(docs)["script-src"]
    assert "'unsafe-inline'" not in csp(client.http.get("/"))["script-src"]
