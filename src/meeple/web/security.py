"""Passwords (argon2), signed session cookies, name and password rules, rate limits."""

from __future__ import annotations

import re
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer

SESSION_COOKIE = "meeple_session"
SESSION_MAX_AGE_S = 30 * 24 * 3600

NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{2,19}$")

COMMON_PASSWORDS = frozenset(
    {
        "password", "password1", "password123", "12345678", "123456789", "1234567890",
        "qwertyuiop", "qwerty123", "iloveyou", "sunshine", "princess", "football",
        "baseball", "welcome1", "letmein1", "admin123", "abc12345", "11111111",
        "00000000", "passw0rd", "trustno1", "dragon123", "monkey123", "meeple123",
    }
)  # fmt: skip

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``."""
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    """Whether ``password`` matches the stored argon2 hash."""
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be an account name, or ``None`` if it can."""
    if not NAME_PATTERN.match(name):
        return "a name is 3 to 20 letters, digits, '_' or '-', starting with a letter"
    if name.lower().startswith("guest"):
        return "names starting with 'guest' are kept for guests"
    return None


def password_problem(password: str, name: str, min_length: int) -> str | None:
    """Why ``password`` is too weak, or ``None`` if it will do."""
    if len(password) < min_length:
        return f"the password is too short: at least {min_length} characters"
    if len(password) > 256:
        return "the password is too long: at most 256 characters"
    if password.lower() in COMMON_PASSWORDS:
        return "the password is one of the most common ones; choose another"
    if name.lower() in password.lower():
        return "the password must not contain the name"
    if len(set(password)) < 5:
        return "the password needs at least 5 different characters"
    return None


class SessionSigner:
    """Signs and reads the session cookie: the user id, tamper-proof and dated."""

    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="meeple-session")

    def dumps(self, user_id: int) -> str:
        """The cookie value for ``user_id``."""
        return self._serializer.dumps({"uid": user_id})

    def loads(self, value: str) -> int | None:
        """The user id in a cookie value, or ``None`` if forged, damaged or too old."""
        try:
            data = self._serializer.loads(value, max_age=SESSION_MAX_AGE_S)
        except BadSignature:
            return None
        uid = data.get("uid") if isinstance(data, dict) else None
        return uid if isinstance(uid, int) else None


class RateLimiter:
    """At most ``limit`` attempts per key in any ``window_s`` seconds (times from the caller)."""

    def __init__(self, limit: int, window_s: float = 60.0) -> None:
        self.limit = limit
        self.window_s = window_s
        self._attempts: dict[str, deque[float]] = {}

    def retry_after(self, key: str, now: float) -> float | None:
        """Record an attempt now; ``None`` if allowed, else seconds to wait."""
        if len(self._attempts) > 10_000:  # forget addresses that have gone quiet
            old = now - self.window_s
            self._attempts = {k: v for k, v in self._attempts.items() if v and v[-1] > old}
        attempts = self._attempts.setdefault(key, deque())
        while attempts and attempts[0] <= now - self.window_s:
            attempts.popleft()
        if len(attempts) >= self.limit:
            return attempts[0] + self.window_s - now
        attempts.append(now)
        return None
