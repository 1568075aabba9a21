"""Accounts over real HTTP: register, log in and out, guests, cookies, rules, rate limits;
one's own account: sign out everywhere, export what the site holds, delete it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from server_harness import Client, LiveServer, make_settings, play_out, running

from meeple.config import Settings
from meeple.i18n.messages import translate
from meeple.web import sockets


def test_register_login_logout_and_me(server: LiveServer) -> None:
    ada = server.client("ada")
    created = ada.register("Ada", "Analytical-Engine-1843")
    assert created["name"] == "Ada" and created["guest"] is False
    assert ada.get("/api/auth/me") == created
    ada.post("/api/auth/logout", expect=204)
    assert ada.get("/api/auth/me") is None
    again = ada.post("/api/auth/login", {"name": "ada", "password": "Analytical-Engine-1843"})
    assert again == created
    wrong = ada.post("/api/auth/login", {"name": "Ada", "password": "nope-nope-nope"}, expect=401)
    assert wrong["detail"] == "wrong name or password"


def test_the_session_cookie_is_signed_httponly_and_samesite(server: LiveServer) -> None:
    response = server.client().http.post(
        "/api/auth/register", json={"name": "Grace", "password": "Cobol-Compiler-59"}
    )
    header = response.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header
    forged = server.client()
    forged.http.cookies.set("meeple_session", response.cookies["meeple_session"][:-2] + "xx")
    assert forged.get("/api/auth/me") is None


def test_a_taken_name_is_refused_whatever_its_case(server: LiveServer) -> None:
    server.client().register("Linus", "Penguin-Kernel-91")
    refused = server.client().post(
        "/api/auth/register", {"name": "LINUS", "password": "Another-Pass-77"}, expect=409
    )
    assert refused["detail"] == "the name 'LINUS' is taken"


WEAK = [
    ("short", "Abc-12", "too short"),
    ("common", "password123", "most common"),
    ("contains the name", "xxBarbaraxx99", "must not contain the name"),
    ("few different characters", "aaaabbbbaaaa", "5 different characters"),
]


@pytest.mark.parametrize(("case", "password", "reason"), WEAK, ids=[w[0] for w in WEAK])
def test_weak_passwords_are_refused_with_the_reason(
    server: LiveServer, case: str, password: str, reason: str
) -> None:
    refused = server.client().post(
        "/api/auth/register", {"name": "Barbara", "password": password}, expect=422
    )
    assert reason in refused["detail"], case


BAD_NAMES = ["ab", "9lives", "has space", "guest-123", "x" * 21]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_names_are_refused(server: LiveServer, name: str) -> None:
    refused = server.client().post(
        "/api/auth/register", {"name": name, "password": "Perfectly-Fine-42"}, expect=422
    )
    assert refused["detail"]


def test_a_guest_becomes_an_account_keeping_its_games(server: LiveServer) -> None:
    guest = server.client("guest")
    me = guest.guest()
    assert me["guest"] and me["name"].startswith("guest-")
    table_id = guest.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    account = guest.register("Hedy", "Frequency-Hopping-42")
    assert account["id"] == me["id"] and account["guest"] is False
    profile = guest.get("/api/users/Hedy")
    assert [t["id"] for t in profile["recent_tables"]] == [table_id]
    assert guest.get(f"/api/tables/{table_id}")["table"]["seats"][0]["user_id"] == me["id"]


def test_login_and_register_attempts_are_rate_limited(tmp_path: Path) -> None:
    # A window long enough for three argon2 checks on a busy machine.
    with running(make_settings(tmp_path, limit_auth="3 per 10 seconds")) as server:
        client = server.client()
        for _ in range(3):
            client.post("/api/auth/login", {"name": "nobody", "password": "x" * 10}, expect=401)
        limited = client.http.post("/api/auth/login", json={"name": "nobody", "password": "x"})
        assert limited.status_code == 429 and "too many log-in attempts" in limited.json()["detail"]
        assert limited.json()["code"] == "rate_limited"
        wait = int(limited.headers["retry-after"])
        assert 1 <= wait <= 10 and limited.json()["retry_after"] == wait
        time.sleep(wait + 0.2)
        client.post("/api/auth/login", {"name": "nobody", "password": "x" * 10}, expect=401)


def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    def tries_left(server: LiveServer) -> list[int]:
        client = server.client()
        codes = []
        for n in range(3):
            response = client.http.post(
                "/api/auth/login",
                json={"name": "nobody", "password": "x" * 10},
                headers={"X-Forwarded-For": f"203.0.113.{n}"},
            )
            codes.append(response.status_code)
        return codes

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with running(make_settings(tmp_path / "a", limit_auth="2/minute")) as server:
        assert tries_left(server) == [401, 401, 429]
    trusting = make_settings(tmp_path / "b", limit_auth="2/minute", trusted_proxies="127.0.0.1")
    with running(trusting) as server:
        assert tries_left(server) == [401, 401, 401]


def test_guests_from_one_address_are_limited(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, limit_guests="5/hour")) as server:
        codes = [server.client().http.post("/api/auth/guest").status_code for _ in range(8)]
        assert codes == [201] * 5 + [429] * 3


def test_logging_out_ends_the_session_even_for_a_copied_cookie(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Lovelace", "Analytical-Engine-1843")
    table_id = ada.create_table(game="slide", seats=2)["table"]["id"]
    thief = server.client("thief")
    thief.http.cookies.update(ada.http.cookies)
    assert thief.get("/api/auth/me")["name"] == "Lovelace"
    assert thief.connect(table_id).recv()["user"]["name"] == "Lovelace"
    ada.post("/api/auth/logout", expect=204)
    assert thief.get("/api/auth/me") is None
    assert thief.connect(table_id).recv()["user"] is None
    thief.post(f"/api/tables/{table_id}/chat", {"text": "hi"}, expect=401)


def test_a_socket_opened_before_logging_out_stops_acting_for_the_user(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sockets, "SESSION_RECHECK_S", 0.0)
    ada = server.client("ada")
    ada.guest()
    table_id = ada.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    ada.post(f"/api/tables/{table_id}/start")
    thief = server.client("thief")
    thief.http.cookies.update(ada.http.cookies)
    sock = thief.connect(table_id)
    assert sock.recv()["seat"] == 0
    ada.post("/api/auth/logout", expect=204)
    sock.send({"type": "chat", "id": "c", "text": "still me?"})
    assert sock.recv_until(lambda m: m.get("id") == "c")["code"] == "sign_in"
    sock.send({"type": "action", "id": "a", "action": {"type": "reveal", "cell": [0, 0]}})
    assert sock.recv_until(lambda m: m.get("id") == "a")["code"] == "sign_in"


def test_a_password_change_ends_every_other_session(server: LiveServer) -> None:
    laptop, phone = server.client("laptop"), server.client("phone")
    laptop.register("Babbage", "Difference-Engine-1822")
    phone.post("/api/auth/login", {"name": "Babbage", "password": "Difference-Engine-1822"})
    wrong = {"current_password": "not-it-at-all", "new_password": "Difference-Engine-1823"}
    laptop.post("/api/auth/password", wrong, expect=401)
    assert phone.get("/api/auth/me")["name"] == "Babbage"
    change = {"current_password": "Difference-Engine-1822", "new_password": "Analytical-Mill-2"}
    laptop.post("/api/auth/password", change, expect=204)
    assert laptop.get("/api/auth/me")["name"] == "Babbage"
    assert phone.get("/api/auth/me") is None
    old = {"name": "Babbage", "password": "Difference-Engine-1822"}
    phone.post("/api/auth/login", old, expect=401)
    phone.post("/api/auth/login", {"name": "Babbage", "password": "Analytical-Mill-2"})
    weak = {"current_password": "Analytical-Mill-2", "new_password": "short"}
    assert "too short" in phone.post("/api/auth/password", weak, expect=422)["detail"]


def test_a_guest_has_no_password_to_change(server: LiveServer) -> None:
    guest = server.client()
    guest.guest()
    body = {"current_password": "anything-at-all", "new_password": "Something-New-42"}
    assert "sign up" in guest.post("/api/auth/password", body, expect=409)["detail"]


def test_your_own_profile_lists_your_private_games_and_nobody_elses_does(
    server: LiveServer,
) -> None:
    ada = server.client("ada")
    ada.register("Countess", "Analytical-Engine-1843")
    private_id = ada.create_table(game="slide", seats=2, bots={"1": "greedy"}, private=True)
    public_id = ada.create_table(game="summy", seats=2)
    own = {t["id"]: t["private"] for t in ada.get("/api/users/Countess")["recent_tables"]}
    assert own == {public_id["table"]["id"]: False, private_id["table"]["id"]: True}
    stranger = server.client("stranger")
    seen = [t["id"] for t in stranger.get("/api/users/Countess")["recent_tables"]]
    assert seen == [public_id["table"]["id"]]


def test_many_sockets_recheck_their_sessions_in_a_few_queries(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sockets checking their sessions at once share a store query; a closed one still stops."""
    monkeypatch.setattr(sockets, "SESSION_RECHECK_S", 0.0)
    players = [server.client(f"p{n}") for n in range(12)]
    for player in players:
        player.guest()
    host = players[0]
    table_id = host.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    socks = [player.connect(table_id) for player in players]
    for sock in socks:
        sock.recv()
    players[5].post("/api/auth/logout", expect=204)
    checks = server.services.session_checks
    before = checks.queries
    # One chat line: every socket hears the event and rechecks its session at once.
    socks[0].send({"type": "chat", "id": "hi", "text": "hello"})
    for sock in socks:
        sock.recv_until(lambda m: m.get("type") == "event" and m.get("kind") == "chat")
    assert 1 <= checks.queries - before < len(socks) // 2
    socks[5].send({"type": "chat", "id": "me", "text": "still me?"})
    assert socks[5].recv_until(lambda m: m.get("id") == "me")["code"] == "sign_in"
    socks[6].send({"type": "chat", "id": "me", "text": "still me"})
    assert socks[6].recv_until(lambda m: m.get("id") == "me")["type"] == "ack"


