"""The home page lists open tables newest first, as the lobby API does: a table just
opened shows on top, however many older ones wait."""

from __future__ import annotations

import pytest
from browser_harness import NewPage, ServerProcess, guest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_table_just_opened_shows_on_top_of_the_lobby(
    new_page: NewPage, live: ServerProcess
) -> None:
    page = new_page("en-GB")
    page.goto("/")
    expect(page.locator("#lobby-live")).to_have_text("live")
    body = {"game": "slide", "seats": 3, "pace": "turn", "move_seconds": 86400}
    with live.client() as older, live.client() as newer:
        guest(older)
        guest(newer)
        first = older.post("/api/tables", json=body).json()["table"]["id"]
        expect(page.locator(f'#open-tables tr[data-table="{first}"]')).to_have_count(1)
        second = newer.post("/api/tables", json=body).json()["table"]["id"]
        expect(page.locator("#open-tables tr").first).to_have_attribute("data-table", second)
        for client, table_id in ((older, first), (newer, second)):
            client.post(f"/api/tables/{table_id}/close").raise_for_status()
