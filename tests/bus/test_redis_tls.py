"""Servers sharing tables through a Redis reached over TLS with a password (``rediss://``).

The bus carries what the database holds (a table's stored events, a seat's pending
pick among them), so an operator whose Redis is not on a private network encrypts
the way there and requires a password. The test starts its own ``redis-server``
listening only on a TLS port, with a CA and a certificate made here.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from server_harness import free_port, make_settings, missing_service, start_server

from meeple.cli import serve
from meeple.config import Settings

PASSWORD = "tls-test-Pa55word"


@dataclass(frozen=True)
class TlsRedis:
    """A TLS-only Redis with a password, and how to reach it."""

    port: int
    ca: Path

    def url(self, password: str = PASSWORD) -> str:
        """Its ``rediss://`` URL, trusting the test's CA."""
        return f"rediss://:{password}@127.0.0.1:{self.port}/0?ssl_ca_certs={self.ca}"


def make_certificates(folder: Path) -> None:
    """A CA, and a certificate it signs for 127.0.0.1 (what the clients check)."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "1", "-subj", "/CN=meeple test CA")  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key",
            "-out", "server.csr", "-subj", "/CN=127.0.0.1")  # fmt: skip
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "server.pem", "-extfile", "san.ext")  # fmt: skip


@pytest.fixture
def tls_redis(tmp_path: Path) -> Iterator[TlsRedis]:
    """A ``redis-server`` of the test's own on a free port: TLS only, a password; stopped
    (and its files removed with ``tmp_path``) afterwards."""
    for tool in ("redis-server", "openssl"):
        if shutil.which(tool) is None:
            missing_service(tool, "not installed")
    folder = tmp_path / "redis-tls"
    folder.mkdir()
    make_certificates(folder)
    port = free_port()
    command = ["redis-server", "--port", "0", "--tls-port", str(port), "--bind", "127.0.0.1",
               "--tls-cert-file", "server.pem", "--tls-key-file", "server.key",
               "--tls-ca-cert-file", "ca.pem", "--tls-auth-clients", "no",
               "--requirepass", PASSWORD, "--save", "", "--appendonly", "no"]  # fmt: skip
    log = (folder / "redis.log").open("w")
    process = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    try:
        server = TlsRedis(port, folder / "ca.pem")
        deadline = time.monotonic() + 10
        while True:
            if process.poll() is not None:
                said = (folder / "redis.log").read_text()
                if "tls" in said.lower() and "support" in said.lower():
                    missing_service("redis-server with TLS", said.strip()[-200:])
                raise RuntimeError(f"redis-server stopped: {said[-500:]}")
            try:
                redis.Redis.from_url(server.url()).ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "the TLS redis-server did not answer"
                time.sleep(0.05)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@pytest.mark.postgres
def test_two_servers_share_a_table_through_redis_over_tls_with_a_password(
    tmp_path: Path, pg_url: str, tls_redis: TlsRedis
) -> None:
    url = tls_redis.url()
    # Guests are limited per address in Redis too: two servers, one count.
    east = start_server(make_settings(tmp_path / "a", pg_url, redis=url, limit_guests="2/hour"))
    west = start_server(make_settings(tmp_path / "b", pg_url, redis=url, limit_guests="2/hour"))
    try:
        alice = east.client("alice")
        alice.guest()
        table_id = alice.create_table(game="slide", seats=2, bots={"1": "greedy"})["table"]["id"]
        seated = alice.connect(table_id)
        assert seated.recv()["table"]["spectators"] == 0
        # A spectator on the other server is told of by the bus, both ways.
        watching = west.client("watcher").connect(table_id)
        assert watching.recv()["table"]["spectators"] == 1
        assert seated.recv_until(lambda m: m.get("type") == "watchers")["spectators"] == 1
        watching.recv_until(lambda m: m.get("type") == "watchers" and m["present"] == [0])
        # The table's events reach the other server through the bus (east owns it: its lease).
        alice.post(f"/api/tables/{table_id}/start")
        seated.wait_version(seated.version + 1)
        watching.wait_version(seated.version)
        # The rate limiter's window is in the same Redis: the third guest is refused on west.
        west.client("second").guest()
        refused = west.client("third").post("/api/auth/guest", expect=429)
        assert refused["code"] == "rate_limited"
    finally:
        east.stop()
        west.stop()


def test_meeple_serve_reaches_redis_over_tls_and_names_a_wrong_password_without_showing_it(
    tmp_path: Path, tls_redis: TlsRedis, capsys: pytest.CaptureFixture[str]
) -> None:
    good = Settings(data_dir=tmp_path, redis=tls_redis.url())
    serve.preflight(good)  # reaches it: no exit
    wrong = Settings(data_dir=tmp_path, redis=tls_redis.url("not-the-password"))
    with pytest.raises(SystemExit) as caught:
        serve.preflight(wrong)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("meeple: cannot reach MEEPLE_REDIS (rediss://:***@127.0.0.1:")
    assert "invalid username-password pair" in err and err.count("\n") == 1
    assert "not-the-password" not in err
    # Without the CA, the server's certificate is not trusted: no plain fallback either.
    untrusted = Settings(data_dir=tmp_path, redis=tls_redis.url().split("?")[0])
    with pytest.raises(SystemExit):
        serve.preflight(untrusted)
    assert "certificate verify failed" in capsys.readouterr().err
