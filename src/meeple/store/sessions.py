"""Queries for sign-in sessions, password changes and the secrets servers share.

Like :mod:`meeple.store.queries`, each is a function of an open session (one
transaction), run with :meth:`meeple.store.database.Database.run`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import CursorResult, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.store.email_models import OneTimeLink
from meeple.store.models import LoginSession, ServerSecret, User


def open_session(
    session: Session,
    user_id: int,
    token_hash: str,
    now: float,
    expires_at: float,
    address_hash: str | None = None,
) -> None:
    """Record a new sign-in session for ``user_id`` (and forget the user's expired ones), with
    the keyed hash of the address it signed in from (docs/moderation.md, Addresses)."""
    session.execute(
        delete(LoginSession).where(LoginSession.user_id == user_id, LoginSession.expires_at <= now)
    )
    session.add(
        LoginSession(
            token_hash=token_hash,
            user_id=user_id,
            created_at=now,
            expires_at=expires_at,
            address_hash=address_hash,
        )
    )


def user_of_session(session: Session, token_hash: str, now: float) -> User | None:
    """The user of a session that is still open and not expired, if any."""
    return session.scalars(
        select(User)
        .join(LoginSession, LoginSession.user_id == User.id)
        .where(LoginSession.token_hash == token_hash, LoginSession.expires_at > now)
    ).first()


def open_sessions(session: Session, token_hashes: list[str], now: float) -> set[str]:
    """Which of these sessions are still open and not expired (any number of them)."""
    found: set[str] = set()
    for start in range(0, len(token_hashes), _IN_CHUNK):
        chunk = token_hashes[start : start + _IN_CHUNK]
        found.update(
            session.scalars(
                select(LoginSession.token_hash).where(
                    LoginSession.token_hash.in_(chunk), LoginSession.expires_at > now
                )
            )
        )
    return found


def users_of_sessions(session: Session, token_hashes: list[str], now: float) -> dict[str, User]:
    """The users of these sessions that are still open and not expired, by token hash."""
    found: dict[str, User] = {}
    for start in range(0, len(token_hashes), _IN_CHUNK):
        chunk = token_hashes[start : start + _IN_CHUNK]
        rows = session.execute(
            select(LoginSession.token_hash, User)
            .join(User, LoginSession.user_id == User.id)
            .where(LoginSession.token_hash.in_(chunk), LoginSession.expires_at > now)
        )
        found.update({token_hash: user for token_hash, user in rows})
    return found


_IN_CHUNK = 500
"""Hashes per query: well under every engine's limit on bound parameters."""


def end_session(session: Session, token_hash: str) -> None:
    """End one session (signing out)."""
    session.execute(delete(LoginSession).where(LoginSession.token_hash == token_hash))


def end_all_sessions(session: Session, user_id: int) -> int:
    """End every session of the user, this one too (signing out everywhere); how many ended."""
    result: CursorResult[Any] = session.execute(  # type: ignore[assignment]
        delete(LoginSession).where(LoginSession.user_id == user_id)
    )
    return result.rowcount or 0


def set_password(session: Session, user_id: int, password_hash: str, keep: str | None) -> int:
    """Store a new password hash and end every session of the user but ``keep``; the
    account's unused password-reset links are void (each was sent for the old password).

    Returns how many sessions were ended.
    """
    user = session.get(User, user_id)
    if user is None:
        raise ValueError(f"there is no user {user_id}")
    user.password_hash = password_hash
    session.execute(
        delete(OneTimeLink).where(
            OneTimeLink.user_id == user_id,
            OneTimeLink.purpose == "reset",
            OneTimeLink.used_at.is_(None),
        )
    )
    ended = delete(LoginSession).where(LoginSession.user_id == user_id)
    if keep is not None:
        ended = ended.where(LoginSession.token_hash != keep)
    result: CursorResult[Any] = session.execute(ended)  # type: ignore[assignment]
    return result.rowcount or 0


def rehash_password(session: Session, user_id: int, old_hash: str, new_hash: str) -> None:
    """Replace a password hash made with older parameters (unless it changed meanwhile)."""
    user = session.get(User, user_id)
    if user is not None and user.password_hash == old_hash:
        user.password_hash = new_hash


def shared_secret(session: Session, name: str, make: Callable[[], str]) -> str:
    """The secret ``name`` every server of this database uses, created by the first to ask.

    Two servers starting at once both try to insert; the second insert fails
    on the primary key and that server reads the first one's value.
    """
    found = session.get(ServerSecret, name)
    if found is not None:
        return found.value
    value = make()
    try:
        with session.begin_nested():
            session.add(ServerSecret(name=name, value=value))
    except IntegrityError:
        found = session.scalars(select(ServerSecret).where(ServerSecret.name == name)).one()
        return found.value
    return value
