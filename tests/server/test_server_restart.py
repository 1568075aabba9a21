"""Reliability: ``meeple serve`` as a real process, killed with SIGKILL mid-game and started again.

The server runs with no settings at all (its data folder comes from
XDG_DATA_HOME), so this also checks the default SQLite file and the secret key
kept on first run: the players' session cookies still work after the restart.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from server_harness import GAMES, Client, Socket, free_port, play_out

import meeple
from meeple.games.base import GameRecord, replay

ENTRY = "import sys; from meeple.cli import main; sys.exit(main())"


class ServeProcess:
    """``meeple serve`` in a child process; only its loopback address is used."""

    def __init__(self, data_home: Path, port: int, settings: dict[str, str] | None = None) -> None:
        self.url = f"http://127.0.0.1:{port}"
        src = str(Path(meeple.__file__).resolve().parents[1])
        env = {key: value for key, value in os.environ.items() if not key.startswith("MEEPLE_")}
        env.update(XDG_DATA_HOME=str(data_home), PYTHONPATH=src, **(settings or {}))
        self.log = (data_home / "serve.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-c", ENTRY, "serve", "--port", str(port), "--log-level", "warning"],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, (data_home / "serve.log").read_text()
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "meeple serve did not answer"
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, nothing flushed by the server itself."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.log.close()

    def stop(self) -> None:
        """SIGTERM and wait."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.log.close()


class RemoteServer:
    """Enough of the harness's server interface for its clients to talk to a process."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.received: list[tuple[str, dict[str, object]]] = []

    @property
    def ws_url(self) -> str:
        """The ``ws://`` base URL."""
        return "ws" + self.url.removeprefix("http")


def client_of(server: RemoteServer, label: str, cookies: httpx.Cookies | None = None) -> Client:
    client = Client(server, label)  # type: ignore[arg-type]
    if cookies is not None:
        client.http.cookies = cookies
    return client


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_loses_nothing(tmp_path: Path) -> None:
    data_home = tmp_path
    port = free_port()
    first = ServeProcess(data_home, port)
    seats: dict[int, Socket] = {}
    try:
        remote = RemoteServer(first.url)
        alice, bob = client_of(remote, "alice"), client_of(remote, "bob")
        alice.guest()
        bob.guest()
        table_id = alice.create_table(
            game="slide", seats=3, bots={"2": "greedy"}, move_seconds=3600
        )["table"]["id"]
        bob.post(f"/api/tables/{table_id}/join", {})
        alice.post(f"/api/tables/{table_id}/start")
        seats = {0: alice.connect(table_id), 1: bob.connect(table_id)}
        for sock in seats.values():
            sock.recv()
        play_out(seats, "slide", stop=lambda: seats[0].version >= 25)
        before = alice.get(f"/api/tables/{table_id}/events")
        seen = {seat: sock.version for seat, sock in seats.items()}
    finally:
        first.kill()
        for sock in seats.values():
            sock.close()
    assert (data_home / "meeple" / "meeple.db").exists()

    second = ServeProcess(data_home, port)
    try:
        alice = client_of(remote, "alice", alice.http.cookies)
        bob = client_of(remote, "bob", bob.http.cookies)
        assert alice.get("/api/auth/me")["guest"] is True
        after = alice.get(f"/api/tables/{table_id}/events")
        assert after[: len(before)] == before
        old = seats
        seats = {0: alice.connect(table_id, since=seen[0]), 1: bob.connect(table_id, since=seen[1])}
        for seat, sock in seats.items():
            sock.adopt(old[seat])
            resumed = sock.recv()
            assert resumed["type"] == "resume" and resumed["from"] == seen[seat]
        # An action id used before the crash is still known: sending it again applies nothing.
        seats[0].send({"type": "action", "id": "alice-0", "action": {"type": "reveal"}})
        repeat = seats[0].recv_until(lambda m: m.get("id") == "alice-0")
        assert repeat["type"] == "ack" and repeat["duplicate"] is True
        play_out(seats, "slide")
        table = alice.get(f"/api/tables/{table_id}")["table"]
        assert table["status"] == "finished"
        record = GameRecord.from_json(alice.get(f"/api/tables/{table_id}/record"))
        final = GAMES["slide"].result(replay(GAMES["slide"], record)[-1])
        assert final is not None and table["result"] == final.to_json()
        events = alice.get(f"/api/tables/{table_id}/events")
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        assert sum(e["kind"] == "action" for e in events) == len(record.actions)
    finally:
        for client in (alice, bob):
            client.close()
        second.stop()