def test_a_guest_refusal_says_minutes_offers_to_sign_in_and_gives_retry_after(
    tmp_path: Path,
) -> None:
    """Over the guest limit: 429, code kept, the wait in seconds for clients, minutes in words."""
    with running(make_settings(tmp_path, limit_guests="30/minute;2/hour")) as server:
        for _ in range(2):
            server.client().guest()
        refused = server.client().http.post("/api/auth/guest")
        body = refused.json()
        assert refused.status_code == 429 and body["code"] == "rate_limited"
        assert body["reason"] == "rate_limited_guest"
        assert 3590 < body["retry_after"] <= 3600
        assert body["retry_after"] == int(refused.headers["retry-after"])
        assert body["params"] == {"seconds": body["retry_after"]}
        assert body["detail"].endswith("try again in 60 minutes, or sign in")


def test_the_default_guest_limit_lets_a_classroom_in_and_stops_a_script(tmp_path: Path) -> None:
    """35 pupils behind one address all get a guest at once; a loop is stopped within the minute."""
    default = Settings.model_fields["limit_guests"].default
    with running(make_settings(tmp_path, limit_guests=default)) as server:
        codes = [server.client().http.post("/api/auth/guest").status_code for _ in range(70)]
        assert codes[:35] == [201] * 35
        assert codes.count(201) == 60 and codes[60:] == [429] * 10


