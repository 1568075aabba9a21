"""Moderation over the API (docs/moderation.md): roles from the command line, reports (one per
reporter and player a day, limited, refused when wrong), the queue's context, each action's
effect (a warning's notification, a mute refusing chat with ``until``, a closed account's
refused sign-in) and its entry in the audit log."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, get_args

import pytest
from server_harness import Client, LiveServer, make_settings, running

from meeple.cli import main
from meeple.store.models import LoginSession
from meeple.tables.facade import ACTIONS, REPORT_REASONS
from meeple.web.moderation_schemas import ModAction, ReportReason


def role(server: LiveServer, name: str, new_role: str) -> int:
    """``meeple role NAME ROLE`` on the server's database; the exit status."""
    return main(["role", name, new_role, "--db", server.services.settings.database_url])


def people(server: LiveServer, *names: str) -> list[Client]:
    """A registered account per name, signed in."""
    clients = []
    for name in names:
        client = server.client(name)
        client.register(name)
        clients.append(client)
    return clients


def a_table_with_chat(host: Client, speaker: Client, text: str) -> tuple[str, int]:
    """A two-seat table with ``host`` and ``speaker`` seated; the speaker's chat line."""
    table_id = host.create_table(game="slide", seats=2)["table"]["id"]
    speaker.post(f"/api/tables/{table_id}/join", {})
    host.post(f"/api/tables/{table_id}/chat", {"text": "good luck"})
    version = speaker.post(f"/api/tables/{table_id}/chat", {"text": text})["version"]
    host.post(f"/api/tables/{table_id}/chat", {"text": "that was rude"})
    return table_id, version


def act(mod: Client, target: str, action: str, expect: int = 200, **extra: Any) -> Any:
    """A moderator's action, with a reason."""
    body = {"target": target, "action": action, "reason": f"{action} for the test", **extra}
    return mod.post("/api/mod/actions", body, expect)


def test_the_cli_sets_roles_the_routes_and_pages_follow_them(
    server: LiveServer, capsys: pytest.CaptureFixture[str]
) -> None:
    mod, player = people(server, "Mona", "Pat")
    for client in (mod, player):
        assert client.http.get("/mod").status_code == 404
        assert client.get("/api/mod/reports", expect=404)["code"] == "no_path"
    assert role(server, "mona", "moderator") == 0
    assert "Mona is now moderator (was player)" in capsys.readouterr().out
    assert mod.http.get("/mod").status_code == 200
    assert mod.http.get("/mod/log").status_code == 200
    assert mod.get("/api/mod/reports") == []
    assert mod.get("/api/standing")["moderator"] is True
    assert player.get("/api/standing") == {
        "moderator": False,
        "muted_until": None,
        "mute_reason": None,
        "warnings": [],
    }
    assert player.http.get("/mod/log").status_code == 404
    assert server.client("nobody").http.get("/api/mod/log").status_code == 404
    with pytest.raises(SystemExit) as refused:
        role(server, "mona", "owner")  # not a role
    assert refused.value.code == 2
    with pytest.raises(SystemExit) as unknown:
        role(server, "nobody-here", "admin")
    assert unknown.value.code == 1
    assert "no account named" in capsys.readouterr().err
    assert role(server, "Mona", "player") == 0
    assert mod.http.get("/mod").status_code == 404  # from the next request on
    assert role(server, "Mona", "admin") == 0
    entries = mod.get("/api/mod/log")["entries"]
    assert [(e["action"], e["moderator"], e["target"], e["details"]) for e in entries] == [
        ("role", None, "Mona", {"role": "admin", "was": "player"}),
        ("role", None, "Mona", {"role": "player", "was": "moderator"}),
        ("role", None, "Mona", {"role": "moderator", "was": "player"}),
    ]


def test_the_fixed_lists_are_the_schemas() -> None:
    assert get_args(ReportReason) == REPORT_REASONS
    assert get_args(ModAction) == ACTIONS


