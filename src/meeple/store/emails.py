"""Queries for email: addresses, the outbox and one-time links.

Like :mod:`meeple.store.queries`, each is a function of an open session (one
transaction), run with :meth:`meeple.store.database.Database.run` or ``write``.
The outbox is claimed with a conditional UPDATE: of several servers that try
the same row at once, exactly one sees its UPDATE change a row.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from meeple.store.email_models import EmailAddress, OneTimeLink, OutboxEmail
from meeple.store.mailboxes import NotAnAddress, clean_address
from meeple.store.models import User
from meeple.store.queries import user_by_name

PENDING, SENT, FAILED = "pending", "sent", "failed"


def add_email(session: Session, values: dict[str, Any], now: float) -> bool:
    """Store an email for the outbox unless one with the same ``dedupe`` key exists;
    whether it was stored."""
    exists = session.scalars(
        select(OutboxEmail.id).where(OutboxEmail.dedupe == values["dedupe"])
    ).first()
    if exists is not None:
        return False
    session.add(OutboxEmail(**values, status=PENDING, attempts=0, next_try_at=now, created_at=now))
    session.flush()  # another server storing the same key meanwhile: IntegrityError
    return True


def due_emails(session: Session, now: float, stale_before: float, limit: int) -> list[int]:
    """The ids of pending emails due by ``now`` that nobody holds (or whose claim is older
    than ``stale_before``: its server died while sending)."""
    return list(
        session.scalars(
            select(OutboxEmail.id)
            .where(
                OutboxEmail.status == PENDING,
                OutboxEmail.next_try_at <= now,
                or_(OutboxEmail.claimed_at.is_(None), OutboxEmail.claimed_at < stale_before),
            )
            .order_by(OutboxEmail.next_try_at, OutboxEmail.id)
            .limit(limit)
        )
    )


def claim_email(
    session: Session, email_id: int, server: str, now: float, stale_before: float
) -> OutboxEmail | None:
    """Take the email for ``server`` if it is still pending and unclaimed (or its claim is
    stale); the email, or ``None`` when another server took it first."""
    result = session.execute(
        update(OutboxEmail)
        .where(
            OutboxEmail.id == email_id,
            OutboxEmail.status == PENDING,
            or_(OutboxEmail.claimed_at.is_(None), OutboxEmail.claimed_at < stale_before),
        )
        .values(claimed_by=server, claimed_at=now)
        .execution_options(synchronize_session=False)
    )
    if getattr(result, "rowcount", 0) != 1:
        return None
    email = session.get(OutboxEmail, email_id)
    if email is not None:
        session.expunge(email)
    return email


def mark_sent(session: Session, email_id: int, server: str, now: float) -> None:
    """The email went out: never send it again."""
    session.execute(
        update(OutboxEmail)
        .where(OutboxEmail.id == email_id, OutboxEmail.claimed_by == server)
        .values(status=SENT, sent_at=now, claimed_at=None, last_error=None)
    )


def mark_failed(
    session: Session, email_id: int, server: str, error: str, retry_at: float | None
) -> None:
    """Sending failed: release the claim and try again at ``retry_at`` (``None``: give up)."""
    email = session.get(OutboxEmail, email_id)
    if email is None or email.claimed_by != server:
        return
    email.attempts += 1
    email.last_error = error[:500]
    email.claimed_by = None
    email.claimed_at = None
    if retry_at is None:
        email.status = FAILED
    else:
        email.next_try_at = retry_at


def outbox_counts(session: Session) -> dict[str, int]:
    """How many emails are pending and how many failed for good, by status."""
    rows = session.execute(
        select(OutboxEmail.status, func.count())
        .where(OutboxEmail.status.in_([PENDING, FAILED]))
        .group_by(OutboxEmail.status)
    )
    return {str(status): int(count) for status, count in rows}


def outbox_rows(session: Session, user_id: int | None = None) -> list[OutboxEmail]:
    """The outbox's emails (one account's, when given), oldest first (for tests and admins)."""
    query = select(OutboxEmail).order_by(OutboxEmail.id)
    if user_id is not None:
        query = query.where(OutboxEmail.user_id == user_id)
    rows = list(session.scalars(query))
    for row in rows:
        session.expunge(row)
    return rows


def email_of(session: Session, user_id: int) -> tuple[str, float | None] | None:
    """The account's address and when it was verified (``None``: not yet), if it has one."""
    row = session.get(EmailAddress, user_id)
    return None if row is None else (row.address, row.verified_at)


def verified_email(session: Session, user_id: int) -> str | None:
    """The account's verified address, if any (nothing else is mailed but its verification)."""
    row = session.get(EmailAddress, user_id)
    return row.address if row is not None and row.verified_at is not None else None


