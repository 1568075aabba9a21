"""OpenAPI documents every REST endpoint; /docs serves the interactive page; the protocol schema."""

from __future__ import annotations

import json
from pathlib import Path

from server_harness import LiveServer

from meeple.web.server_messages import protocol_schema, protocol_tables

REPO = Path(__file__).resolve().parents[2]

EXPECTED = {
    ("post", "/api/auth/register"),
    ("post", "/api/auth/login"),
    ("post", "/api/auth/logout"),
    ("post", "/api/auth/password"),
    ("get", "/api/account"),
    ("post", "/api/account/signout-everywhere"),
    ("post", "/api/account/delete"),
    ("get", "/api/games"),
    ("post", "/api/tables/{table_id}/bots"),
    ("post", "/api/games/{game}/preview"),
    ("get", "/api/tutorials/{game}"),
    ("post", "/api/tutorials/{game}/{step}"),
    ("post", "/api/tutorials/{game}/{step}/hint"),
    ("post", "/api/auth/guest"),
    ("get", "/api/auth/me"),
    ("get", "/api/tables"),
    ("post", "/api/tables"),
    ("post", "/api/quickplay"),
    ("get", "/api/tables/{table_id}"),
    ("get", "/api/tables/{table_id}/events"),
    ("post", "/api/tables/{table_id}/join"),
    ("post", "/api/tables/{table_id}/leave"),
    ("post", "/api/tables/{table_id}/kick"),
    ("post", "/api/tables/{table_id}/start"),
    ("post", "/api/tables/{table_id}/close"),
    ("post", "/api/tables/{table_id}/actions"),
    ("post", "/api/tables/{table_id}/chat"),
    ("post", "/api/tables/{table_id}/rematch"),
    ("post", "/api/tables/{table_id}/hint"),
    ("post", "/api/tables/{table_id}/takeback"),
    ("get", "/api/tables/{table_id}/record"),
    ("get", "/api/tables/{table_id}/review"),
    ("get", "/api/tables/{table_id}/text"),
    ("post", "/api/games/{game}/import"),
    ("post", "/api/analysis/{game}"),
    ("get", "/api/puzzles/{game}/daily"),
    ("get", "/api/puzzles/{game}/next"),
    ("get", "/api/puzzles/{game}/{puzzle_id}"),
    ("post", "/api/puzzles/{game}/{puzzle_id}/answer"),
    ("get", "/api/tables/{table_id}/replay"),
    ("get", "/api/users/{name}"),
    ("get", "/api/users/{name}/history/{game}"),
    ("get", "/api/leaderboard/{game}"),
    ("post", "/api/account/tokens"),
    ("get", "/api/account/tokens"),
    ("delete", "/api/account/tokens/{token_id}"),
    ("post", "/api/challenges"),
    ("get", "/api/challenges"),
    ("get", "/api/challenges/{challenge_id}"),
    ("post", "/api/challenges/{challenge_id}/accept"),
    ("post", "/api/challenges/{challenge_id}/decline"),
    ("post", "/api/challenges/{challenge_id}/cancel"),
    ("get", "/api/stream/events"),
    ("get", "/api/stream/game/{table_id}"),
    ("get", "/api/bots/online"),
    ("get", "/api/me/tables"),
    ("put", "/api/users/{name}/follow"),
    ("delete", "/api/users/{name}/follow"),
    ("get", "/api/me/following"),
    ("put", "/api/me/friend-notices"),
    ("post", "/api/reports"),
    ("get", "/api/blocks"),
    ("post", "/api/blocks"),
    ("delete", "/api/blocks/{name}"),
    ("get", "/api/standing"),
    ("get", "/api/mod/reports"),
    ("post", "/api/mod/actions"),
    ("get", "/api/mod/log"),
    ("get", "/api/notifications"),
    ("post", "/api/notifications/read"),
    ("post", "/api/account/bot"),
    ("get", "/api/health"),
    ("get", "/api/ready"),
    ("get", "/api/account/email"),
    ("put", "/api/account/email"),
    ("delete", "/api/account/email"),
    ("post", "/api/password/forgot"),
    ("post", "/api/password/reset"),
    ("get", "/api/account/email-choices"),
    ("put", "/api/account/email-choices"),
    ("post", "/api/tournaments"),
    ("get", "/api/tournaments"),
    ("get", "/api/tournaments/{tournament_id}"),
    ("get", "/api/tournaments/{tournament_id}/pairings"),
    ("post", "/api/tournaments/{tournament_id}/join"),
    ("post", "/api/tournaments/{tournament_id}/withdraw"),
    ("post", "/api/tournaments/{tournament_id}/pause"),
    ("post", "/api/tournaments/{tournament_id}/bots"),
    ("post", "/api/tournaments/{tournament_id}/cancel"),
}


def test_every_rest_endpoint_is_documented(server: LiveServer) -> None:
    client = server.client()
    spec = client.get("/openapi.json")
    documented = {
        (method, path)
        for path, operations in spec["paths"].items()
        if path.startswith("/api/")
        for method in operations
    }
    assert documented == EXPECTED
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            assert operation.get("description") or operation.get("summary"), (method, path)
    join = spec["paths"]["/api/tables/{table_id}/join"]["post"]["responses"]
    assert {"200", "400", "401", "403", "404", "409"} <= set(join)
    docs = client.http.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_every_json_answer_has_a_concrete_model(server: LiveServer) -> None:
    spec = server.client().get("/openapi.json")
    loose = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if "204" in operation["responses"]:
                continue  # no content
            content = operation["responses"].get("200", operation["responses"].get("201", {}))
            if "application/x-ndjson" in content.get("content", {}):
                continue  # a stream of JSON lines (docs/bot-api.md), not one JSON answer
            if set(content.get("content", {})) == {"text/plain"}:
                continue  # a file of text (a game's, docs/notation.md), not a JSON answer
            schema = content.get("content", {}).get("application/json", {}).get("schema", {})
            items = schema.get("items", schema)
            named = "$ref" in items or any("$ref" in o for o in items.get("anyOf", []))
            if path.startswith("/api/") and not named:
                loose.append((method, path))
    assert loose == []
    summary = spec["components"]["schemas"]["TableSummary"]["properties"]
    assert {"seats", "status", "to_act", "result"} <= set(summary)


def test_the_protocol_schema_file_is_up_to_date() -> None:
    written = json.loads((REPO / "docs" / "protocol.schema.json").read_text(encoding="utf-8"))
    assert written == protocol_schema(), (
        "regenerate: python -m meeple.web.server_messages > docs/protocol.schema.json"
    )


def test_the_protocol_tables_in_the_docs_are_up_to_date() -> None:
    text = (REPO / "docs" / "protocol.md").read_text(encoding="utf-8")
    written = text.split("<!-- generated: begin -->\n", 1)[1].split("<!-- generated: end -->")[0]
    assert written == protocol_tables(), (
        "regenerate the part of docs/protocol.md between the markers:"
        " python -m meeple.web.server_messages --markdown"
    )
