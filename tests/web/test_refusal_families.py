"""Every refusal carries its code's family beside the code, on REST and on the socket."""

from __future__ import annotations

import pytest
from server_harness import LiveServer

from meeple.errors import Code, Family, TableError
from meeple.web.errors import HTTP_STATUS, code_status


def test_every_family_has_one_http_status_and_every_code_one_family() -> None:
    assert set(HTTP_STATUS) == set(Family)
    assert {code.family for code in Code} == set(Family)
    assert len({code.value for code in Code}) == len(Code)


def test_a_code_fills_its_shape_and_sends_only_its_params() -> None:
    refusal = Code.TOO_MANY_TABLES.error(limit=3)
    assert refusal.message.startswith("you already have 3 tables waiting")
    assert refusal.to_json() == {
        "code": "too_many_tables",
        "family": "conflict",
        "message": refusal.message,
        "reason": "too_many_tables",
        "params": {"limit": 3},
    }
    assert Code.NOT_YOUR_TURN.error(whose="seat 1's").params == {}  # a blank, not a param
    with pytest.raises(TypeError):
        Code.SEAT_TAKEN.error(sit=2)  # a misspelt blank
    with pytest.raises(TypeError):
        TableError(Code.NO_TABLE, "there is no table 'x'", params={"tabel": "'x'"})


def test_rest_answers_and_socket_errors_name_the_family_of_their_code(
    server: LiveServer,
) -> None:
    alice = server.client("alice")
    alice.guest()
    table_id = alice.create_table(game="slide", seats=2)["table"]["id"]
    answers = {
        "a route's refusal": alice.http.get("/api/tables/nothing-here"),
        "the input guard's": alice.http.get("/api/tables/a%00b"),
        "the cross-site guard's": alice.http.post(
            f"/api/tables/{table_id}/leave", headers={"Sec-Fetch-Site": "cross-site"}
        ),
        "an unknown path's": alice.http.options("/api/nothing-here"),
        "the schema's": alice.http.post("/api/tables", json={"game": 7}),
        "an unknown game's history": alice.http.get("/api/users/alice/history/chess"),
        "a game without previews": alice.http.post(
            "/api/games/chess/preview", json={"position": {}, "action": {}}
        ),
        "a malformed position's": alice.http.post(
            "/api/games/summy/preview", json={"position": {"tiles": 5}, "action": {}}
        ),
    }
    for where, answer in answers.items():
        body = answer.json()
        code = Code.named(body["code"])
        assert (answer.status_code, body["family"]) == (code_status(code), code.family), where
    sock = alice.connect(table_id)
    sock.recv_until(lambda m: m["type"] == "hello")
    sock.send({"type": "teleport", "id": "t1"})
    refused = sock.recv_until(lambda m: m["type"] == "error")
    assert (refused["code"], refused["family"], refused["id"]) == ("unknown_type", "request", "t1")
