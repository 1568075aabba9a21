"""Queries of moderation (docs/moderation.md): roles, reports, sanctions, the audit log, and
the context a moderator reads beside a report.

Like :mod:`meeple.store.queries`, each is a function of an open session (one transaction),
run with :meth:`meeple.store.database.Database.run`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from meeple.store.models import GameTable, LoginSession, TableEvent, TableSeat, User
from meeple.store.moderation_models import AuditEntry, Report, Sanction
from meeple.store.names import name_key

ROLES = ("player", "moderator", "admin")
"""An account's roles: moderators and admins read the queue and act on reports."""

STAFF = frozenset({"moderator", "admin"})

OPEN, CLOSED = "open", "closed"
"""A report's statuses."""

MUTE, CHEATER, CLOSED_ACCOUNT = "mute", "cheater", "closed"
"""The sanctions' kinds."""

DAY_S = 86400


def is_staff(user: User | None) -> bool:
    """Whether ``user`` is a moderator or an admin."""
    return user is not None and user.role in STAFF


def add_audit(
    session: Session,
    at: float,
    moderator_id: int | None,
    action: str,
    target_id: int,
    reason: str,
    details: dict[str, Any],
    report_id: int | None = None,
) -> AuditEntry:
    """Write one entry of the audit log (every action of a moderator, or of the command line:
    ``moderator_id`` ``None``)."""
    entry = AuditEntry(
        at=at,
        moderator_id=moderator_id,
        action=action,
        target_id=target_id,
        report_id=report_id,
        reason=reason,
        details=details,
    )
    session.add(entry)
    session.flush()
    return entry


def set_role(session: Session, name: str, role: str, reason: str, at: float) -> tuple[User, str]:
    """Give the account named ``name`` the role ``role`` (from the command line, logged); the
    account and its role before. ``ValueError`` for no such account or role."""
    if role not in ROLES:
        raise ValueError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
    user = _named(session, name)
    was = user.role
    user.role = role
    add_audit(session, at, None, "role", user.id, reason, {"role": role, "was": was})
    return user, was


def reopen(session: Session, name: str, reason: str, at: float) -> User:
    """Lift the closure of the account named ``name`` (from the command line, logged): it
    may sign in again. ``ValueError`` for no such account, or one not closed."""
    user = _named(session, name)
    if not lift(session, user.id, CLOSED_ACCOUNT, at):
        raise ValueError(f"the account {user.name!r} is not closed")
    add_audit(session, at, None, "reopen", user.id, reason, {})
    return user


def _named(session: Session, name: str) -> User:
    user = session.scalars(select(User).where(User.name_key == name_key(name))).first()
    if user is None:
        raise ValueError(f"there is no account named {name!r}")
    return user


def insert_report(session: Session, values: dict[str, Any]) -> tuple[Report, bool]:
    """Store a report (``values``: its columns but ``id``, ``status`` and the closing ones);
    it, and whether it was already there: one report per reporter, target and day."""
    found = session.scalars(_same_day(values)).first()
    if found is not None:
        return found, True
    row = Report(**values, status=OPEN)
    try:
        # A savepoint: a twin stored meanwhile (a double click, another server) fails alone.
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:
        return session.scalars(_same_day(values)).one(), True
    return row, False


def _same_day(values: dict[str, Any]) -> Select[Report]:
    return select(Report).where(
        Report.reporter_id == values["reporter_id"],
        Report.target_id == values["target_id"],
        Report.day == values["day"],
    )


def open_reports(session: Session, limit: int) -> list[Report]:
    """The reports no moderator has closed, oldest first."""
    query = select(Report).where(Report.status == OPEN).order_by(Report.id).limit(limit)
    return list(session.scalars(query))


def report_by_id(session: Session, report_id: int) -> Report | None:
    """One report."""
    return session.get(Report, report_id)


