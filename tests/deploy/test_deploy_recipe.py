"""The deploy recipe in deploy/ holds together with the server it deploys (docs/deploy.md).

Docker may not run where the tests do, so the Compose file is read as YAML and
checked against the code: its servers' settings and the systemd env file's are
real settings that load; the Caddyfile's long-lived paths are exactly the
server's WebSocket and NDJSON routes and its health check the readiness route;
and Caddy itself, where installed, reads the Caddyfile.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib.metadata
import ipaddress
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.routing import APIRoute
from server_harness import make_settings
from starlette.routing import BaseRoute, WebSocketRoute

from meeple.cli import build_parser
from meeple.config import Settings, load_settings
from meeple.web.app import create_app

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"

SAMPLE = {
    "SITE_NAME": "play.example.org",
    "ACME_EMAIL": "ops@example.org",
    "POSTGRES_PASSWORD": "0123456789abcdef",
    "REDIS_PASSWORD": "fedcba9876543210",
}
"""What an operator puts in deploy/.env (compose.env.example)."""


def interpolated(value: str, variables: dict[str, str]) -> str:
    """``value`` with Compose's ``${NAME}``, ``${NAME:-default}``, ``${NAME:?error}`` filled in."""

    def one(match: re.Match[str]) -> str:
        name, kind, rest = match[1], match[2], match[3]
        if variables.get(name):
            return variables[name]
        if kind == ":-":
            return rest or ""
        assert kind != ":?", f"${{{name}}} is required: {rest}"
        return ""

    return re.sub(r"\$\{(\w+)(?:(:[-?])([^}]*))?\}", one, value)


def compose() -> dict[str, Any]:
    """deploy/compose.yaml, as Compose reads it (YAML with merge keys)."""
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text("utf-8"))
    return loaded


def env_file(path: Path) -> dict[str, str]:
    """The ``NAME=value`` lines of an env file (comments and blank lines skipped)."""
    lines = path.read_text("utf-8").splitlines()
    pairs = [line.split("=", 1) for line in lines if line.strip() and not line.startswith("#")]
    return {name.strip(): value.strip() for name, value in pairs}


def loads_as_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str]
) -> Settings:
    """The settings ``env`` gives ``meeple serve`` (raises ConfigError naming a bad one)."""
    for name in list(os.environ):
        if name.startswith("MEEPLE_"):
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("MEEPLE_DATA_DIR", str(tmp_path / "data"))
    return load_settings()


