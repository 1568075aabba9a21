"""The access log never holds a secret passed in a query string.

uvicorn logs each request's full path, query included; a client that puts its
Bot API token (or a one-time link's token) in the URL would leave it in every
log file and log shipper. :class:`SecretQueryFilter` replaces those values
with ``[redacted]`` before any handler sees the line.
"""

from __future__ import annotations

import logging
import re

ACCESS_LOGGER = "uvicorn.access"
"""uvicorn's logger of one line per request."""

SECRET_QUERY = re.compile(
    r"(?i)([?&](?:access_token|token|api_key|key|password|secret|invite)=)[^&#\s]*"
)
"""A query parameter whose value is a secret: its name, then the value to hide."""


def redact(path: str) -> str:
    """``path`` with the value of every secret query parameter hidden."""
    return SECRET_QUERY.sub(r"\1[redacted]", path)


class SecretQueryFilter(logging.Filter):
    """Hides secret query values in uvicorn's access lines (its args hold the full path)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's string arguments in place; the line is always kept."""
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install_secret_filter() -> None:
    """Put the filter on the access logger once (a second app in one process adds none)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, SecretQueryFilter) for f in logger.filters):
        logger.addFilter(SecretQueryFilter())