def test_a_report_is_stored_once_a_day_and_refused_when_wrong(server: LiveServer) -> None:
    bob, carol, dee = people(server, "bob", "carol", "dee")
    first = bob.post("/api/reports", {"name": "Carol", "reason": "abuse", "text": "insults"}, 201)
    again = bob.post("/api/reports", {"name": "carol", "reason": "spam"}, 200)
    assert again == {"id": first["id"], "duplicate": True}
    assert dee.post("/api/reports", {"name": "carol", "reason": "spam"}, 201)["id"] != first["id"]
    server.advance(86400)
    assert bob.post("/api/reports", {"name": "carol", "reason": "abuse"}, 201)["duplicate"] is False
    refusals = [
        ({"name": "bob", "reason": "abuse"}, 422, "invalid"),  # oneself
        ({"name": "nobody", "reason": "abuse"}, 404, "no_player"),
        ({"name": "carol", "reason": "boring"}, 422, "invalid"),
        ({"name": "carol", "reason": "other", "text": "x" * 501}, 422, "invalid"),
        ({"reason": "abuse"}, 422, "invalid"),  # about nobody
        ({"table_id": "nothing", "version": 1, "reason": "abuse"}, 404, "no_table"),
        ({"version": 1, "reason": "abuse"}, 422, "invalid"),  # a line needs its table
    ]
    for body, status, code in refusals:
        assert bob.post("/api/reports", body, status)["code"] == code, body
    table_id, version = a_table_with_chat(bob, carol, "you are bad")
    not_chat = {"table_id": table_id, "version": 1, "reason": "abuse"}  # the table's opening
    assert bob.post("/api/reports", not_chat, 422)["code"] == "invalid"
    assert server.client("anon").post("/api/reports", not_chat, 401)["code"] == "sign_in"
    private = carol.create_table(game="slide", seats=2, private=True)["table"]["id"]
    line = carol.post(f"/api/tables/{private}/chat", {"text": "secret"})["version"]
    hidden = {"table_id": private, "version": line, "reason": "abuse"}
    assert dee.post("/api/reports", hidden, 404)["code"] == "no_table"
    # A chat line names its writer: the report is of carol, whatever name is sent.
    line_report = {"table_id": table_id, "version": version, "reason": "abuse", "name": "dee"}
    made = dee.post("/api/reports", line_report, 201)
    assert dee.post("/api/reports", {"name": "carol", "reason": "spam"}, 200)["id"] == made["id"]


def test_reports_are_limited_per_account_and_address(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, limit_reports="3 per 4 seconds")) as server:
        reporter, *targets = people(server, "ann", "tia", "tom", "ted", "tim")
        for name in ("tia", "tom", "ted"):
            reporter.post("/api/reports", {"name": name, "reason": "spam"}, 201)
        refused = reporter.post("/api/reports", {"name": "tim", "reason": "spam"}, 429)
        assert refused["code"] == "rate_limited" and refused["retry_after"] > 0
        # Another account from the same address is counted by the address too.
        assert targets[0].post("/api/reports", {"name": "tim", "reason": "spam"}, 429)
        time.sleep(refused["retry_after"] + 0.2)  # the limits' window runs on the wall clock
        reporter.post("/api/reports", {"name": "tim", "reason": "spam"}, 201)


def test_the_queue_shows_the_context_and_a_mute_refuses_chat_until_it_ends(
    server: LiveServer,
) -> None:
    mod, bob, carol = people(server, "mod", "bob", "carol")
    role(server, "mod", "moderator")
    table_id, version = a_table_with_chat(bob, carol, "see https://spam.example <b>now</b>")
    body = {"table_id": table_id, "version": version, "reason": "abuse", "text": "rude"}
    report_id = bob.post("/api/reports", body, 201)["id"]
    [queued] = mod.get("/api/mod/reports")
    assert (queued["id"], queued["reporter"], queued["target"]) == (report_id, "bob", "carol")
    assert [(line["name"], line["text"], line["reported"]) for line in queued["chat"]] == [
        ("bob", "good luck", False),
        ("carol", "see https://spam.example <b>now</b>", True),
        ("bob", "that was rude", False),
    ]
    assert [game["id"] for game in queued["games"]] == [table_id]
    # Every client of the test signs in from 127.0.0.1: they all share carol's address.
    assert {"bob", "mod"} <= {account["name"] for account in queued["shared_address"]}
    assert queued["standing"] == {
        "muted_until": None,
        "cheater": False,
        "closed": False,
        "guest": False,
        "reports": 1,
    }
    now = server.clock.now()
    done = act(mod, "carol", "mute", minutes=60, report_id=report_id)
    assert done["closed_reports"] == 1
    assert done["entry"]["details"] == {"until": now + 3600, "minutes": 60, "reports": 1}
    assert mod.get("/api/mod/reports") == []
    refused = carol.post(f"/api/tables/{table_id}/chat", {"text": "why"}, 403)
    assert refused["code"] == "muted" and refused["family"] == "forbidden"
    assert refused["params"]["until"] == now + 3600
    assert "UTC" in refused["params"]["when"]
    sock = carol.connect(table_id)
    sock.recv()
    sock.send({"type": "chat", "id": "c1", "text": "and here?"})
    error = sock.recv_until(lambda message: message.get("id") == "c1")
    assert (error["type"], error["code"], error["params"]["until"]) == (
        "error",
        "muted",
        now + 3600,
    )
    standing = carol.get("/api/standing")
    assert (standing["muted_until"], standing["mute_reason"]) == (now + 3600, "mute for the test")
    bob.post(f"/api/tables/{table_id}/chat", {"text": "others still chat"})
    server.advance(3601)
    carol.post(f"/api/tables/{table_id}/chat", {"text": "I am back"})
    assert carol.get("/api/standing")["muted_until"] is None
    entry = mod.get("/api/mod/log")["entries"][0]  # then the role the command line gave
    assert (entry["moderator"], entry["action"], entry["target"]) == ("mod", "mute", "carol")
    assert (entry["reason"], entry["report_id"], entry["at"]) == (
        "mute for the test",
        report_id,
        now,
    )