def finished_game_of(client: Client) -> str:
    """A Slide game against a bot, played to its end by ``client``; its table id."""
    table_id: str = client.create_table(game="slide", seats=2, bots={"1": "random"})["table"]["id"]
    client.post(f"/api/tables/{table_id}/start")
    sock = client.connect(table_id)
    play_out({0: sock}, "slide")
    sock.send({"type": "chat", "id": "gg", "text": "good game, bot"})
    assert sock.recv_until(lambda m: m.get("id") == "gg")["type"] == "ack"
    sock.close()
    return table_id


def test_a_guest_who_signs_in_keeps_their_unrated_games_as_signing_up_does(
    server: LiveServer,
) -> None:
    """A guest plays a bot (a private, unrated table), then signs in to the account they had:
    the game is the account's now, its replay opens for them and their history lists it; a
    game the account already sat at is left as it was."""
    owner = server.client("owner")
    me = owner.register("Noether", "Invariant-Rings-1915")
    owner.post("/api/auth/logout", expect=204)
    guest_id = owner.guest()["id"]
    table_id = finished_game_of(owner)
    assert owner.get(f"/api/tables/{table_id}/replay")["steps"] > 0
    signed = owner.post("/api/auth/login", {"name": "Noether", "password": "Invariant-Rings-1915"})
    assert signed["id"] == me["id"]
    seats = owner.get(f"/api/tables/{table_id}")["table"]["seats"]
    assert (seats[0]["user_id"], seats[0]["name"]) == (me["id"], "Noether")
    assert owner.get(f"/api/tables/{table_id}/replay")["steps"] > 0
    assert owner.get(f"/api/tables/{table_id}/record")["game"] == "slide"
    recent = owner.get("/api/users/Noether")["recent_tables"]
    assert [t["id"] for t in recent] == [table_id]
    events = owner.get(f"/api/tables/{table_id}/events")
    claim = [e for e in events if e["kind"] == "claim"]
    assert [(c["seat"], c["data"]["from_user_id"]) for c in claim] == [(0, guest_id)]
    # Signing in again (no guest now) moves nothing more.
    owner.post("/api/auth/logout", expect=204)
    owner.post("/api/auth/login", {"name": "Noether", "password": "Invariant-Rings-1915"})
    again = owner.get(f"/api/tables/{table_id}/events")
    assert [e for e in again if e["kind"] == "claim"] == claim