def close_reports(
    session: Session,
    target_id: int,
    report_id: int | None,
    by: int,
    outcome: str,
    at: float,
) -> int:
    """Close the report ``report_id`` (a dismissal), or every open report of ``target_id``
    (an action on the account answers them all); how many were closed."""
    query = update(Report).where(Report.status == OPEN, Report.target_id == target_id)
    if report_id is not None:
        query = query.where(Report.id == report_id)
    result = session.execute(
        query.values(status=CLOSED, closed_at=at, closed_by=by, outcome=outcome)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def add_sanction(
    session: Session,
    user_id: int,
    kind: str,
    reason: str,
    at: float,
    until: float | None,
    by: int | None,
) -> Sanction:
    """Put a sanction on the account."""
    row = Sanction(user_id=user_id, kind=kind, reason=reason, created_at=at, until=until, by_id=by)
    session.add(row)
    session.flush()
    return row


def _in_force(kind: str, now: float) -> Select[Sanction]:
    return select(Sanction).where(
        Sanction.kind == kind,
        Sanction.lifted_at.is_(None),
        or_(Sanction.until.is_(None), Sanction.until > now),
    )


def active_sanction(session: Session, user_id: int, kind: str, now: float) -> Sanction | None:
    """The account's sanction of ``kind`` in force now, the longest first, if any."""
    query = _in_force(kind, now).where(Sanction.user_id == user_id)
    rows = list(session.scalars(query))
    return max(rows, key=lambda r: float("inf") if r.until is None else r.until, default=None)


def cheaters_among(session: Session, user_ids: Sequence[int]) -> set[int]:
    """Which of these accounts are marked as cheaters."""
    if not user_ids:
        return set()
    query = _in_force(CHEATER, 0.0).where(Sanction.user_id.in_(list(user_ids)))
    return {row.user_id for row in session.scalars(query)}


def barred_from_leaderboards() -> Select[int]:
    """The accounts the leaderboards leave out: marked cheaters, and closed accounts."""
    return select(Sanction.user_id).where(
        Sanction.kind.in_((CHEATER, CLOSED_ACCOUNT)), Sanction.lifted_at.is_(None)
    )


def lift(session: Session, user_id: int, kind: str, at: float) -> int:
    """Lift the account's sanctions of ``kind`` in force; how many were lifted."""
    rows = list(session.scalars(_in_force(kind, at).where(Sanction.user_id == user_id)))
    for row in rows:
        row.lifted_at = at
    return len(rows)


def chat_line(session: Session, table_id: str, version: int) -> TableEvent | None:
    """The chat line at ``(table_id, version)``, if that event is one."""
    event = session.get(TableEvent, (table_id, version))
    return event if event is not None and event.kind == "chat" else None


def chat_around(session: Session, table_id: str, version: int, count: int) -> list[TableEvent]:
    """The chat lines of a table around ``version``: up to ``count`` before it, the line
    itself and up to ``count`` after, in order."""
    chat = select(TableEvent).where(TableEvent.table_id == table_id, TableEvent.kind == "chat")
    before = session.scalars(
        chat.where(TableEvent.version <= version)
        .order_by(TableEvent.version.desc())
        .limit(count + 1)
    )
    after = session.scalars(
        chat.where(TableEvent.version > version).order_by(TableEvent.version).limit(count)
    )
    return [*reversed(list(before)), *after]


def games_between(session: Session, one: int, other: int, limit: int) -> list[GameTable]:
    """The tables both accounts sat at, newest first."""
    theirs = aliased(TableSeat)
    query = (
        select(GameTable)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .join(theirs, theirs.table_id == GameTable.id)
        .where(TableSeat.user_id == one, theirs.user_id == other)
        .distinct()
        .order_by(GameTable.created_at.desc())
        .limit(limit)
    )
    return list(session.scalars(query))


def sharing_address(session: Session, user_id: int, limit: int) -> list[User]:
    """Other accounts with an open session signed in from an address one of this account's
    open sessions signed in from (by the addresses' keyed hashes)."""
    hashes = select(LoginSession.address_hash).where(
        LoginSession.user_id == user_id, LoginSession.address_hash.is_not(None)
    )
    query = (
        select(User)
        .join(LoginSession, LoginSession.user_id == User.id)
        .where(LoginSession.address_hash.in_(hashes), User.id != user_id)
        .distinct()
        .order_by(User.id)
        .limit(limit)
    )
    return list(session.scalars(query))


def names_of(session: Session, user_ids: Sequence[int]) -> dict[int, str]:
    """The names of these accounts, by id."""
    if not user_ids:
        return {}
    rows = session.execute(select(User.id, User.name).where(User.id.in_(set(user_ids))))
    return {user_id: name for user_id, name in rows}


def audit_log(
    session: Session, limit: int, before: int | None = None, target_id: int | None = None
) -> list[AuditEntry]:
    """The audit log, newest first: ``limit`` entries below id ``before``, of one target's if
    ``target_id`` is given."""
    query = select(AuditEntry)
    if before is not None:
        query = query.where(AuditEntry.id < before)
    if target_id is not None:
        query = query.where(AuditEntry.target_id == target_id)
    return list(session.scalars(query.order_by(AuditEntry.id.desc()).limit(limit)))


def warnings_since(session: Session, user_id: int, since: float) -> list[AuditEntry]:
    """The warnings the account was given since ``since``, newest first."""
    query = select(AuditEntry).where(
        AuditEntry.target_id == user_id, AuditEntry.action == "warn", AuditEntry.at >= since
    )
    return list(session.scalars(query.order_by(AuditEntry.id.desc())))


def reports_against(session: Session, user_id: int) -> int:
    """How many reports, open or closed, name the account."""
    query = select(func.count()).select_from(Report).where(Report.target_id == user_id)
    return int(session.scalar(query) or 0)
