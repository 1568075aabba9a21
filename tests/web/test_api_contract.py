"""The published contract: every ``/api`` answer is one the OpenAPI schema lists (issue 41).

Schemathesis draws a few positive and negative cases of every ``/api``
operation of ``/openapi.json`` (derandomized, so a run is reproducible) and
checks each answer with its own checks: no 5xx, a listed status, the listed
content type, headers and body shape. It runs three times: anonymous, signed
in with a session cookie, and with a Bot API token of all scopes. The run
prints its case count (``pytest -s``) and records it as the ``cases``
property. Small direct tests pin the fixes the run found.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from bot_api_support import bot_account
from fuzz_runs import fuzz_server, run_examples
from hypothesis import strategies as st
from server_harness import LiveServer

schemathesis = pytest.importorskip("schemathesis")
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

PER_OPERATION = 40
"""Cases per operation and authentication (positive and negative drawn together)."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

ALL_SCOPES = ("bot:play", "games:read")
"""Every scope a token can have (``meeple.web.security.SCOPES``)."""

SKIPPED = {"/api/auth/logout", "/api/account/delete", "/api/account/bot"}
"""Operations that would end the session or change the account the run signs in with."""

ENDLESS = "/api/stream/"
"""The Bot API's streams answer until the client leaves: tests/web/test_bot_streams.py."""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server with its rate limits out of the way."""
    from meeple.web.security import SCOPES

    assert set(ALL_SCOPES) == set(SCOPES)
    with fuzz_server(tmp_path_factory.mktemp("contract")) as server:
        yield server


def auth_headers(live: LiveServer, mode: str) -> dict[str, str]:
    """The headers of one authentication mode."""
    if mode == "cookie":
        client = live.client("contract-cookie")
        client.register("contract-human")
        return {"Cookie": client.cookie_header()}
    if mode == "token":
        _client, token = bot_account(live, "contract-bot", ALL_SCOPES)
        return {"Authorization": f"Bearer {token}"}
    return {}


def run_contract(live: LiveServer, mode: str) -> tuple[int, list[str]]:
    """Every ``/api`` operation's cases, checked; the count and the distinct failures."""
    headers = auth_headers(live, mode)
    schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
    failures: dict[str, str] = {}
    cases = 0
    session = __import__("requests").Session()

    def check(case: Any) -> None:
        response = case.call(base_url=live.url, headers=headers, session=session)
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except BaseExceptionGroup as group:  # schemathesis's failures: keep one of each kind
            for failure in group.exceptions:
                title = getattr(failure, "title", type(failure).__name__)
                key = f"{case.method} {case.path} {response.status_code}: {title}"
                failures.setdefault(key, f"{key}\n{str(failure)[:500]}")

    for result in schema.get_all_operations():
        operation = result.ok()
        path = operation.path
        if not path.startswith("/api/") or path in SKIPPED or path.startswith(ENDLESS):
            continue
        modes = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
        strategy = st.one_of([operation.as_strategy(m) for m in modes])
        cases += run_examples(strategy, check, PER_OPERATION)
    session.close()
    return cases, sorted(failures.values())


@pytest.mark.parametrize("mode", ["anonymous", "cookie", "token"])
def test_every_answer_is_one_the_schema_lists(
    live: LiveServer, record_property: Callable[[str, Any], None], mode: str
) -> None:
    """No 5xx, and every status, content type, header and body as ``/openapi.json`` says."""
    cases, failures = run_contract(live, mode)
    print(f"schemathesis {mode}: {cases} cases, {len(failures)} distinct failures")
    record_property("cases", cases)
    assert cases > 0
    assert not failures, "\n\n".join(failures)


def test_a_validation_error_has_the_documented_shape(live: LiveServer) -> None:
    """A 422 from a body the schema refuses is the error JSON every other refusal uses."""
    answer = httpx.post(f"{live.url}/api/auth/register", json={"name": 5})
    assert answer.status_code == 422
    body = answer.json()
    assert isinstance(body["detail"], str) and body["code"] == "invalid"
    schema = httpx.get(f"{live.url}/openapi.json").json()
    documented = schema["paths"]["/api/auth/register"]["post"]["responses"]["422"]
    ref = documented["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/ErrorOut")


def test_options_answers_with_allow(live: LiveServer) -> None:
    """``OPTIONS`` on an API path says which methods it takes."""
    answer = httpx.options(f"{live.url}/api/tables")
    assert answer.status_code in (200, 204, 405)
    allowed = {m.strip() for m in answer.headers["allow"].split(",")}
    assert {"GET", "POST"} <= allowed


