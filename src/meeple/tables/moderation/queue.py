"""What a moderator reads: the open reports, each with its context, and the audit log, as
plain JSON-able dicts (the shapes of :mod:`meeple.web.moderation_schemas`).

Each is a function of an open session, so a page of the queue is read in one transaction.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from meeple.store import moderation as store
from meeple.store.models import User
from meeple.store.moderation_models import AuditEntry, Report

CONTEXT_LINES = 5
"""Chat lines shown before and after a reported line."""

GAMES_SHOWN = 10
"""Recent tables of the reporter and the reported account shown together."""

SHARED_SHOWN = 20
"""Accounts sharing an address with the reported one shown at most."""

HISTORY_SHOWN = 5
"""Earlier actions on the reported account shown."""


def queue_of(session: Session, limit: int, now: float) -> list[dict[str, Any]]:
    """The open reports, oldest first, each with its context."""
    return [
        report_with_context(session, report, now) for report in store.open_reports(session, limit)
    ]


def report_with_context(session: Session, report: Report, now: float) -> dict[str, Any]:
    """One report: who reported whom and why, the chat around a reported line, the tables
    the two accounts shared lately, the accounts sharing an address with the reported one,
    and the reported account's standing and earlier actions on it."""
    names = store.names_of(session, [report.reporter_id, report.target_id])
    target = session.get(User, report.target_id)
    assert target is not None  # a report's target is a user row, never deleted
    chat: list[dict[str, Any]] = []
    if report.table_id is not None and report.version is not None:
        lines = store.chat_around(session, report.table_id, report.version, CONTEXT_LINES)
        chat = [
            {
                "version": line.version,
                "name": str(line.data.get("name", "")),
                "text": str(line.data.get("text", "")),
                "at": line.at,
                "reported": line.version == report.version,
            }
            for line in lines
        ]
    games = store.games_between(session, report.reporter_id, report.target_id, GAMES_SHOWN)
    shared = store.sharing_address(session, report.target_id, SHARED_SHOWN)
    history = store.audit_log(session, HISTORY_SHOWN, target_id=report.target_id)
    mute = store.active_sanction(session, report.target_id, store.MUTE, now)
    return {
        "id": report.id,
        "reporter": names.get(report.reporter_id, ""),
        "target": names.get(report.target_id, ""),
        "reason": report.reason,
        "text": report.text,
        "created_at": report.created_at,
        "table_id": report.table_id,
        "version": report.version,
        "chat": chat,
        "games": [
            {
                "id": table.id,
                "game": table.game,
                "status": table.status,
                "rated": table.rated,
                "created_at": table.created_at,
            }
            for table in games
        ],
        "shared_address": [
            {"name": user.name, "guest": user.guest, "created_at": user.created_at}
            for user in shared
        ],
        "standing": {
            "muted_until": mute.until if mute is not None else None,
            "cheater": bool(store.cheaters_among(session, [report.target_id])),
            "closed": store.active_sanction(session, report.target_id, store.CLOSED_ACCOUNT, now)
            is not None,
            "guest": target.guest,
            "reports": store.reports_against(session, report.target_id),
        },
        "history": entries_shown(session, history),
    }


def log_of(session: Session, limit: int, before: int | None) -> list[dict[str, Any]]:
    """A page of the audit log, newest first."""
    return entries_shown(session, store.audit_log(session, limit, before))


def entries_shown(session: Session, entries: list[AuditEntry]) -> list[dict[str, Any]]:
    """Audit entries with their accounts' names (the command line's: ``null``)."""
    ids = [e.target_id for e in entries] + [e.moderator_id for e in entries if e.moderator_id]
    names = store.names_of(session, ids)
    return [
        {
            "id": entry.id,
            "at": entry.at,
            "moderator": names.get(entry.moderator_id) if entry.moderator_id else None,
            "action": entry.action,
            "target": names.get(entry.target_id, ""),
            "report_id": entry.report_id,
            "reason": entry.reason,
            "details": entry.details,
        }
        for entry in entries
    ]