def test_the_compose_servers_settings_are_real_settings_that_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    stack = compose()
    services = stack["services"]
    assert {"meeple1", "meeple2", "postgres", "redis", "caddy"} <= set(services)
    for name in ("meeple1", "meeple2"):
        server = services[name]
        assert (DEPLOY / server["build"]["context"] / server["build"]["dockerfile"]).is_file()
        assert (DEPLOY / server["build"]["context"] / "pyproject.toml").is_file()
        env = {key: interpolated(str(v), SAMPLE) for key, v in server["environment"].items()}
        settings = loads_as_settings(monkeypatch, tmp_path, env)
        assert settings.db == "postgresql://meeple:0123456789abcdef@postgres:5432/meeple"
        assert settings.redis == "redis://:fedcba9876543210@redis:6379/0"
        assert settings.cookie_secure and settings.site_url == "https://play.example.org"
        assert settings.public_url is None  # docs/server.md: unset where failover matters
        caddy_address = services["caddy"]["networks"]["meeple"]["ipv4_address"]
        assert settings.proxy_addresses() == [caddy_address]
    subnet = stack["networks"]["meeple"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(caddy_address) in ipaddress.ip_network(subnet)
    caddy = services["caddy"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    dockerfile = (DEPLOY / "Dockerfile").read_text("utf-8")
    port = re.search(r"MEEPLE_PORT=(\d+)", dockerfile)
    assert port is not None
    assert caddy["environment"]["SITE_SERVERS"].split() == [
        f"meeple1:{port[1]}",
        f"meeple2:{port[1]}",
    ]
    for name in ("POSTGRES_PASSWORD", "REDIS_PASSWORD", "SITE_NAME", "ACME_EMAIL"):
        assert name in env_file(DEPLOY / "compose.env.example")


def test_the_systemd_env_file_example_loads(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    settings = loads_as_settings(
        monkeypatch, tmp_path, env_file(DEPLOY / "systemd" / "meeple.env.example")
    )
    assert settings.redis is not None and settings.db is not None
    assert settings.cookie_secure and settings.proxy_addresses() == ["127.0.0.1"]
    units = {path.name: path.read_text("utf-8") for path in (DEPLOY / "systemd").iterdir()}
    for unit in ("meeple@.service", "meeple-backup.service"):
        assert "EnvironmentFile=/etc/meeple/meeple.env" in units[unit]
        run = re.search(r"/opt/meeple/bin/meeple ([^'\n]+)", units[unit])
        assert run is not None
        argv = run[1].replace("%i", "8001").replace("$(date +%%Y-%%m-%%dT%%H%%M)", "now").split()
        build_parser().parse_args(argv)  # a command and flags that exist
    assert "Unit=" not in units["meeple-backup.timer"]  # it starts meeple-backup.service


def caddy_paths(caddyfile: str, matcher: str) -> list[str]:
    """The paths of the named matcher ``@matcher path ...`` in the Caddyfile."""
    found = re.search(rf"^\s*@{matcher} path (.+)$", caddyfile, re.MULTILINE)
    assert found is not None, f"no @{matcher} path matcher"
    return found[1].split()


def websocket_paths(routes: list[BaseRoute]) -> list[str]:
    """The paths of the WebSocket routes among ``routes``, in included routers too."""
    found: list[str] = []
    for route in routes:
        included = getattr(route, "original_router", None)  # FastAPI includes routers lazily
        if included is not None:
            found += websocket_paths(included.routes)
        elif isinstance(route, WebSocketRoute):
            found.append(route.path)
    return found


def test_the_caddyfile_names_the_servers_long_lived_paths_and_its_readiness(
    tmp_path: Path,
) -> None:
    app = create_app(make_settings(tmp_path))
    sockets = websocket_paths(app.routes)
    paths = app.openapi()["paths"]
    streams = [
        path
        for path, operations in paths.items()
        if "application/x-ndjson"
        in operations.get("get", {}).get("responses", {}).get("200", {}).get("content", {})
    ]
    assert sockets and streams
    caddyfile = (DEPLOY / "Caddyfile").read_text("utf-8")
    patterns = caddy_paths(caddyfile, "streams")

    def sample(path: str) -> str:
        return re.sub(r"\{\w+\}", "x1", path)

    long_lived = sockets + streams
    for path in long_lived:
        assert any(fnmatch.fnmatchcase(sample(path), p) for p in patterns), path
    for pattern in patterns:
        assert any(fnmatch.fnmatchcase(sample(path), pattern) for path in long_lived), pattern
    short = [path for path in paths if path not in streams]
    assert not any(fnmatch.fnmatchcase(sample(p), pattern) for p in short for pattern in patterns)
    health = re.search(r"health_uri (\S+)", caddyfile)
    assert health is not None and health[1] == "/api/ready"
    assert any(
        isinstance(route, APIRoute) and route.path == health[1] and "GET" in route.methods
        for route in app.routes
    )


def test_caddy_reads_the_caddyfile(tmp_path: Path) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed")
    version = subprocess.run([caddy, "version"], capture_output=True, text=True, check=False)
    found = re.match(r"v?2\.(\d+)\.", version.stdout.strip())
    if found is None or int(found[1]) < 7:
        pytest.skip(f"caddy {version.stdout.strip()} is older than 2.7 (stream_close_delay)")
    env = {**os.environ, "SITE_SERVERS": "meeple1:8000 meeple2:8000", **SAMPLE}
    adapted = subprocess.run(
        [caddy, "adapt", "--adapter", "caddyfile", "--config", str(DEPLOY / "Caddyfile")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert adapted.returncode == 0, adapted.stderr
    assert '"dial":"meeple2:8000"' in adapted.stdout.replace(" ", "")
    assert "not formatted" not in adapted.stderr  # caddy fmt leaves it as it is


INDIRECT = {"starlette": "fastapi", "pydantic_core": "pydantic", "uvloop": "uvicorn"}
"""Modules the code imports that a declared dependency brings (uvloop: uvicorn[standard])."""


def test_pip_install_brings_every_module_the_code_imports() -> None:
    """The image installs meeple's dependencies only, not the dev ones (the tests' httpx)."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    names = {
        re.split(r"[\[<>=~!; ]", line, maxsplit=1)[0].lower().replace("_", "-")
        for line in declared["dependencies"]
    }
    distributions = importlib.metadata.packages_distributions()
    missing = {}
    for path in (REPO / "src" / "meeple").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top in sys.stdlib_module_names or top == "meeple" or top in INDIRECT:
                    continue
                owners = {d.lower().replace("_", "-") for d in distributions.get(top, [top])}
                if not owners & names:
                    missing[top] = str(path.relative_to(REPO))
    assert missing == {}