def test_a_chat_line_over_the_limit_is_refused(live: LiveServer) -> None:
    """4,000 characters is the documented limit of a chat line; one more is a 422."""
    client = live.client("contract-chat")
    client.guest()
    table_id = client.create_table(game="slide", seats=2)["table"]["id"]
    client.post(f"/api/tables/{table_id}/chat", {"text": "x" * 4000}, None)
    answer = client.http.post(f"/api/tables/{table_id}/chat", json={"text": "x" * 4001})
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "invalid"


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_notification_id_beyond_the_column_is_a_422(
    tmp_path: Any, request: pytest.FixtureRequest, database: str
) -> None:
    """Ids past what the database's integer holds are refused by the schema, not a 500."""
    from server_harness import make_settings, start_server

    db_url = request.getfixturevalue("pg_url") if database == "postgresql" else None
    server = start_server(make_settings(tmp_path, db_url))
    try:
        client = server.client("contract-notes")
        client.register("contract-notes")
        for big in (2**31, 2**63):
            answer = client.http.post("/api/notifications/read", json={"ids": [big]})
            assert answer.status_code == 422, answer.text
            answer = client.http.get("/api/notifications", params={"before": big})
            assert answer.status_code == 422, answer.text
        assert client.post("/api/notifications/read", {"ids": [2**31 - 1]})["marked"] == 0
    finally:
        server.stop()


def test_a_token_in_the_query_string_stays_out_of_the_access_log(live: LiveServer) -> None:
    """uvicorn's access line of a request with ``?token=`` shows the path, not the secret."""
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("uvicorn.access")
    handler, level = Keep(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        secret = "mpl_s3cr3t-value"
        httpx.get(f"{live.url}/api/stream/events", params={"token": secret, "x": "1"})
        httpx.get(f"{live.url}/api/health?access_token={secret}")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert len(lines) == 2, lines
    assert all(secret not in line and "[redacted]" in line for line in lines), lines


def test_accept_names_only_games_the_server_has(live: LiveServer) -> None:
    """``?accept=`` is shown to others as the games a bot takes: an unknown name is a 422."""
    _client, token = bot_account(live, "contract-accept")
    headers = {"Authorization": f"Bearer {token}"}
    url = f"{live.url}/api/stream/events"
    with httpx.stream("GET", url, params={"accept": "slide,<b>x</b>"}, headers=headers) as answer:
        assert answer.status_code == 422
        body = answer.read()
    assert b"<b>" not in body and b"unknown_game" in body
    with httpx.stream("GET", url, params={"accept": "slide"}, headers=headers) as answer:
        assert answer.status_code == 200


def test_the_game_stream_ends_after_the_game(live: LiveServer) -> None:
    """A watching bot's game stream sends the finish and then ends (docs/bot-api.md)."""
    from server_harness import play_out, slide_pair

    alice, bob, table_id = slide_pair(live)
    _client, token = bot_account(live, "contract-watcher")
    headers = {"Authorization": f"Bearer {token}"}
    url = f"{live.url}/api/stream/game/{table_id}"
    lines: list[str] = []
    ended = threading.Event()

    def read() -> None:
        with httpx.stream("GET", url, headers=headers, timeout=120) as answer:
            lines.extend(line for line in answer.iter_lines() if line.strip())
        ended.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    sockets = {0: alice.connect(table_id), 1: bob.connect(table_id)}
    play_out(sockets, "slide")
    reader.join(timeout=120)
    assert ended.is_set(), "the stream went on after the game"
    last = json.loads(lines[-1])
    assert last["type"] == "event" and last["kind"] == "finish", last


def test_bot_api_docs_give_every_code_its_family_and_status() -> None:
    """docs/bot-api.md's table of families names each code the server sends under its family,
    with the HTTP status the server answers that family with."""
    from pathlib import Path

    from meeple.errors import Code, Family
    from meeple.web.errors import HTTP_STATUS

    docs = Path(__file__).parents[2] / "docs" / "bot-api.md"
    families = {f"`{family}`" for family in Family}
    rows = {
        cells[1].strip(): (cells[2].strip(), cells[4])
        for cells in (line.split("|") for line in docs.read_text(encoding="utf-8").splitlines())
        if len(cells) > 4 and cells[1].strip() in families
    }
    assert set(rows) == families
    for family, (status, _codes) in rows.items():
        assert status == str(HTTP_STATUS[Family(family.strip("`"))]), family
    for code in Code:
        listed = [family for family, (_status, codes) in rows.items() if f"`{code}`" in codes]
        assert listed == [f"`{code.family}`"], code


def test_a_method_the_path_does_not_take_lists_them_all(live: LiveServer) -> None:
    """A 405 says every method of the path, not only those of its first route."""
    answer = httpx.delete(f"{live.url}/api/tables")
    assert answer.status_code == 405
    assert {"GET", "POST"} <= {m.strip() for m in answer.headers["allow"].split(",")}
