"""Queries for personal access tokens and bot accounts.

Like :mod:`meeple.store.queries`, each is a function of an open session (one
transaction), run with :meth:`meeple.store.database.Database.run`. A token is
stored as its hash only; revoking deletes its row, so the next lookup on any
server finds nothing.
"""

from __future__ import annotations

from sqlalchemy import delete, exists, select, update
from sqlalchemy.orm import Session

from meeple.store.models import AccessToken, DeletedAccount, Rating, TableSeat, User
from meeple.store.moderation import barred_from_leaderboards

LAST_USED_STEP_S = 60.0
"""``last_used_at`` is written at most once this often per token (not on every request)."""

_IN_CHUNK = 500
"""Hashes per query: well under every engine's limit on bound parameters."""


def add_token(
    session: Session,
    token_id: str,
    token_hash: str,
    user_id: int,
    label: str,
    scopes: list[str],
    now: float,
) -> AccessToken:
    """Store a new token (its hash) for ``user_id``."""
    token = AccessToken(
        id=token_id,
        token_hash=token_hash,
        user_id=user_id,
        label=label,
        scopes=" ".join(scopes),
        created_at=now,
        last_used_at=None,
    )
    session.add(token)
    session.flush()
    return token


def tokens_of(session: Session, user_id: int) -> list[AccessToken]:
    """The user's live tokens, newest first."""
    return list(
        session.scalars(
            select(AccessToken)
            .where(AccessToken.user_id == user_id)
            .order_by(AccessToken.created_at.desc(), AccessToken.id)
        )
    )


def revoke_token(session: Session, user_id: int, token_id: str) -> bool:
    """Delete the user's token ``token_id``; whether there was one."""
    found = session.scalars(
        select(AccessToken.id).where(AccessToken.id == token_id, AccessToken.user_id == user_id)
    ).first()
    if found is None:
        return False
    session.execute(delete(AccessToken).where(AccessToken.id == token_id))
    return True


def users_of_tokens(
    session: Session, token_hashes: list[str], now: float
) -> dict[str, tuple[AccessToken, User]]:
    """The live tokens with these hashes and their users, by hash; their ``last_used_at``
    is brought up to ``now`` where it is older than :data:`LAST_USED_STEP_S`."""
    found: dict[str, tuple[AccessToken, User]] = {}
    for start in range(0, len(token_hashes), _IN_CHUNK):
        chunk = token_hashes[start : start + _IN_CHUNK]
        rows = session.execute(
            select(AccessToken, User)
            .join(User, AccessToken.user_id == User.id)
            .where(AccessToken.token_hash.in_(chunk))
        )
        found.update({token.token_hash: (token, user) for token, user in rows})
    stale = [
        token.id
        for token, _user in found.values()
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_STEP_S
    ]
    if stale:
        session.execute(
            update(AccessToken).where(AccessToken.id.in_(stale)).values(last_used_at=now)
        )
        for token, _user in found.values():
            if token.id in stale:
                token.last_used_at = now
    return found


def live_tokens(session: Session, token_ids: list[str]) -> set[str]:
    """Which of these tokens are still live (not revoked)."""
    found: set[str] = set()
    for start in range(0, len(token_ids), _IN_CHUNK):
        chunk = token_ids[start : start + _IN_CHUNK]
        found.update(session.scalars(select(AccessToken.id).where(AccessToken.id.in_(chunk))))
    return found


def has_sat_down(session: Session, user_id: int) -> bool:
    """Whether the user holds or held a seat at any table (finished, running or waiting)."""
    return bool(session.scalar(select(exists().where(TableSeat.user_id == user_id))))


def make_bot_account(session: Session, user_id: int) -> User:
    """Mark the user a bot account (one way)."""
    user = session.get(User, user_id)
    if user is None:
        raise ValueError(f"there is no user {user_id}")
    user.bot = True
    session.flush()
    return user


def bot_flags(session: Session, user_ids: list[int]) -> set[int]:
    """Which of these users are bot accounts."""
    if not user_ids:
        return set()
    return set(session.scalars(select(User.id).where(User.id.in_(user_ids), User.bot.is_(True))))


def leaderboard_of(
    session: Session, game: str, limit: int, bots: bool
) -> list[tuple[Rating, str, bool]]:
    """The best-rated bot accounts (``bots``) or people of ``game`` by mu - 3 sigma, with
    their names and bot flags; no deleted or closed accounts, no marked cheaters."""
    rows = session.execute(
        select(Rating, User.name, User.bot)
        .join(User, User.id == Rating.user_id)
        .where(
            Rating.game == game,
            User.bot.is_(bots),
            User.id.not_in(select(DeletedAccount.user_id)),
            User.id.not_in(barred_from_leaderboards()),
        )
        .order_by((Rating.mu - 3 * Rating.sigma).desc(), Rating.games.desc())
        .limit(limit)
    )
    return [(rating, name, bot) for rating, name, bot in rows]
