"""Personal access tokens over real HTTP: made, shown once, stored hashed, listed, revoked;
a bearer token signs in on the routes its scopes allow, and a revoked one is refused at once,
on every server sharing the store."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
from server_harness import Client, LiveServer, run_async
from sqlalchemy import select, text

from meeple.store.models import AccessToken
from meeple.web.deps import token_still_valid
from meeple.web.token_checks import TokenChecks


def make_token(client: Client, scopes: list[str], label: str = "my bot") -> dict[str, Any]:
    """A new token of the client's account."""
    made: dict[str, Any] = client.post(
        "/api/account/tokens", {"label": label, "scopes": scopes}, expect=201
    )
    return made


def bearer(server: LiveServer, token: str) -> httpx.Client:
    """A program's HTTP client: no cookies, only the token."""
    return httpx.Client(
        base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {token}"}
    )


def test_a_token_is_shown_once_listed_without_it_and_revoked(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Ada")
    made = make_token(ada, ["bot:play", "games:read"], label="  deep   summy ")
    assert made["token"].startswith("meeple_") and len(made["token"]) > 40
    assert made["label"] == "deep summy" and made["scopes"] == ["bot:play", "games:read"]
    listed = ada.get("/api/account/tokens")
    assert [t["id"] for t in listed] == [made["id"]]
    assert "token" not in listed[0] and made["token"] not in str(listed)
    response = ada.http.delete(f"/api/account/tokens/{made['id']}")
    assert response.status_code == 204
    assert ada.get("/api/account/tokens") == []
    again = ada.http.delete(f"/api/account/tokens/{made['id']}")
    assert again.status_code == 404 and again.json()["code"] == "no_token"


def test_the_store_keeps_only_the_hash(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Ada")
    token = make_token(ada, ["bot:play"])["token"]

    def rows(session: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in session.execute(text("SELECT * FROM access_tokens"))]

    stored = server.services.db.call(rows)
    assert len(stored) == 1
    assert all(token not in str(value) for value in stored[0])
    assert hashlib.sha256(token.encode()).hexdigest() in stored[0]


def test_tokens_are_refused_bad_input_and_guests(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Ada")
    for body in (
        {"label": "x", "scopes": []},
        {"label": "x", "scopes": ["admin"]},
        {"label": "", "scopes": ["bot:play"]},
        {"label": "x" * 65, "scopes": ["bot:play"]},
    ):
        ada.post("/api/account/tokens", body, expect=422)
    guest = server.client("guest")
    guest.guest()
    refused = guest.post("/api/account/tokens", {"label": "x", "scopes": ["bot:play"]}, 409)
    assert refused["code"] == "guest_no_account"
    nobody = server.client("nobody")
    assert nobody.get("/api/account/tokens", expect=401)["code"] == "sign_in"


def test_a_bearer_token_signs_in_within_its_scopes(server: LiveServer) -> None:
    ada = server.client("ada")
    me = ada.register("Ada")
    play = bearer(server, make_token(ada, ["bot:play"])["token"])
    read = bearer(server, make_token(ada, ["games:read"])["token"])
    assert play.get("/api/auth/me").json() == me
    assert read.get("/api/auth/me").json() == me
    created = play.post("/api/tables", json={"game": "slide", "seats": 2})
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    assert created.json()["table"]["seats"][0]["user_id"] == me["id"]
    refused = read.post("/api/tables", json={"game": "slide", "seats": 2})
    assert refused.status_code == 403 and refused.json()["code"] == "token_scope"
    assert read.post(f"/api/tables/{table_id}/leave").json()["code"] == "token_scope"
    assert read.get("/api/users/Ada").status_code == 200
    refused = play.get("/api/users/Ada")
    assert refused.status_code == 403 and refused.json()["code"] == "token_scope"
    assert play.get(f"/api/tables/{table_id}/record").json()["code"] == "token_scope"
    # Public routes that take no account answer a token like anyone.
    assert play.get("/api/games").status_code == 200
    play.close()
    read.close()


def test_tokens_cannot_make_tokens_or_manage_the_account(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Ada")
    made = make_token(ada, ["bot:play", "games:read"])
    program = bearer(server, made["token"])
    for method, path, body in (
        ("POST", "/api/account/tokens", {"label": "more", "scopes": ["bot:play"]}),
        ("GET", "/api/account/tokens", None),
        ("DELETE", f"/api/account/tokens/{made['id']}", None),
        ("POST", "/api/account/bot", None),
        ("GET", "/api/account", None),
        ("POST", "/api/account/signout-everywhere", None),
        ("POST", "/api/auth/password", {"old": "Tile-Slider-42", "new": "Other-Secret-99"}),
    ):
        response = program.request(method, path, json=body)
        assert response.status_code == 403, (path, response.text)
        assert response.json()["code"] == "token_scope"
    assert [t["id"] for t in ada.get("/api/account/tokens")] == [made["id"]]
    assert ada.get("/api/auth/me")["bot"] is False
    program.close()


def test_bad_and_revoked_tokens_are_refused_at_once(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Ada")
    made = make_token(ada, ["bot:play"])
    with httpx.Client(base_url=server.url, timeout=30) as raw:
        for header in (b"Bearer", b"Bearer meeple_unknown", b"Basic YWRhOnB3", "Bearer é".encode()):
            response = raw.get("/api/auth/me", headers={"Authorization": header})
            assert response.status_code == 401, header
            assert response.json()["code"] == "bad_token"
    program = bearer(server, made["token"])
    assert program.get("/api/auth/me").status_code == 200
    assert ada.http.delete(f"/api/account/tokens/{made['id']}").status_code == 204
    response = program.get("/api/auth/me")
    assert response.status_code == 401 and response.json()["code"] == "bad_token"
    program.close()


def test_a_revoked_token_stops_at_once_on_the_other_server(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    first, second = two_servers
    ada = first.client("ada")
    me = ada.register("Ada")
    made = make_token(ada, ["bot:play"])
    there = bearer(second, made["token"])
    assert there.get("/api/auth/me").json() == me
    checks = TokenChecks(second.services.db, second.clock.now)
    assert run_async(checks.still_valid(made["id"])) is True
    assert ada.http.delete(f"/api/account/tokens/{made['id']}").status_code == 204
    response = there.get("/api/auth/me")
    assert response.status_code == 401 and response.json()["code"] == "bad_token"
    assert run_async(checks.still_valid(made["id"])) is False
    there.close()


def test_streams_ask_in_one_query_whether_their_tokens_are_live(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Ada")
    ids = [make_token(ada, ["bot:play"], label=f"bot {n}")["id"] for n in range(3)]
    ada.http.delete(f"/api/account/tokens/{ids[1]}")
    checks = TokenChecks(server.services.db, server.clock.now)

    class Asker:
        token_checks = checks

    async def ask_all() -> list[bool]:
        import asyncio

        asked = [token_still_valid(Asker(), token_id) for token_id in [*ids, "nope"]]  # type: ignore[arg-type]
        return list(await asyncio.gather(*asked))

    assert run_async(ask_all()) == [True, False, True, False]
    assert checks.queries == 1


def test_last_used_is_written_at_most_once_a_minute(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Ada")
    made = make_token(ada, ["bot:play"])
    program = bearer(server, made["token"])

    def last_used(session: Any) -> float | None:
        return session.scalar(select(AccessToken.last_used_at))

    assert server.services.db.call(last_used) is None
    program.get("/api/auth/me")
    first = server.services.db.call(last_used)
    assert first == server.clock.now()
    server.advance(30)
    program.get("/api/auth/me")
    assert server.services.db.call(last_used) == first
    server.advance(31)
    program.get("/api/auth/me")
    assert server.services.db.call(last_used) == server.clock.now() != first
    assert ada.get("/api/account/tokens")[0]["last_used_at"] == server.clock.now()
    program.close()
