"""The queries behind challenges between accounts (docs/bot-api.md, Challenges).

Each is a function of an open session, run with Database.run like store.queries.
A challenge leaves ``open`` through :func:`close_challenge` only, a conditional
update: of two servers accepting (or one accepting while the other cancels)
the same challenge at once, exactly one changes it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from meeple.store.models import Challenge, DeletedAccount, User
from meeple.store.names import name_key

OPEN = "open"
"""A challenge waiting for an answer (lapsed once past its ``expires_at``)."""
LAPSED = "lapsed"
"""A challenge nobody answered in time (an open one past its ``expires_at`` reads so too)."""

ChallengeRow = tuple[Challenge, User, User]
"""A challenge with the accounts it is from and to."""


def insert_challenge(session: Session, values: dict[str, Any]) -> None:
    """Store a new challenge (``values``: its columns)."""
    session.add(Challenge(**values))


SENT = "sent"
"""What :func:`insert_challenge_within` answers when the sender's open challenges are full."""
RECEIVED = "received"
"""What :func:`insert_challenge_within` answers when the recipient's open challenges are full."""

LOCK_SPACE = 0x6D656570 << 32
"""PostgreSQL advisory lock keys of the challenge caps: this plus an account id (a space of
keys no other lock of the server uses)."""


def open_count(session: Session, user_id: int, now: float, *, sent: bool) -> int:
    """How many challenges ``user_id`` has sent (``sent``) or been sent, still open at ``now``."""
    party = Challenge.from_id if sent else Challenge.to_id
    count = session.scalar(
        select(func.count())
        .select_from(Challenge)
        .where(party == user_id, Challenge.status == OPEN, Challenge.expires_at > now)
    )
    return int(count or 0)


def insert_challenge_within(
    session: Session, values: dict[str, Any], max_sent: int, max_received: int
) -> str | None:
    """Store a new challenge (``values``: its columns) unless its sender already has
    ``max_sent`` open or its recipient ``max_received``: ``None`` when stored, else which is
    full (:data:`SENT`, :data:`RECEIVED`).

    The counts and the insert are one step on every server: on PostgreSQL the transaction
    first takes an advisory lock per account (in id order, so two never wait on each other),
    and a server counting for the same sender or recipient waits until this one commits; on
    SQLite (one server) the queries run one at a time.
    """
    sender, receiver, now = values["from_id"], values["to_id"], values["created_at"]
    if session.get_bind().dialect.name == "postgresql":
        for user_id in sorted({sender, receiver}):
            session.execute(select(func.pg_advisory_xact_lock(LOCK_SPACE + user_id)))
    if open_count(session, sender, now, sent=True) >= max_sent:
        return SENT
    if open_count(session, receiver, now, sent=False) >= max_received:
        return RECEIVED
    session.add(Challenge(**values))
    return None


def account_by_name(session: Session, name: str) -> User | None:
    """The account called ``name`` (in any case) that may be challenged: not a deleted one."""
    return session.scalars(
        select(User).where(
            User.name_key == name_key(name), User.id.not_in(select(DeletedAccount.user_id))
        )
    ).first()


def _with_users() -> Any:
    sender, receiver = aliased(User), aliased(User)
    query = (
        select(Challenge, sender, receiver)
        .join(sender, sender.id == Challenge.from_id)
        .join(receiver, receiver.id == Challenge.to_id)
    )
    return query


def _open_with_users(user_id: int, now: float) -> Any:
    """The query of the challenges to or from ``user_id`` still open at ``now``, with their
    two accounts (unordered)."""
    return _with_users().where(
        or_(Challenge.from_id == user_id, Challenge.to_id == user_id),
        Challenge.status == OPEN,
        Challenge.expires_at > now,
    )


def challenge_by_id(session: Session, challenge_id: str) -> ChallengeRow | None:
    """The challenge with its two accounts, if it exists."""
    row = session.execute(_with_users().where(Challenge.id == challenge_id)).first()
    return None if row is None else (row[0], row[1], row[2])


def open_challenges_of(session: Session, user_id: int, now: float) -> list[ChallengeRow]:
    """The challenges to or from ``user_id`` still open at ``now``, oldest first."""
    rows = session.execute(
        _open_with_users(user_id, now).order_by(Challenge.created_at, Challenge.id)
    )
    return [(row[0], row[1], row[2]) for row in rows]


def newest_open_challenges_of(
    session: Session, user_id: int, now: float, limit: int
) -> list[ChallengeRow]:
    """At most ``limit`` challenges to or from ``user_id`` still open at ``now``, newest first
    (what an event stream replays: however many strangers sent, it reads a bounded page)."""
    if limit <= 0:
        return []
    rows = session.execute(
        _open_with_users(user_id, now)
        .order_by(Challenge.created_at.desc(), Challenge.id.desc())
        .limit(limit)
    )
    return [(row[0], row[1], row[2]) for row in rows]


def close_challenge(
    session: Session,
    challenge_id: str,
    status: str,
    now: float,
    reason: str | None = None,
    table_id: str | None = None,
) -> bool:
    """Move an open, unlapsed challenge to ``status``; whether this call did it."""
    result = session.execute(
        update(Challenge)
        .where(
            and_(
                Challenge.id == challenge_id,
                Challenge.status == OPEN,
                Challenge.expires_at > now,
            )
        )
        .values(status=status, reason=reason, table_id=table_id)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def lapse_challenge(session: Session, challenge_id: str, now: float) -> bool:
    """Mark an open challenge past its time lapsed; whether this call did it (once, whichever
    server asks)."""
    result = session.execute(
        update(Challenge)
        .where(
            Challenge.id == challenge_id,
            Challenge.status == OPEN,
            Challenge.expires_at <= now,
        )
        .values(status=LAPSED)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def reopen_challenge(session: Session, challenge_id: str, table_id: str) -> None:
    """Open again a challenge whose accept failed to open its table ``table_id``."""
    session.execute(
        update(Challenge)
        .where(Challenge.id == challenge_id, Challenge.table_id == table_id)
        .values(status=OPEN, table_id=None)
    )