def test_signing_out_everywhere_ends_every_session(server: LiveServer) -> None:
    laptop, phone = server.client("laptop"), server.client("phone")
    laptop.register("Hopper", "Compiler-Nanosecond-1952")
    phone.post("/api/auth/login", {"name": "Hopper", "password": "Compiler-Nanosecond-1952"})
    assert laptop.get("/api/account")["open_sessions"] == 2
    phone.post("/api/account/signout-everywhere", expect=204)
    assert phone.get("/api/auth/me") is None
    assert laptop.get("/api/auth/me") is None
    laptop.post("/api/auth/login", {"name": "Hopper", "password": "Compiler-Nanosecond-1952"})
    assert laptop.get("/api/account")["open_sessions"] == 1


def test_the_export_holds_the_players_data_and_no_secret(server: LiveServer) -> None:
    ada = server.client("ada")
    me = ada.register("Byron", "Poetical-Science-1815")
    table_id = finished_game_of(ada)
    response = ada.http.get("/api/account", params={"download": "true"})
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    data = response.json()
    assert data["account"]["name"] == "Byron" and data["account"]["id"] == me["id"]
    game = next(g for g in data["games"] if g["id"] == table_id)
    assert game["status"] == "finished" and game["seat"] == 0
    assert game["result"]["winners"] is not None
    assert [c["text"] for c in data["chat"]] == ["good game, bot"]
    assert data["open_sessions"] == 1 and data["puzzle_attempts"] == []
    text = response.text
    cookie = ada.http.cookies["meeple_session"]
    assert "argon2" not in text and "password" not in text and cookie not in text
    token = server.services.signer.loads(cookie)
    assert token is not None and token not in text
    stranger = server.client("stranger")
    stranger.get("/api/account", expect=401)


def test_deleting_the_account_keeps_its_games_anonymous_and_frees_the_name(
    server: LiveServer,
) -> None:
    ada = server.client("ada")
    me = ada.register("Lovelace", "Analytical-Engine-1843")
    table_id = finished_game_of(ada)
    other = server.client("other")
    other.post("/api/auth/login", {"name": "Lovelace", "password": "Analytical-Engine-1843"})
    wrong = ada.post("/api/account/delete", {"password": "not-the-password"}, expect=401)
    assert wrong["code"] == "wrong_password"
    gone = ada.post("/api/account/delete", {"password": "Analytical-Engine-1843"})
    assert gone["id"] == me["id"] and gone["name"].startswith("deleted player ")
    assert ada.get("/api/auth/me") is None and other.get("/api/auth/me") is None
    again = {"name": "Lovelace", "password": "Analytical-Engine-1843"}
    assert ada.post("/api/auth/login", again, expect=401)["code"] == "wrong_password"
    server.client().get("/api/users/Lovelace", expect=404)
    kept = server.client().get(f"/api/users/{gone['name']}")
    assert [t["id"] for t in kept["recent_tables"]] == [table_id]
    assert kept["recent_tables"][0]["result"] is not None
    record = server.client().get(f"/api/tables/{table_id}/record")
    assert "Lovelace" not in json.dumps(record)
    newcomer = server.client("newcomer")
    assert newcomer.register("Lovelace", "Another-Person-2024")["id"] != me["id"]
    assert newcomer.get("/api/users/Lovelace")["recent_tables"] == []


def test_a_guest_has_no_account_to_delete_and_a_seat_in_play_blocks_deletion(
    server: LiveServer,
) -> None:
    guest = server.client("guest")
    guest.guest()
    refused = guest.post("/api/account/delete", {"password": "whatever-it-is"}, expect=409)
    assert refused["code"] == "guest_no_account"
    guest.post("/api/account/signout-everywhere", expect=409)
    player = server.client("player")
    player.register("Noether", "Symmetry-Conserved-1918")
    table_id = player.create_table(game="slide", seats=2)["table"]["id"]
    blocked = player.post(
        "/api/account/delete", {"password": "Symmetry-Conserved-1918"}, expect=409
    )
    assert blocked["code"] == "account_in_game" and blocked["params"]["tables"] == [table_id]
    assert player.get("/api/auth/me")["name"] == "Noether"


def test_the_guest_refusal_reads_in_minutes_in_every_language() -> None:
    """The catalogs say the wait in minutes (seconds under one), and offer to sign in."""
    params = {"seconds": 1841}
    english = "the English fallback"
    assert translate("en", "rate_limited_guest", params, english) == (
        "Too many new guests from your network: try again in 31 minutes, or sign in."
    )
    assert "dans 31 minutes" in translate("fr", "rate_limited_guest", params, english)
    assert "tra 31 minuti" in translate("it", "rate_limited_guest", params, english)
    assert "31 分後" in translate("ja", "rate_limited_guest", params, english)
    assert translate("en", "rate_limited", {"seconds": 42}, english).endswith("in 42 seconds.")
    assert translate("en", "rate_limited", {"seconds": 61}, english).endswith("in 2 minutes.")
