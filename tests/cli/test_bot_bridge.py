"""``meeple bot run`` as a real child process playing on a live server over HTTP.

How a bot account gets a game against built-in bots: it opens the table
itself (``--game GAME --players N --opponents LEVEL``: a token with
``bot:play`` may open and start a table), the other seats taken by the
site's bots; a person gets one by challenging it (the browser test). The
bridge writes every game-stream line it got (``--trace``), and those lines
pass the socket tests' secret check.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from bot_api_support import (
    BridgeProcess,
    bot_account,
    check_stream_secrets,
    consecutive,
    record_of,
)
from server_harness import GAMES, LiveServer, play_out
from tcp_proxy import TcpProxy

import meeple
from meeple.games.base import replay

SLOW_BOT = '''
"""A bot written for the arena: made with a seed, it plays the greedy bot's move, slowly."""
import time
from meeple.bots import get_bot


class SlowBot:
    game = "summy"
    level = "slow"

    def __init__(self, seed):
        self.inner = get_bot("summy", "greedy", seed)

    def choose(self, view, seat, budget_s):
        time.sleep(0.3)
        return self.inner.choose(view, seat, budget_s)
'''


def check_game(server_client: Any, table_id: str, lines: list[dict[str, Any]], seats: int) -> None:
    """The game ended, as its record replays to, and every line the bot got keeps secrets."""
    table = server_client.get(f"/api/tables/{table_id}")["table"]
    assert table["status"] == "finished" and len(table["seats"]) == seats
    assert table["seats"][0]["bot_account"] and all(s["bot"] for s in table["seats"][1:])
    game = GAMES[table["game"]]
    final = replay(game, record_of(server_client, table_id))[-1]
    assert table["result"] == game.result(final).to_json()  # type: ignore[union-attr]
    assert lines[-1]["kind"] == "finish" and lines[-1]["data"]["result"] == table["result"]
    consecutive([line for line in lines if line["type"] != "resume"])
    assert check_stream_secrets(server_client, table_id, lines, 0) >= 3


@pytest.mark.parametrize(("game", "seats"), [("summy", 2), ("slide", 4)])
def test_the_bridge_plays_a_full_game_against_built_in_bots(
    server: LiveServer, tmp_path: Path, game: str, seats: int
) -> None:
    person, token = bot_account(server, f"bridge-{game}")
    bridge = BridgeProcess(
        tmp_path, server.url, token, "--bot", "greedy", "--game", game,
        "--players", str(seats), "--opponents", "random", "--budget", "0.2",
    )  # fmt: skip
    try:
        assert bridge.wait() == 0, bridge.output()
    finally:
        bridge.stop()
    (table_id, lines), *others = bridge.tables().items()
    assert not others
    check_game(person, table_id, lines, seats)
    mine = [line for line in lines if line.get("kind") == "action" and line["seat"] == 0]
    assert mine and all(line["data"]["by"] == "player" for line in mine)
    log = bridge.output()
    assert (
        f"game {table_id} ({game}) started" in log and f"game {table_id} ({game}) finished" in log
    )


def test_a_stream_cut_mid_game_resumes_with_no_event_missed_or_doubled(
    server: LiveServer, tmp_path: Path
) -> None:
    person, token = bot_account(server, "bridge-cut")
    proxy = TcpProxy(server.url)
    (tmp_path / "slow_bot.py").write_text(SLOW_BOT)
    bridge = BridgeProcess(
        tmp_path, proxy.url, token, "--module", "slow_bot:SlowBot", "--game", "summy",
        "--opponents", "random",
    )  # fmt: skip
    try:
        bridge.wait_lines(4)
        assert proxy.cut() >= 2  # the event stream and the game stream at least
        assert bridge.wait() == 0, bridge.output()
    finally:
        bridge.stop()
        proxy.close()
    ((table_id, lines),) = bridge.tables().items()
    assert [line["type"] for line in lines].count("resume") == 1
    assert proxy.connections > 3
    check_game(person, table_id, lines, 2)


def test_a_token_revoked_mid_game_gets_401_and_the_seat_times_out(
    server: LiveServer, tmp_path: Path
) -> None:
    person, token = bot_account(server, "bridge-revoked")
    (tmp_path / "slow_bot.py").write_text(SLOW_BOT)
    bridge = BridgeProcess(
        tmp_path, server.url, token, "--module", "slow_bot:SlowBot", "--game", "summy",
        "--opponents", "random", "--move-seconds", "30",
    )  # fmt: skip
    try:
        table_id, _ = bridge.wait_lines(2)
        token_id = person.get("/api/account/tokens")[0]["id"]
        watcher = server.client("watcher")
        watcher.guest()
        sock = watcher.connect(table_id)
        sock.recv()
        person.http.delete(f"/api/account/tokens/{token_id}").raise_for_status()
        assert bridge.wait(60) == 1
    finally:
        bridge.stop()
    assert "bad_token" in bridge.output()
    refused = server.client("after").http.get(
        "/api/stream/events", headers={"Authorization": f"Bearer {token}"}
    )
    assert (refused.status_code, refused.json()["code"]) == (401, "bad_token")
    # The seat is now a disconnected player's: its clock runs out, a greedy bot moves for
    # it, and after three time-outs a bot takes the seat for the rest of the game.
    table = person.get(f"/api/tables/{table_id}")["table"]
    assert table["status"] == "playing", table
    # The bot's own moves from before the revocation (a slow machine may still have them
    # on their way to the watcher) are not the seat's time-outs: the bridge is gone now.
    sock.drain(wait=0.5)
    timeouts = 0
    for _ in range(60):
        if sock.finished:
            break
        server.advance(31)
        for message in sock.drain(wait=0.5):
            if message.get("kind") == "action" and message["seat"] == 0:
                assert message["data"]["by"] in ("timeout", "zombie"), message
                timeouts += message["data"]["by"] == "timeout"
    assert timeouts == 3 and sock.finished
    final = person.get(f"/api/tables/{table_id}")["table"]
    assert final["seats"][0]["zombie"] and final["seats"][0]["timeouts"] == 3


def test_ctrl_c_stops_the_bridge_cleanly(server: LiveServer, tmp_path: Path) -> None:
    _, token = bot_account(server, "bridge-stop")
    bridge = BridgeProcess(tmp_path, server.url, token, "--bot", "random")
    try:
        deadline = time.monotonic() + 30
        while "signed in as bridge-stop" not in bridge.output():
            assert time.monotonic() < deadline and bridge.process.poll() is None, bridge.output()
            time.sleep(0.05)
        someone = server.client("someone")
        while "bridge-stop" not in json.dumps(someone.get("/api/bots/online")):
            assert time.monotonic() < deadline, "the bot never showed online"
            time.sleep(0.05)
        bridge.process.send_signal(signal.SIGINT)
        assert bridge.wait(30) == 0, bridge.output()
    finally:
        bridge.stop()
    assert "stopped" in bridge.output() and "Traceback" not in bridge.output()
    # Its event stream closed with it: the bot is no longer online.
    deadline = time.monotonic() + 10
    while "bridge-stop" in json.dumps(someone.get("/api/bots/online")):
        assert time.monotonic() < deadline, "the stopped bot still shows online"
        time.sleep(0.05)


@pytest.mark.postgres
@pytest.mark.redis
def test_a_bot_streaming_from_one_server_plays_a_table_the_other_owns(
    two_servers: tuple[LiveServer, LiveServer], tmp_path: Path
) -> None:
    east, west = two_servers
    person, token = bot_account(east, "bridge-west")
    spec = {"game": "slide", "seats": 3, "bots": {"1": "random", "2": "greedy"}}
    with httpx.Client(base_url=east.url, headers={"Authorization": f"Bearer {token}"}) as api:
        table_id = api.post("/api/tables", json=spec).raise_for_status().json()["table"]["id"]
        api.post(f"/api/tables/{table_id}/start").raise_for_status()
    # The bridge talks to the other server only: it learns of the game from its event
    # stream there, and plays it through that server's game stream and action route.
    bridge = BridgeProcess(tmp_path, west.url, token, "--bot", "greedy")
    try:
        deadline = time.monotonic() + 120
        while not (lines := bridge.tables().get(table_id)) or lines[-1].get("kind") != "finish":
            assert time.monotonic() < deadline and bridge.process.poll() is None, bridge.output()
            time.sleep(0.1)
        bridge.process.send_signal(signal.SIGINT)
        assert bridge.wait(30) == 0, bridge.output()
    finally:
        bridge.stop()
    assert east.services.tables.tables[table_id].owned
    assert not west.services.tables.tables[table_id].owned
    check_game(person, table_id, lines, 3)
    assert f"game {table_id} (slide) finished" in bridge.output()


def test_the_bridge_declines_other_games_and_plays_a_challenging_person(
    server: LiveServer, tmp_path: Path
) -> None:
    _, token = bot_account(server, "bridge-host")
    ada = server.client("ada")
    ada.register("ada")
    bridge = BridgeProcess(tmp_path, server.url, token, "--bot", "greedy", "--accept", "summy")
    try:
        deadline = time.monotonic() + 30
        while "bridge-host" not in json.dumps(ada.get("/api/bots/online")):
            assert time.monotonic() < deadline and bridge.process.poll() is None, bridge.output()
            time.sleep(0.05)

        def answer(challenge: dict[str, Any]) -> dict[str, Any]:
            while (now := ada.get(f"/api/challenges/{challenge['id']}"))["status"] == "open":
                assert time.monotonic() < deadline, bridge.output()
                time.sleep(0.05)
            return now

        refused = answer(ada.post("/api/challenges", {"to": "bridge-host", "game": "slide"}, 201))
        assert (refused["status"], refused["reason"]) == ("declined", "variant")
        taken = answer(ada.post("/api/challenges", {"to": "bridge-host", "game": "summy"}, 201))
        assert taken["status"] == "accepted"
        table_id = taken["table_id"]
        sock = ada.connect(table_id)
        hello = sock.recv()
        play_out({hello["seat"]: sock}, "summy")
        while not (lines := bridge.tables().get(table_id)) or lines[-1].get("kind") != "finish":
            assert time.monotonic() < deadline + 60, bridge.output()
            time.sleep(0.05)
        bridge.process.send_signal(signal.SIGINT)
        assert bridge.wait(30) == 0, bridge.output()
    finally:
        bridge.stop()
    table = ada.get(f"/api/tables/{table_id}")["table"]
    game = GAMES["summy"]
    assert table["result"] == game.result(replay(game, record_of(ada, table_id))[-1]).to_json()  # type: ignore[union-attr]
    bot_seat = 1 - hello["seat"]
    assert check_stream_secrets(ada, table_id, lines, bot_seat) >= 3
    assert check_stream_secrets(ada, table_id, sock.messages, hello["seat"]) >= 3


def test_the_example_bot_plays_a_challenge_to_the_end(server: LiveServer, tmp_path: Path) -> None:
    _, token = bot_account(server, "example-bot")
    ada = server.client("ada")
    ada.register("ada")
    example = Path(__file__).resolve().parents[2] / "examples" / "bot_api_example.py"
    src = str(Path(meeple.__file__).resolve().parents[1])
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEEPLE_")}
    env["PYTHONPATH"] = src
    log_path = tmp_path / "example.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-u", str(example), server.url, token], env=env, stdout=log, stderr=log
        )
        try:
            challenge = ada.post("/api/challenges", {"to": "example-bot", "game": "slide"}, 201)
            deadline = time.monotonic() + 30
            while (now := ada.get(f"/api/challenges/{challenge['id']}"))["status"] == "open":
                assert time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.05)
            table_id = now["table_id"]
            sock = ada.connect(table_id)
            play_out({sock.recv()["seat"]: sock}, "slide")
            while f"finished {table_id}" not in log_path.read_text():
                assert time.monotonic() < deadline + 60, log_path.read_text()
                time.sleep(0.05)
        finally:
            process.kill()
            process.wait(10)
    table = ada.get(f"/api/tables/{table_id}")["table"]
    assert table["status"] == "finished"
    assert {s["data"]["by"] for s in sock.messages if s.get("kind") == "action"} == {"player"}
