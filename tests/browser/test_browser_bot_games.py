"""A game against a bot is never shown as rated, and the profile counts it as played and won.

The create-table form unticks and disables "Rated game" once bots leave fewer
than two seats for people, and says why; the table the server opens says
``rated: false``. The person's seat is played from here (the strong bot's
mind over the page's own cookies) against the beginner bot; the profile page
then counts every finished game in "played" and in "won" alike.
"""

from __future__ import annotations

import json
import time
from itertools import pairwise
from typing import Any

import pytest
from browser_harness import NewPage, ServerProcess, begin_slide, guest, shot, wait_finished
from playwright.sync_api import Page, expect
from websockets.sync.client import connect

from meeple.bots import get_bot

pytestmark = pytest.mark.browser


def play_my_seat(page: Page, table_id: str, seed: int) -> dict[str, Any]:
    """Play the page's seat at ``table_id`` to the end with the strong bot's mind; the result."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    url = page.url.split("/table/")[0].replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    mind = get_bot("slide", "strong", seed)
    deadline = time.monotonic() + 120
    with connect(url, additional_headers={"Cookie": cookies}, max_queue=None) as ws:
        hello = json.loads(ws.recv(timeout=10))
        seat, view, to_act = hello["seat"], hello["view"], hello["table"]["to_act"]
        version, finished = hello["version"], hello["table"]["status"] == "finished"
        wait_for, sent = 0, 0  # act again only once the view includes our last action
        while not finished:
            assert time.monotonic() < deadline, "the game did not finish in time"
            if seat in to_act and view is not None and version >= wait_for:
                action = mind.choose(view, seat, 0.05)
                ws.send(json.dumps({"type": "action", "id": f"me-{sent}", "action": action}))
                sent, wait_for = sent + 1, 1 << 62
            message = json.loads(ws.recv(timeout=30))
            if message.get("type") == "event":
                version, view, to_act = message["version"], message["view"], message["to_act"]
                finished = message["kind"] == "finish"
            elif message.get("type") == "ack":
                wait_for = message["version"]
            elif message.get("type") == "error":
                raise AssertionError(message)
    table: dict[str, Any] = page.request.get(f"/api/tables/{table_id}").json()["table"]
    return table


def test_a_game_against_a_bot_is_not_rated_and_a_win_counts_on_the_profile(
    new_page: NewPage,
) -> None:
    page = new_page("en-GB")
    page.goto("/")
    form = page.locator("#create-form")
    form.get_by_label("Slide").check()
    page.locator("#create-seats").fill("2")
    rated, note = page.locator("#create-rated"), page.locator("#rated-note")
    expect(rated).to_be_checked()
    expect(rated).to_be_enabled()
    # A bot in the only other seat: nobody could be rated, and the form says so.
    form.locator('select[name="seat-1"]').select_option("bot:random")
    expect(rated).not_to_be_checked()
    expect(rated).to_be_disabled()
    expect(note).to_have_text("Games against bots are not rated.")
    shot(page, "create-form-bot-unrated")
    # An open seat again: the box comes back as it was.
    form.locator('select[name="seat-1"]').select_option("open")
    expect(rated).to_be_checked()
    expect(rated).to_be_enabled()
    expect(note).to_be_hidden()

    games = wins = 0
    while wins == 0:  # the strong bot beats the beginner nearly always; a loss just counts
        assert games < 4, "the strong mind lost four games in a row to the beginner bot"
        page.goto("/")
        form.get_by_label("Slide").check()
        page.locator("#create-seats").fill("2")
        form.locator('select[name="seat-1"]').select_option("bot:random")
        form.get_by_role("button", name="Create the table").click()
        page.wait_for_url("**/table/*")
        table_id = page.url.rsplit("/", 1)[1]
        summary = page.request.get(f"/api/tables/{table_id}").json()["table"]
        assert summary["rated"] is False and summary["unrated_by_bots"] is False
        expect(page.locator("#players")).to_contain_text("beginner bot")
        table = play_my_seat(page, table_id, seed=games)
        assert table["status"] == "finished" and table["rated"] is False
        games += 1
        wins += 0 in table["result"]["winners"]

    me = page.request.get("/api/auth/me").json()["name"]
    page.goto(f"/profile/{me}")
    stat = page.locator('#profile-games .stat[data-game="slide"]')
    expect(stat.locator(".played")).to_have_text(f"played: {games}")
    expect(stat.locator(".won")).to_have_text(f"won: {wins}")
    expect(stat).not_to_contain_text("rated:")  # no rated game, no rating
    shot(page, "profile-bot-win")


def rated_slide_game(live: ServerProcess, alice: Any, bob: Any) -> None:
    """A rated Slide game between two people who make their first moves, then both leave
    (bots finish it)."""
    body = {"game": "slide", "seats": 2, "rated": True, "pace": "realtime", "move_seconds": 3600}
    table_id: str = alice.post("/api/tables", json=body).json()["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", json={}).raise_for_status()
    alice.post(f"/api/tables/{table_id}/start").raise_for_status()
    begin_slide([alice, bob], table_id)
    for client in (bob, alice):
        client.post(f"/api/tables/{table_id}/leave").raise_for_status()
    wait_finished(alice, table_id)


def test_the_rating_is_explained_marked_provisional_and_charted_on_the_cards_scale(
    new_page: NewPage, live: ServerProcess
) -> None:
    with live.client() as alice, live.client() as bob:
        name = guest(alice)["name"]
        guest(bob)
        for _ in range(2):
            rated_slide_game(live, alice, bob)
        rating = alice.get(f"/api/users/{name}").json()["ratings"][0]["rating"]
    page = new_page("en-GB")
    page.goto(f"/profile/{name}")
    stat = page.locator('#profile-games .stat[data-game="slide"]')
    expect(stat).to_contain_text(f"rating {rating}?")
    mark = stat.locator("abbr.provisional")
    expect(mark).to_have_attribute("title", "provisional: fewer than 10 rated games")
    expect(page.locator("#rating-explained")).to_contain_text("everybody starts at 1500")
    expect(page.locator("#rating-explained")).not_to_contain_text("μ")
    # The chart's last point says the card's number; its ticks are round numbers.
    expect(page.locator('#profile-chart svg text.last[data-game="slide"]')).to_have_text(
        str(rating)
    )
    ticks = [int(t) for t in page.locator("#profile-chart svg text.tick").all_text_contents()]
    steps = {b - a for a, b in pairwise(ticks)}
    assert len(steps) == 1, ticks
    step = steps.pop()
    assert all(tick % step == 0 for tick in ticks), ticks
    assert ticks[0] < min(1500, rating) and ticks[-1] > max(1500, rating), ticks
    page.goto("/leaderboard/slide")
    row = page.locator("#leaderboard-rows tr", has_text=name)
    expect(row).to_contain_text(f"{rating}?")
    expect(row.locator("abbr.provisional")).to_have_attribute(
        "title", "provisional: fewer than 10 rated games"
    )
    shot(page, "leaderboard-provisional")


def test_several_bots_of_one_level_have_one_numbered_name_in_seats_and_log(
    new_page: NewPage,
) -> None:
    page = new_page("en-GB")
    page.goto("/")
    page.locator("#card-slide").get_by_role("button", name="Quick play").click()
    page.wait_for_url("**/table/*")
    page.get_by_role("button", name="Play with bots now").click()
    players = page.locator("#players li")
    expect(players).to_have_count(4)
    for seat, name in ((1, "casual bot"), (2, "casual bot 2"), (3, "casual bot 3")):
        expect(players.nth(seat).locator(".name")).to_have_text(name)
        # The log names each bot as its seat does, not "bot (greedy)".
        expect(page.locator("#log")).to_contain_text(f"{name} sat down.")
    expect(page.locator("#log")).not_to_contain_text("(greedy)")
