"""Unsubscribe links: signed, needing no sign-in, never expiring, one per kind of email.

A link carries the account's id and the kind it stops (one kind of notification
emailed, :data:`~meeple.tables.notices.notifications.EMAILED`, or ``all``), signed
with the server's secret key (the one that signs session cookies, shared by every
server on one database) under a salt of its own, so a session cookie is no
unsubscribe token and the other way round. It does not expire: an email read a
year later still unsubscribes. It reveals only the account's id; anyone holding it
can only stop (or, through the account page, nobody but the account can restore)
that account's emails of that kind.
"""

from __future__ import annotations

from urllib.parse import quote

from itsdangerous import BadSignature, URLSafeSerializer

from meeple.tables.notices.notifications import EMAILED

ALL_EMAILS = "all"
"""What stops every email that brings players back at once (the account's own emails,
verification and reset, always go)."""

UNSUBSCRIBE_KINDS = (*(kind.value for kind in EMAILED), ALL_EMAILS)
"""What an unsubscribe link may stop: one kind of email, or all of them."""

UNSUBSCRIBE_PATH = "/email/unsubscribe"
"""The page an unsubscribe link opens (GET: a confirm button; POST: done)."""


class UnsubscribeSigner:
    """Makes and reads unsubscribe tokens with the server's secret key."""

    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeSerializer(secret_key, salt="meeple-unsubscribe")

    def token(self, user_id: int, kind: str) -> str:
        """The token that stops ``kind`` emails to the account ``user_id``."""
        if kind not in UNSUBSCRIBE_KINDS:
            raise ValueError(f"unknown email kind {kind!r}")
        return self._serializer.dumps({"u": user_id, "k": kind})

    def read(self, token: str) -> tuple[int, str] | None:
        """The account and kind a token stops, or ``None`` if it is forged or damaged."""
        if not 0 < len(token) <= 200:
            return None
        try:
            data = self._serializer.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        user_id, kind = data.get("u"), data.get("k")
        if type(user_id) is not int or kind not in UNSUBSCRIBE_KINDS:
            return None
        return user_id, kind

    def url(self, public_url: str, user_id: int, kind: str) -> str:
        """The full unsubscribe link, under the server's public address."""
        token = quote(self.token(user_id, kind), safe="")
        return f"{public_url.rstrip('/')}{UNSUBSCRIBE_PATH}?token={token}"
