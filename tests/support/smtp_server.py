"""A real SMTP server for tests: aiosmtpd on a free port, keeping every message it gets.

>>> with smtp_server() as smtp:           # doctest: +SKIP
...     settings = make_settings(tmp_path, smtp_url=smtp.url, public_url=...)
...     message = smtp.wait_for(lambda m: m["To"] == "ada@example.org")
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from server_harness import free_port


class Collector:
    """The aiosmtpd handler: parses each message and keeps it, in arrival order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.delay_s = 0.0
        """How long each message takes to be accepted (a slow SMTP server)."""
        self._lock = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """Keep the message (aiosmtpd calls this for each one received)."""
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self.messages.append(message)
            self._lock.notify_all()
        return "250 OK"


class SmtpServer:
    """A running aiosmtpd server that can be stopped and started again on the same port
    (to play an SMTP outage)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.collector = Collector()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        """``MEEPLE_SMTP_URL`` for this server (plain SMTP, no STARTTLS)."""
        return f"smtp://127.0.0.1:{self.port}?starttls=false"

    @property
    def messages(self) -> list[EmailMessage]:
        """Every message received so far (a copy)."""
        with self.collector._lock:
            return list(self.collector.messages)

    def start(self) -> None:
        """Listen (again) on :attr:`port`."""
        self.controller = Controller(self.collector, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        """Stop listening: senders now get "connection refused"."""
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def wait_for(
        self, match: Callable[[EmailMessage], bool] = lambda _m: True, timeout: float = 15.0
    ) -> EmailMessage:
        """The first message received (so far or within ``timeout``) for which ``match`` holds."""
        deadline = time.monotonic() + timeout
        with self.collector._lock:
            while True:
                for message in self.collector.messages:
                    if match(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching email within {timeout} s")
                self.collector._lock.wait(left)


def body_text(message: EmailMessage) -> str:
    """The plain-text part of a message."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, "no plain-text part"
    return str(part.get_content())


def body_html(message: EmailMessage) -> str:
    """The HTML part of a message."""
    part = message.get_body(preferencelist=("html",))
    assert part is not None, "no HTML part"
    return str(part.get_content())


@contextmanager
def smtp_server(port: int | None = None) -> Iterator[SmtpServer]:
    """An SMTP server for the duration of a ``with`` block."""
    server = SmtpServer(port)
    server.start()
    try:
        yield server
    finally:
        server.stop()