def set_email(session: Session, user_id: int, address: str, now: float) -> None:
    """Give the account this (unverified) address, replacing any earlier one; every link
    not yet used (verify, reset) is void: each was sent for an earlier address."""
    row = session.get(EmailAddress, user_id)
    if row is None:
        session.add(EmailAddress(user_id=user_id, address=address, created_at=now))
    else:
        row.address, row.verified_at, row.created_at = address, None, now
    void_links(session, user_id, "verify")
    void_links(session, user_id, "reset")


def void_links(session: Session, user_id: int, purpose: str) -> None:
    """Make the account's unused ``purpose`` links void (a newer one is sent, or what they
    were sent for changed: the address, the password)."""
    session.execute(
        delete(OneTimeLink).where(
            OneTimeLink.user_id == user_id,
            OneTimeLink.purpose == purpose,
            OneTimeLink.used_at.is_(None),
        )
    )


def remove_email(session: Session, user_id: int) -> bool:
    """Forget the account's address and its pending links; whether it had one."""
    row = session.get(EmailAddress, user_id)
    session.execute(delete(OneTimeLink).where(OneTimeLink.user_id == user_id))
    if row is None:
        return False
    session.delete(row)
    return True


def reset_targets(session: Session, name_or_email: str) -> list[tuple[int, str, str]]:
    """``(user_id, name, verified address)`` of each account a reset request names: the
    account of that name, or every account whose verified address that is; guests and
    accounts without a password left out."""
    users: list[tuple[User, str]] = []
    if "@" in name_or_email:
        try:
            address = clean_address(name_or_email)
        except NotAnAddress:
            return []
        for user_id in users_with_verified(session, address):
            user = session.get(User, user_id)
            if user is not None:
                users.append((user, address))
    else:
        user = user_by_name(session, name_or_email)
        found = None if user is None else verified_email(session, user.id)
        if user is not None and found is not None:
            users.append((user, found))
    return [
        (user.id, user.name, address)
        for user, address in users
        if not user.guest and user.password_hash is not None
    ]


def users_with_verified(session: Session, address: str) -> list[int]:
    """The accounts whose verified address is ``address`` (compared as stored, lower case)."""
    return list(
        session.scalars(
            select(EmailAddress.user_id).where(
                EmailAddress.address == address, EmailAddress.verified_at.is_not(None)
            )
        )
    )


def add_link(
    session: Session,
    token_hash: str,
    user_id: int,
    purpose: str,
    address: str | None,
    now: float,
    expires_at: float,
) -> None:
    """Store a one-time link (its hash only); the account's earlier unused links of the
    same purpose are void (only the newest works)."""
    void_links(session, user_id, purpose)
    session.add(
        OneTimeLink(
            token_hash=token_hash,
            user_id=user_id,
            purpose=purpose,
            address=address,
            created_at=now,
            expires_at=expires_at,
        )
    )


def _still_bound(session: Session, link: OneTimeLink) -> bool:
    """Whether what a reset link was sent for still holds: the account's verified address
    is the one it went to (a password change deletes the account's reset links)."""
    return link.purpose != "reset" or verified_email(session, link.user_id) == link.address


def use_link(session: Session, token_hash: str, purpose: str, now: float) -> tuple[str, Any]:
    """Spend the link: ``("ok", (user_id, address))``, else ``("unknown" | "expired" |
    "used", None)`` (a used link still names its account and address). The conditional
    UPDATE makes two tries at once spend it once."""
    link = session.get(OneTimeLink, token_hash)
    if link is None or link.purpose != purpose or not _still_bound(session, link):
        return "unknown", None
    if link.used_at is not None:
        return "used", (link.user_id, link.address)
    if link.expires_at <= now:
        return "expired", None
    result = session.execute(
        update(OneTimeLink)
        .where(OneTimeLink.token_hash == token_hash, OneTimeLink.used_at.is_(None))
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    if getattr(result, "rowcount", 0) != 1:
        return "used", None
    return "ok", (link.user_id, link.address)


def peek_link(session: Session, token_hash: str, purpose: str, now: float) -> int | None:
    """The account of a link that would still work now (without spending it), else ``None``."""
    link = session.get(OneTimeLink, token_hash)
    if link is None or link.purpose != purpose or link.used_at is not None:
        return None
    if not _still_bound(session, link):
        return None
    return link.user_id if link.expires_at > now else None


def verify_address(session: Session, user_id: int, address: str | None, now: float) -> bool:
    """Mark the account's address verified if it is still the one the link was sent to."""
    row = session.get(EmailAddress, user_id)
    if row is None or row.address != address:
        return False
    if row.verified_at is None:
        row.verified_at = now
    return True
