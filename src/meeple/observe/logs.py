"""The server's log: one line per record, as text (the default) or JSON (``MEEPLE_LOG_FORMAT``).

:func:`configure_logging` gives the root logger one handler on standard error, which
every logger (meeple's, uvicorn's, the libraries') reaches. On that handler two filters
run before any line is written: :class:`RequestContext` names the request and the table
of the work that logged (:mod:`meeple.observe.request_ids`), and :class:`SecretFilter`
hides what must never be in a log: a bearer token, a password, a cookie, a secret query
value, a URL's password, an email's body. docs/operations.md lists the fields and what
each level means.
"""

from __future__ import annotations

import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

from pythonjsonlogger.json import JsonFormatter

from meeple.observe.request_ids import REQUEST_ID, TABLE_ID

HIDDEN = "[redacted]"

SECRETS: tuple[tuple[re.Pattern[str], str], ...] = (
    # An email as sent (its headers, then its body): nothing of it from the headers on.
    (re.compile(r"(?is)\b(?:MIME-Version|Content-Type|Content-Transfer-Encoding):.*"),
     "[email redacted]"),
    # Authorization headers and their tokens: "Bearer abc", "Basic abc".
    (re.compile(r"(?i)\b(bearer|basic)(\s+)[^\s,;'\"]+"), rf"\1\2{HIDDEN}"),
    # Cookie headers, whole; a session cookie wherever it is.
    (re.compile(r"(?i)\b((?:set-)?cookie)(\s*[:=]\s*)[^\r\n]+"), rf"\1\2{HIDDEN}"),
    (re.compile(r"(?i)\b(\w*session\w*=)[^;,&\s'\"]+"), rf"\1{HIDDEN}"),
    # name=value, name: value, "name": "value", where the name says it is a secret.
    (re.compile(
        r"(?i)(\b\w*(?:password|passwd|secret|token|api_?key|invite|credential)\w*\b['\"]?"
        r"\s*[:=]\s*['\"]?)[^\s'\",;&}]+"
    ), rf"\1{HIDDEN}"),
    # A URL's password: scheme://user:password@host.
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^:/@\s]*:)[^@\s/]+@"), r"\1***@"),
)  # fmt: skip
"""What :func:`redact` hides, and what it puts instead."""


def redact(text: str) -> str:
    """``text`` with every secret :data:`SECRETS` knows hidden."""
    for pattern, replacement in SECRETS:
        text = pattern.sub(replacement, text)
    return text


class SecretFilter(logging.Filter):
    """Hides secrets in a record's message, its exception and its stack before it is
    written (the record keeps the hidden text: a handler after this one sees no more)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's text; the record is always kept."""
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit the message: show both as they are
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = redact(message), None
        if record.exc_info:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


class RequestContext(logging.Filter):
    """Names on each record the request and the table of the work that logged it (``None``
    where there is none); a record that names them already keeps its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Add ``request_id`` and ``table_id``; the record is always kept."""
        if getattr(record, "request_id", None) is None:
            record.request_id = REQUEST_ID.get()
        if getattr(record, "table_id", None) is None:
            record.table_id = TABLE_ID.get()
        return True


FIELDS = ("time", "level", "logger", "message", "request_id", "table_id", "exception", "stack")
"""The fields of a JSON line, in order; ``request_id``, ``table_id``, ``exception`` and
``stack`` only where there is one."""


class JsonLines(JsonFormatter):
    """One JSON object per line, with the :data:`FIELDS` and no others."""

    def __init__(self) -> None:
        super().__init__(
            "{levelname}{name}{message}{request_id}{table_id}",
            style="{",
            rename_fields={
                "levelname": "level",
                "name": "logger",
                "exc_info": "exception",
                "stack_info": "stack",
            },
            json_ensure_ascii=False,
        )

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        """The record's fields, and its time in UTC to the microsecond (always six digits)."""
        super().add_fields(log_data, record, message_dict)
        moment = datetime.fromtimestamp(record.created, tz=UTC)
        log_data["time"] = moment.isoformat(timespec="microseconds")

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        """Keep the :data:`FIELDS` that have a value, in their order."""
        return {name: log_data[name] for name in FIELDS if log_data.get(name) is not None}


class TextLines(logging.Formatter):
    """``2026-12-05 09:30:00,123 INFO meeple.tables.x [request R table T]: message``; the
    brackets only where the work has a request or a table."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(context)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """The line, with the record's request and table."""
        parts = []
        request_id, table_id = (
            getattr(record, "request_id", None),
            getattr(record, "table_id", None),
        )
        if request_id:
            parts.append(f"request {request_id}")
        if table_id:
            parts.append(f"table {table_id}")
        record.context = f" [{' '.join(parts)}]" if parts else ""
        return super().format(record)


def log_handler(log_format: str, stream: TextIO | None = None) -> logging.Handler:
    """A handler writing ``log_format`` lines (``text`` or ``json``) to ``stream`` (standard
    error by default), with the request context added and secrets hidden."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines() if log_format == "json" else TextLines())
    handler.addFilter(RequestContext())
    handler.addFilter(SecretFilter())
    return handler


def configure_logging(log_format: str, level: int = logging.INFO) -> logging.Handler:
    """Make the server's log: every record of ``level`` or above, from any logger, through
    one :func:`log_handler` on the root logger (which replaces the root's handlers)."""
    handler = log_handler(log_format)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
