"""Friends as a player meets them over the API (docs/server.md, "Friends"): follow and
unfollow, the list with who is online and what they play, the refusals, and the notices
about followed players (online at most once in a few hours; a tournament joined)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
from server_harness import Client, LiveServer
from test_notifications import all_notes, wait_notes

from meeple.tables.notices.friends import ONLINE_NOTICE_EVERY_S, ONLINE_SEEN_S

AWAY = ONLINE_SEEN_S + 30
"""Long enough unseen to be offline, and to come online again at the next request."""


def follow(client: Client, name: str, expect: int = 200) -> dict[str, Any]:
    """``PUT /api/users/{name}/follow``: the answer's body."""
    answer = client.http.put(f"/api/users/{name}/follow")
    assert answer.status_code == expect, answer.text
    body: dict[str, Any] = answer.json()
    return body


def unfollow(client: Client, name: str, expect: int = 200) -> dict[str, Any]:
    """``DELETE /api/users/{name}/follow``: the answer's body."""
    answer = client.http.delete(f"/api/users/{name}/follow")
    assert answer.status_code == expect, answer.text
    body: dict[str, Any] = answer.json()
    return body


def friends_of(client: Client) -> dict[str, dict[str, Any]]:
    """The client's friends list, by name."""
    return {friend["name"]: friend for friend in client.get("/api/me/following")["friends"]}


def accounts(server: LiveServer, *names: str) -> list[Client]:
    """A signed-in client for each name."""
    clients = []
    for name in names:
        client = server.client(name)
        client.register(name)
        clients.append(client)
    return clients


def test_follow_and_unfollow_by_name_in_any_case_each_twice_changing_nothing(
    live: LiveServer,
) -> None:
    ada, _bob = accounts(live, "ada", "Bob")
    first = follow(ada, "bob")
    assert first == {"name": "Bob", "following": True, "count": 1, "limit": 500}
    assert follow(ada, "BOB") == first
    listed = ada.get("/api/me/following")
    assert listed["count"] == 1 and listed["limit"] == 500
    assert listed["notices"] == {"online": True, "tournaments": True}
    (bob,) = listed["friends"]
    assert (bob["name"], bob["bot"], bob["guest"], bob["playing"]) == ("Bob", False, False, [])
    assert unfollow(ada, "Bob") == {"name": "Bob", "following": False, "count": 0, "limit": 500}
    assert unfollow(ada, "bob")["count"] == 0
    assert friends_of(ada) == {}


def test_refusals_self_unknown_nobody_guest_token_and_the_cap(live: LiveServer) -> None:
    cyd, *others = accounts(live, "cyd", "dee", "eve", "fay")
    refused = follow(cyd, "cyd", 400)
    assert refused["code"] == "follow_self"
    assert follow(cyd, "nobody-here", 404)["code"] == "no_player"
    anonymous = live.client("anonymous")
    assert follow(anonymous, "cyd", 401)["code"] == "sign_in"
    assert anonymous.get("/api/me/following", expect=401)["code"] == "sign_in"
    guest = live.client("guest")
    guest_name = guest.guest()["name"]
    assert follow(guest, "cyd", 409)["code"] == "follow_guest"
    assert guest.get("/api/me/following")["friends"] == []
    notices = guest.http.put("/api/me/friend-notices", json={"online": False})
    assert (notices.status_code, notices.json()["code"]) == (409, "follow_guest")
    # A guest may be followed: signing up keeps its row, so its followers keep it.
    assert follow(cyd, guest_name)["following"] is True
    assert friends_of(cyd)[guest_name]["guest"] is True
    unfollow(cyd, guest_name)
    # A token, whatever its scopes, cannot follow nor read the list: a person's choice.
    token = cyd.post("/api/account/tokens", {"label": "t", "scopes": ["games:read"]}, 201)
    bearer = {"Authorization": f"Bearer {token['token']}"}
    by_token = httpx.put(f"{live.url}/api/users/dee/follow", headers=bearer)
    assert (by_token.status_code, by_token.json()["code"]) == (403, "token_scope")
    listing = httpx.get(f"{live.url}/api/me/following", headers=bearer)
    assert (listing.status_code, listing.json()["code"]) == (403, "token_scope")
    live.services.friends.max_following = 2
    try:
        follow(cyd, "dee")
        follow(cyd, "eve")
        full = follow(cyd, "fay", 409)
        assert (full["code"], full["params"]) == ("too_many_follows", {"limit": 2})
        assert follow(cyd, "dee")["following"] is True  # following already: no new follow
        assert sorted(friends_of(cyd)) == ["dee", "eve"]
    finally:
        live.services.friends.max_following = 500
    assert [client.user["name"] for client in others if client.user] == ["dee", "eve", "fay"]


def test_the_list_says_who_is_online_and_the_public_games_they_play(server: LiveServer) -> None:
    gus, hal, ida = accounts(server, "gus", "hal", "ida")
    follow(gus, "hal")
    follow(gus, "ida")
    hal.get("/api/auth/me")  # signed in and on the site (a sign-up alone is not a visit)
    ida.get("/api/auth/me")
    assert {name: f["online"] for name, f in friends_of(gus).items()} == {"hal": True, "ida": True}
    server.advance(AWAY)
    assert {name: f["online"] for name, f in friends_of(gus).items()} == {
        "hal": False,
        "ida": False,
    }
    ida.get("/api/auth/me")  # back on the site
    assert list(friends_of(gus)) == ["ida", "hal"]  # online first
    assert friends_of(gus)["ida"]["online"] and not friends_of(gus)["hal"]["online"]
    public = hal.create_table(game="slide", seats=2)["table"]["id"]
    ida.post(f"/api/tables/{public}/join", {})
    hal.post(f"/api/tables/{public}/start")
    hal.create_table(game="summy", seats=2, bots={"1": "greedy"}, private=True)
    listed = friends_of(gus)
    assert listed["hal"]["playing"] == [{"table_id": public, "game": "slide"}]
    assert listed["ida"]["playing"] == [{"table_id": public, "game": "slide"}]


