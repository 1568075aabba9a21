"""What a newcomer meets: an invite, the wait for the host, the end of a game and their profile,
and a table or replay they may not see."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from browser_harness import NewPage, ServerProcess, shot
from playwright.sync_api import Page, expect
from test_browser_account import sign_in

from meeple.bots import get_bot

pytestmark = pytest.mark.browser

NO_TABLE = "There is no such table, or it is private: ask for its invite link."
VIEW_TEXT = "JSON.stringify(window.meeple.view())"


def new_guest(page: Page) -> dict[str, Any]:
    """Make the page's person a guest (the request shares the page's cookies)."""
    page.goto("/")
    user: dict[str, Any] = page.request.post("/api/auth/guest").json()
    return user


def create_table(page: Page, **body: Any) -> str:
    """Open a table as the page's person; its id."""
    answer = page.request.post("/api/tables", data=body)
    assert answer.ok, answer.text()
    table_id: str = answer.json()["table"]["id"]
    return table_id


def play_slide_to_the_end(page: Page, seat: int) -> None:
    """Play the page's seat with the random bot's mind, through the page's own connection."""
    mind = get_bot("slide", "random", 7)
    deadline = time.monotonic() + 180
    while not page.locator("#summary[open]").count():
        assert time.monotonic() < deadline, "the game did not end"
        before = page.evaluate(VIEW_TEXT)
        view = page.evaluate("window.meeple.view()")
        if view and view["phase"] != "over" and seat in view["to_act"]:
            action = mind.choose(view, seat, 0.05)
            sent = """(action) => window.meeple.connection.send(
                { type: "action", id: crypto.randomUUID(), action })"""
            assert page.evaluate(sent, action)
            # The next move waits for the view this one makes.
            page.wait_for_function(f"(old) => {VIEW_TEXT} !== old", arg=before)
        else:
            page.wait_for_timeout(100)


def test_the_end_of_a_game_says_how_it_went_and_the_profile_lists_it(
    new_page: NewPage,
) -> None:
    page = new_page("en-GB")
    me = new_guest(page)
    table_id = create_table(page, game="slide", seats=2, bots={"1": "random"}, seat=0)
    assert page.request.post(f"/api/tables/{table_id}/start").ok
    page.goto(f"/table/{table_id}")
    play_slide_to_the_end(page, 0)
    result = page.request.get(f"/api/tables/{table_id}").json()["table"]["result"]
    ranks, scores = result["ranks"], result["scores"]
    said = {(1, 2): "You won!", (2, 1): "You lost.", (1, 1): "Draw."}[(ranks[0], ranks[1])]
    expect(page.locator("#summary-outcome")).to_have_text(said)
    expect(page.locator("#summary-rows tr.me")).to_have_count(1)
    expect(page.locator("#summary-rows tr.me")).to_contain_text(f"{me['name']} (you)")
    expect(page.locator("#summary-rows tr.me")).to_contain_text(str(scores[0]))
    shot(page, "summary-outcome")
    # Under the dialog, the final grids' captions: whole names and scores, wrapped, not cut.
    page.locator("#summary-close").click()
    captions = page.locator(".slide-final figcaption")
    expect(captions).to_have_count(2)
    expect(captions.nth(1)).to_contain_text("beginner bot: cards left")
    for seat in (0, 1):
        expect(captions.nth(seat)).to_contain_text(f"{scores[seat]} pts")
        assert captions.nth(seat).evaluate("(node) => node.scrollWidth <= node.clientWidth")
    # The profile's recent games: the opponent, the scores (mine first) and the result.
    page.goto(f"/profile/{me['name']}")
    line = page.locator(f'#profile-recent li[data-table="{table_id}"]')
    word = {"You won!": "won", "You lost.": "lost", "Draw.": "draw"}[said]
    expect(line).to_contain_text(f"against beginner bot · {scores[0]}–{scores[1]} · {word}")
    # Someone else reads it from the other side: not "You won", and no row of theirs.
    watcher = new_page("en-GB")
    watcher.goto(f"/table/{table_id}")
    expect(watcher.locator("#summary[open]")).to_be_visible()
    expect(watcher.locator("#summary-outcome")).to_be_hidden()
    expect(watcher.locator("#summary-rows tr.me")).to_have_count(0)


def test_an_invited_friend_is_told_who_starts_and_sees_their_guest_name(
    new_page: NewPage,
) -> None:
    host = new_page("en-GB")
    host_user = new_guest(host)
    table_id = create_table(host, game="slide", seats=2, private=True, seat=0)
    invite = host.request.get(f"/api/tables/{table_id}").json()["invite_url"]
    host.goto(f"/table/{table_id}")
    expect(host.locator("#turn-line")).to_have_text("Waiting for players to sit down.")

    friend = new_page("en-GB")
    friend.goto(invite)
    expect(friend.locator("#account-signin")).to_be_visible()
    friend.get_by_role("button", name="Take seat 2").click()
    # Taking the seat made a guest: the header says so at once, without a reload.
    expect(friend.locator("#account-name")).to_be_visible()
    expect(friend.locator("#account-name")).to_contain_text("guest-")
    expect(friend.locator("#account-guest")).to_be_hidden()
    expect(friend.locator("#account-signup")).to_have_text("Create an account")
    # Both seats taken: the friend waits for the host by name; the host is asked to start.
    waiting = f"Waiting for {host_user['name']} to start the game."
    expect(friend.locator("#turn-line")).to_have_text(waiting)
    expect(friend.locator("#start")).to_be_hidden()
    expect(host.locator("#turn-line")).to_have_text(
        "Everyone is seated: start the game when you are ready."
    )
    expect(host.locator("#seat-heading")).to_have_text("Everyone is seated")
    expect(host.get_by_role("button", name="Start the game")).to_be_visible()


