"""Passwords (argon2, off the event loop), signed session cookies, access tokens, name and
password rules."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer

from meeple.errors import Code, TableError
from meeple.store.names import name_key, shown_name

T = TypeVar("T")

SESSION_COOKIE = "meeple_session"
SESSION_MAX_AGE_S = 30 * 24 * 3600

NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
"""An account name, as stored (:func:`shown_name`); use ``fullmatch``."""

PASSWORD_MAX_CHARS = 256
"""The longest password taken (hashing a longer one would cost the server for nothing)."""
PASSWORD_LEAST_DISTINCT = 5
"""The fewest different characters a password holds."""

COMMON_PASSWORDS = frozenset(
    {
        "password", "password1", "password123", "12345678", "123456789", "1234567890",
        "qwertyuiop", "qwerty123", "iloveyou", "sunshine", "princess", "football",
        "baseball", "welcome1", "letmein1", "admin123", "abc12345", "11111111",
        "00000000", "passw0rd", "trustno1", "dragon123", "monkey123", "meeple123",
    }
)  # fmt: skip

_hasher = PasswordHasher()
_password_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="meeple-passwords")
"""argon2 takes ~0.2 s of CPU a call: it runs here, never on the event loop."""


@cache
def _hash_of_no_password() -> str:
    """A hash to verify against when the name is unknown, so the answer takes as long."""
    return _hasher.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    """An argon2id hash of ``password`` (blocking: call it through :func:`off_loop`)."""
    return _hasher.hash(password)


@dataclass(frozen=True)
class PasswordCheck:
    """Whether a password matched, and a fresh hash when the stored one is outdated."""

    ok: bool
    new_hash: str | None = None


def check_password(password_hash: str | None, password: str) -> PasswordCheck:
    """Verify ``password``; with no hash (unknown name) the same work is done, and it fails.

    A match whose hash was made with other argon2 parameters comes with a new
    hash to store (blocking: call it through :func:`off_loop`).
    """
    stored = password_hash or _hash_of_no_password()
    try:
        ok = _hasher.verify(stored, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return PasswordCheck(False)
    if ok and _hasher.check_needs_rehash(stored):
        return PasswordCheck(True, _hasher.hash(password))
    return PasswordCheck(ok)


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """Run blocking password work in its own threads, keeping the event loop free."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_password_threads, work, *args)


def name_problem(name: str) -> TableError | None:
    """Why ``name`` cannot be an account name (a refusal to raise), or ``None`` if it can.

    The rules hold for the name as stored, :func:`shown_name` (NFKC): ``Ｂｏｂ``
    is the name ``Bob``, and ``ＧＵＥＳＴ1`` starts with "guest". The whole name
    must match, so a trailing line break is refused, not ignored.
    """
    if not NAME_PATTERN.fullmatch(shown_name(name)):
        return Code.NAME_SHAPE.error()
    if name_key(name).startswith("guest"):
        return Code.NAME_GUEST.error()
    return None


def password_problem(password: str, name: str, min_length: int) -> TableError | None:
    """Why ``password`` is too weak (a refusal to raise), or ``None`` if it will do."""
    if len(password) < min_length:
        return Code.PASSWORD_SHORT.error(count=min_length)
    if len(password) > PASSWORD_MAX_CHARS:
        return Code.PASSWORD_LONG.error(most=PASSWORD_MAX_CHARS)
    if password.lower() in COMMON_PASSWORDS:
        return Code.PASSWORD_COMMON.error()
    if name.lower() in password.lower():
        return Code.PASSWORD_NAME.error()
    if len(set(password)) < PASSWORD_LEAST_DISTINCT:
        return Code.PASSWORD_VARIED.error(least=PASSWORD_LEAST_DISTINCT)
    return None


def new_session_token() -> str:
    """A fresh, unguessable session token."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the store keeps of a session token (a leaked table gives no usable cookie)."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


TOKEN_PREFIX = "meeple_"
"""Every personal access token starts so (a leaked one is easy to recognise and search for)."""

SCOPES = ("bot:play", "games:read")
"""The scopes a personal access token may hold."""


def new_access_token() -> tuple[str, str]:
    """A fresh personal access token and its public id: ``(token, id)``."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32), secrets.token_hex(8)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header ("" if the header is
    present but not a bearer token of a sane length), or ``None`` with no header."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not 0 < len(token) <= 128 or not token.isascii():
        return ""
    return token


class SessionSigner:
    """Signs and reads the session cookie: a session token, tamper-proof and dated."""

    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="meeple-session")

    def dumps(self, token: str) -> str:
        """The cookie value for session ``token``."""
        return self._serializer.dumps({"sid": token})

    def loads(self, value: str) -> str | None:
        """The session token in a cookie value, or ``None`` if forged, damaged or too old."""
        try:
            data = self._serializer.loads(value, max_age=SESSION_MAX_AGE_S)
        except BadSignature:
            return None
        token = data.get("sid") if isinstance(data, dict) else None
        return token if isinstance(token, str) and 0 < len(token) <= 64 else None