def test_a_deleted_account_leaves_every_friends_list_and_the_export_names_whom_one_follows(
    server: LiveServer,
) -> None:
    joe, kim, lee = accounts(server, "joe", "kim", "lee")
    follow(joe, "kim")
    follow(joe, "lee")
    follow(kim, "joe")
    assert joe.get("/api/account")["following"] == ["kim", "lee"]
    kim.post("/api/account/delete", {"password": "Tile-Slider-42"})
    assert list(friends_of(joe)) == ["lee"]
    assert follow(joe, "kim", 404)["code"] == "no_player"
    assert lee.get("/api/account")["following"] == []


def tell_count(client: Client, kind: str) -> int:
    """How many notifications of ``kind`` the client's account holds."""
    return sum(1 for note in all_notes(client) if note["kind"] == kind)


def settled(server: LiveServer, check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until ``check`` holds, then a little longer: a job queued after a request runs
    within a pass of 50 ms, so a notice that was not made by then never is."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.5)


def test_a_friend_coming_online_is_told_once_in_a_few_hours_to_followers_online(
    server: LiveServer,
) -> None:
    ann, ben, cat = accounts(server, "ann", "ben", "cat")
    follow(ann, "ben")
    follow(cat, "ben")
    # Away until 5 minutes before the clock's next 3-hour mark: the comings and goings below
    # cross it, and still tell nothing new (3 hours from the last notice, not a new window).
    to_mark = ONLINE_NOTICE_EVERY_S - server.clock.now() % ONLINE_NOTICE_EVERY_S - 300
    server.advance(to_mark if to_mark >= AWAY else to_mark + ONLINE_NOTICE_EVERY_S)
    ann.get("/api/notifications")  # Ann comes back; Cat stays away
    ben.get("/api/auth/me")  # Ben comes online: Ann, online, is told
    notes = wait_notes(ann, lambda n: any(x["kind"] == "friend_online" for x in n))
    (told,) = [note for note in notes if note["kind"] == "friend_online"]
    assert told["data"] == {"from": "ben", "bot": False} and told["table_id"] is None
    # Gone and back within the hours that follow, across the mark: not told again.
    for _ in range(3):
        server.advance(AWAY)
        ann.get("/api/notifications")
        ben.get("/api/auth/me")
    settled(server, lambda: server.services.facts.passes > 0)
    assert tell_count(ann, "friend_online") == 1
    # Hours later: told again; and once Ann stops these notices, no more.
    server.advance(ONLINE_NOTICE_EVERY_S)
    ann.get("/api/notifications")
    ben.get("/api/auth/me")
    wait_notes(ann, lambda n: sum(x["kind"] == "friend_online" for x in n) == 2)
    stopped = ann.http.put("/api/me/friend-notices", json={"online": False})
    assert stopped.json() == {"online": False, "tournaments": True}
    server.advance(ONLINE_NOTICE_EVERY_S)
    ann.get("/api/notifications")
    ben.get("/api/auth/me")
    settled(server, lambda: True)
    assert tell_count(ann, "friend_online") == 2
    assert ann.get("/api/me/following")["notices"] == {"online": False, "tournaments": True}
    assert tell_count(cat, "friend_online") == 0  # away each time Ben came


def swiss(server: LiveServer, **extra: Any) -> dict[str, Any]:
    """A Summy Swiss of one round starting in an hour."""
    return {"name": "Evening Swiss", "game": "summy", "format": "swiss", "rounds": 1,
            "starts_at": server.clock.now() + 3600, **extra}  # fmt: skip


def test_a_friend_joining_a_public_tournament_is_told_to_each_follower_once(
    server: LiveServer,
) -> None:
    dan, eli, fox, org = accounts(server, "dan", "eli", "fox", "org")
    follow(dan, "eli")
    follow(fox, "eli")
    fox.http.put("/api/me/friend-notices", json={"tournaments": False})
    public = org.post("/api/tournaments", swiss(server), 201)
    private = org.post("/api/tournaments", swiss(server, private=True), 201)
    eli.post(f"/api/tournaments/{private['id']}/join", {"secret": private["secret"]})
    eli.post(f"/api/tournaments/{public['id']}/join")
    eli.post(f"/api/tournaments/{public['id']}/withdraw")
    eli.post(f"/api/tournaments/{public['id']}/join")
    notes = wait_notes(dan, lambda n: any(x["kind"] == "friend_entered" for x in n))
    settled(server, lambda: True)
    (told,) = [note for note in all_notes(dan) if note["kind"] == "friend_entered"]
    assert told["data"] == {
        "from": "eli",
        "tournament": public["id"],
        "name": "Evening Swiss",
        "game": "summy",
    }
    assert notes[0]["kind"] == "friend_entered"
    assert tell_count(fox, "friend_entered") == 0