def test_an_anonymous_visitor_on_an_invite_page_says_a_line_and_it_is_posted(
    new_page: NewPage,
) -> None:
    """The chat box is there for everyone who can see the table: a visitor with no session who
    sends a line becomes a guest (as taking a seat does) and the line is posted as theirs."""
    host = new_page("en-GB")
    new_guest(host)
    table_id = create_table(host, game="slide", seats=2, private=True, seat=0)
    invite = host.request.get(f"/api/tables/{table_id}").json()["invite_url"]
    host.goto(f"/table/{table_id}")

    visitor = new_page("fr-FR")
    visitor.goto(invite)
    expect(visitor.locator("#account-signin")).to_be_visible()
    box = visitor.get_by_role("textbox", name="Écrire un message")
    box.fill("bonjour !")
    box.press("Enter")
    expect(visitor.locator("#account-name")).to_contain_text("guest-")
    name = visitor.locator("#account-name").inner_text().strip()
    # What a line says (its menu, to report or block, follows it in the line).
    expect(visitor.locator("#chat li .chat-said")).to_have_text([f"{name}: bonjour !"])
    expect(box).to_have_value("")
    expect(visitor.locator("#message")).to_have_text("")
    # The host sees it live, and the visitor's next line goes over their own socket.
    expect(host.locator("#chat li .chat-said")).to_have_text([f"{name}: bonjour !"])
    box.fill("on joue ?")
    box.press("Enter")
    expect(host.locator("#chat li .chat-said")).to_have_text(
        [f"{name}: bonjour !", f"{name}: on joue ?"]
    )


def test_a_guest_who_signs_in_to_their_account_keeps_the_game_they_played(
    new_page: NewPage, live: ServerProcess
) -> None:
    """A game against a bot played as a guest, then the sign-in form to the account the player
    already had: the replay opens (it said "There is no table") and the profile lists it."""
    name = f"Keeper{secrets.token_hex(3)}"
    with live.client() as maker:
        body = {"name": name, "password": "Tile-Slider-42"}
        assert maker.post("/api/auth/register", json=body).status_code == 201
    page = new_page("en-GB")
    new_guest(page)
    table_id = create_table(page, game="slide", seats=2, bots={"1": "random"}, private=True)
    assert page.request.post(f"/api/tables/{table_id}/start").ok
    page.goto(f"/table/{table_id}")
    play_slide_to_the_end(page, 0)
    page.goto("/signin")
    sign_in(page, name, "Tile-Slider-42")
    expect(page.locator("#account-name")).to_have_text(name)
    page.goto(f"/replay/{table_id}")
    expect(page.locator("#replay-forward")).to_be_visible()
    expect(page.locator("#replay-error")).to_be_hidden()
    page.goto(f"/profile/{name}")
    expect(page.locator(f'#profile-recent li[data-table="{table_id}"]')).to_contain_text(
        "against beginner bot"
    )
    page.goto(f"/table/{table_id}")
    expect(page.locator("#log")).to_contain_text(f"{name} signed in: this seat is theirs now.")
    expect(page.locator("#summary-rows tr.me")).to_contain_text(f"{name} (you)")


def test_a_table_or_replay_one_may_not_see_shows_only_the_error_and_a_way_home(
    new_page: NewPage,
) -> None:
    owner = new_page("en-GB")
    new_guest(owner)
    table_id = create_table(owner, game="slide", seats=2, private=True, bots={"1": "random"})
    stranger = new_page("en-GB")
    stranger.goto(f"/table/{table_id}")
    expect(stranger.locator("#table-gone-text")).to_have_text(NO_TABLE)
    expect(stranger.get_by_role("link", name="Back to the home page")).to_be_visible()
    for hidden in ("#leave", "#chat-form", "#log", "#players", "#turn-line"):
        expect(stranger.locator(hidden)).to_be_hidden()
    # A replay that is not there: its error and the way home, no controls to step with.
    stranger.goto("/replay/no-such-table")
    expect(stranger.locator("#replay-error")).to_be_visible()
    expect(stranger.get_by_role("link", name="Back to the home page")).to_be_visible()
    for hidden in ("#replay-forward", "#replay-back", "#replay-seat", "#log"):
        expect(stranger.locator(hidden)).to_be_hidden()


def test_the_outcome_of_a_game_of_several_players(new_page: NewPage) -> None:
    page = new_page("en-GB")
    page.goto("/")
    cases = [
        ([1, 2, 3, 4], "won"),
        ([2, 1, 3, 4], "rank 2 of 4"),
        ([1, 1, 3], "shared"),
        ([1, 1, 1], "draw"),
        ([2, 1], "lost"),
    ]
    for ranks, said in cases:
        got = page.evaluate(
            """async (ranks) => {
              const { outcome } = await import("/static/js/outcome.js");
              const how = outcome(ranks, 0);
              return how.kind === "rank" ? `rank ${how.rank} of ${how.n}` : how.kind;
            }""",
            ranks,
        )
        assert got == said, ranks