def test_a_warning_is_a_notification_and_a_dismissal_closes_one_report(server: LiveServer) -> None:
    mod, bob, carol, dee = people(server, "mod", "bob", "carol", "dee")
    role(server, "mod", "admin")
    first = bob.post("/api/reports", {"name": "carol", "reason": "name"}, 201)["id"]
    dee.post("/api/reports", {"name": "carol", "reason": "spam"}, 201)
    done = act(mod, "carol", "dismiss", report_id=first)
    assert done["closed_reports"] == 1
    assert [r["reporter"] for r in mod.get("/api/mod/reports")] == ["dee"]
    assert act(mod, "carol", "dismiss", 422)["code"] == "invalid"  # which report?
    assert act(mod, "bob", "dismiss", 422, report_id=first)["code"] == "invalid"  # not bob's
    assert act(mod, "carol", "mute", 422)["code"] == "invalid"  # for how long?
    assert act(mod, "carol", "ban", 422)["code"] == "invalid"
    assert act(mod, "nobody", "warn", 404)["code"] == "no_player"
    assert act(mod, "carol", "warn")["closed_reports"] == 1
    [note] = carol.get("/api/notifications")["notifications"]
    assert (note["kind"], note["data"]) == ("warning", {"reason": "warn for the test"})
    [warning] = carol.get("/api/standing")["warnings"]
    assert warning["reason"] == "warn for the test"
    assert act(bob, "carol", "warn", 404)["code"] == "no_path"  # a player is no moderator
    role(server, "dee", "moderator")
    role(server, "bob", "moderator")
    assert act(dee, "mod", "close", 403)["code"] == "staff_target"  # nobody acts on an admin
    assert act(dee, "bob", "mute", 403, minutes=5)["code"] == "staff_target"  # a peer
    assert act(mod, "dee", "warn")["entry"]["target"] == "dee"  # an admin on a moderator
    # A report of a moderator is still dismissed by another.
    reported = carol.post("/api/reports", {"name": "bob", "reason": "abuse"}, 201)["id"]
    assert act(dee, "bob", "dismiss", report_id=reported)["closed_reports"] == 1
    actions = [e["action"] for e in mod.get("/api/mod/log")["entries"]]
    assert actions == ["dismiss", "warn", "role", "role", "warn", "dismiss", "role"]


def test_a_closed_account_is_signed_out_and_told_why_at_sign_in(server: LiveServer) -> None:
    mod, carol = people(server, "mod", "carol")
    role(server, "mod", "moderator")
    token = carol.post("/api/account/tokens", {"label": "bot", "scopes": ["bot:play"]}, 201)
    act(mod, "carol", "close")
    assert carol.get("/api/auth/me") is None  # its session ended
    bearer = {"Authorization": f"Bearer {token['token']}"}
    assert carol.http.get("/api/auth/me", headers=bearer).status_code == 401  # token revoked
    again = server.client("carol again")
    credentials = {"name": "carol", "password": "Tile-Slider-42"}
    refused = again.post("/api/auth/login", credentials, 403)
    assert refused["code"] == "account_closed"
    assert refused["params"] == {"reason": "close for the test"}
    assert again.post("/api/auth/login", {**credentials, "password": "wrong-one"}, 401)
    assert main(["reopen", "carol", "--db", server.services.settings.database_url]) == 0
    assert again.post("/api/auth/login", credentials)["name"] == "carol"
    actions = [(e["action"], e["moderator"]) for e in mod.get("/api/mod/log")["entries"]]
    assert actions == [("reopen", None), ("close", "mod"), ("role", None)]


def test_a_session_keeps_its_address_only_as_a_keyed_hash(server: LiveServer) -> None:
    people(server, "ann")
    rows = server.services.db.call(lambda session: list(session.query(LoginSession)))
    [row] = rows
    assert row.address_hash is not None and len(row.address_hash) == 64
    assert "127.0.0.1" not in row.address_hash
    assert row.address_hash == server.services.moderation.address_hash("127.0.0.1")


def test_the_moderation_pages_keep_the_sites_policy(server: LiveServer) -> None:
    """The pages of this feature (outside the pages router the cross-site test walks) send the
    security headers and hold no inline script or style."""
    from test_cross_site import ScriptFinder, assert_security_headers, csp

    [mod] = people(server, "mod")
    role(server, "mod", "moderator")
    for path in ("/mod", "/mod/log", "/safety"):
        response = mod.http.get(path)
        assert response.status_code == 200, path
        assert_security_headers(response)
        assert csp(response)["script-src"] == "'self'", path
        finder = ScriptFinder()
        finder.feed(response.text)
        assert finder.inline == [], path
