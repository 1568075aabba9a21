"""``/api/ready`` (can this server take players?) beside ``/api/health`` (is it up?)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from server_harness import LiveServer, make_settings, require_redis, start_server
from tcp_proxy import TcpProxy


def test_a_started_server_is_ready_and_one_without_its_tables_is_not(
    server: LiveServer,
) -> None:
    answer = httpx.get(f"{server.url}/api/ready")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ready", "database": "ok", "bus": "ok", "tables": "ok"}
    app = server.server.config.app
    app.state.tables_started = False  # as while it starts up or shuts down
    try:
        answer = httpx.get(f"{server.url}/api/ready")
    finally:
        app.state.tables_started = True
    assert answer.status_code == 503
    assert answer.json()["status"] == "not_ready" and answer.json()["tables"].startswith("not")
    assert httpx.get(f"{server.url}/api/health").status_code == 200


@pytest.mark.postgres
@pytest.mark.redis
def test_a_server_whose_bus_or_database_is_gone_is_not_ready_but_alive(
    tmp_path: Path, pg_url: str
) -> None:
    redis_url = require_redis()
    redis_proxy = TcpProxy(redis_url.replace("redis://", "http://"))
    pg_proxy = TcpProxy("http://127.0.0.1:5432")
    settings = make_settings(
        tmp_path,
        pg_url.replace("127.0.0.1:5432", f"127.0.0.1:{pg_proxy.port}"),
        redis=redis_url.replace("127.0.0.1:6379", f"127.0.0.1:{redis_proxy.port}"),
    )
    server = start_server(settings)
    try:
        assert httpx.get(f"{server.url}/api/ready").json()["status"] == "ready"
        redis_proxy.close()
        answer = httpx.get(f"{server.url}/api/ready", timeout=10)
        assert answer.status_code == 503
        report = answer.json()
        assert report["bus"] != "ok" and report["database"] == "ok"
        assert "6379" not in report["bus"] and str(redis_proxy.port) not in report["bus"]
        pg_proxy.close()
        report = httpx.get(f"{server.url}/api/ready", timeout=10).json()
        assert report["status"] == "not_ready" and report["database"] != "ok"
        assert httpx.get(f"{server.url}/api/health").status_code == 200
    finally:
        server.stop()
