"""``meeple serve`` as a real child process, and harness clients that talk to it over HTTP."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from server_harness import Client

import meeple

ENTRY = "import sys; from meeple.cli import main; sys.exit(main())"


class ServeProcess:
    """``meeple serve`` in a child process; only its loopback address is used."""

    def __init__(
        self,
        data_home: Path,
        port: int,
        settings: dict[str, str] | None = None,
        log_level: str = "warning",
    ) -> None:
        self.url = f"http://127.0.0.1:{port}"
        src = str(Path(meeple.__file__).resolve().parents[1])
        env = {key: value for key, value in os.environ.items() if not key.startswith("MEEPLE_")}
        env.update(XDG_DATA_HOME=str(data_home), PYTHONPATH=src, **(settings or {}))
        self.log = (data_home / "serve.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-c", ENTRY, "serve", "--port", str(port), "--log-level", log_level],
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
    """A harness client talking to a server process, with the cookies of an earlier one."""
    client = Client(server, label)  # type: ignore[arg-type]
    if cookies is not None:
        client.http.cookies = cookies
    return client
