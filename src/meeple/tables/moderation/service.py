"""Moderation and chat safety as the routes use them (docs/moderation.md): players report and
block; moderators read the queue and act (warn, mute, mark as cheater, close, dismiss),
every action written to the audit log in the same transaction as what it does.

A refusal is a coded :class:`~meeple.errors.TableError`; the routes check who may call.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session

from meeple.errors import Code
from meeple.ratelimit import RateLimits
from meeple.store import blocks as block_store
from meeple.store import moderation as store
from meeple.store.database import Database
from meeple.store.models import AccessToken, LoginSession, User
from meeple.store.moderation_models import Report
from meeple.store.sessions import shared_secret
from meeple.tables.clock import Clock
from meeple.tables.moderation.cheaters import void_rated_games
from meeple.tables.moderation.queue import log_of, queue_of
from meeple.tables.notices.notifications import NotificationKind, Notifier

REPORT_REASONS = ("abuse", "spam", "cheating", "name", "other")
"""Why a player reports another: insults or harassment, spam or advertising, cheating (an
engine, a second account), an offensive name, something else (said in the text)."""

ACTIONS = ("warn", "mute", "cheater", "close", "dismiss")
"""What a moderator does with a report (``dismiss``: nothing, the report closes)."""

QUEUE_SIZE = 50
"""Open reports a page of the queue shows, oldest first."""

WARNINGS_SHOWN_S = 30 * 86400.0
"""How far back a player's own page lists the warnings they were given."""


@dataclass(frozen=True)
class Done:
    """What a moderator's action did: its audit entry and the reports it closed."""

    entry: dict[str, Any]
    closed_reports: int


class Moderation:
    """Reports, blocks, the queue and the actions, on the store."""

    def __init__(self, db: Database, clock: Clock, notifier: Notifier, limits: RateLimits):
        """Reads (or makes, on a new database) the key that hashes sign-in addresses."""
        self.db, self.clock, self.notifier, self.limits = db, clock, notifier, limits
        self._address_key = db.call(shared_secret, "address_key", lambda: secrets.token_hex(32))

    def address_hash(self, address: str) -> str:
        """The keyed hash a session keeps of the address it signed in from: equal addresses
        hash alike, and without the key no address can be tested against it."""
        key = self._address_key.encode()
        return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()

    async def check_sign_in(self, user: User) -> None:
        """403 ``account_closed`` (with the moderator's ``reason``) for a closed account."""
        closure = await self.db.run(
            store.active_sanction, user.id, store.CLOSED_ACCOUNT, self.clock.now()
        )
        if closure is not None:
            words = f"a moderator closed this account: {closure.reason}"
            raise Code.ACCOUNT_CLOSED.error(words, reason=closure.reason)

    async def report(
        self,
        reporter: User,
        address: str,
        target_id: int,
        reason: str,
        text: str,
        where: tuple[str | None, int | None],
    ) -> tuple[Report, bool]:
        """Store a report of ``target_id`` (with the chat line ``where`` names, if it names
        one); it and whether it was a duplicate. Counted per account and per address."""
        if target_id == reporter.id:
            raise Code.INVALID.error("you cannot report yourself")
        await self.limits.hit("reports", f"user:{reporter.id}")
        await self.limits.hit("reports", f"address:{address}")
        now = self.clock.now()
        table_id, version = where
        values = {
            "reporter_id": reporter.id,
            "target_id": target_id,
            "reason": reason,
            "text": text.strip(),
            "table_id": table_id,
            "version": version,
            "day": int(now // store.DAY_S),
            "created_at": now,
        }
        return await self.db.run(store.insert_report, values)

    async def queue(self) -> list[dict[str, Any]]:
        """The open reports with their context."""
        return await self.db.run(queue_of, QUEUE_SIZE, self.clock.now())

    async def log(self, limit: int, before: int | None) -> list[dict[str, Any]]:
        """A page of the audit log, newest first."""
        return await self.db.run(log_of, limit, before)

    async def act(
        self,
        moderator: User,
        target: User,
        action: str,
        reason: str,
        minutes: int | None = None,
        report_id: int | None = None,
    ) -> Done:
        """Do ``action`` to ``target``, logged; a warning is also a notification. 403
        ``staff_target`` but to dismiss a report: nobody acts on an admin, only an admin on a
        moderator (an admin makes one a player first with ``meeple role``)."""
        outranked = target.role == "admin" or (
            target.role in store.STAFF and moderator.role != "admin"
        )
        if outranked and action != "dismiss":
            raise Code.STAFF_TARGET.error()
        if action == "dismiss" and report_id is None:
            raise Code.INVALID.error("report_id: dismiss names the report")
        if action == "mute" and minutes is None:
            raise Code.INVALID.error("minutes: a mute lasts some minutes")
        args = (moderator.id, target.id, action, reason.strip(), minutes, report_id)
        entry, closed = await self.db.run(_act, self.clock.now(), *args)
        if action == "warn":
            data = {"reason": reason.strip()}
            await self.notifier.notify(
                target.id, NotificationKind.WARNING, data, dedupe=f"warning:{entry['id']}"
            )
        return Done(entry, closed)

    async def standing(self, user: User) -> dict[str, Any]:
        """What the player needs to know of their own standing: a mute in force (until when,
        why), the warnings of the last 30 days, and whether they moderate."""
        now = self.clock.now()
        return await self.db.run(_standing, user.id, user.role in store.STAFF, now)

    async def block(self, blocker: User, blocked: User) -> None:
        """``blocker`` blocks ``blocked`` (within the block limit)."""
        if blocked.id == blocker.id:
            raise Code.INVALID.error("you cannot block yourself")
        await self.limits.hit("blocks", f"user:{blocker.id}")
        await self.db.run(block_store.block, blocker.id, blocked.id, self.clock.now())


def _act(
    session: Session,
    now: float,
    moderator_id: int,
    target_id: int,
    action: str,
    reason: str,
    minutes: int | None,
    report_id: int | None,
) -> tuple[dict[str, Any], int]:
    """The action in one transaction with its audit entry and the reports it closes."""
    details: dict[str, Any] = {}
    if report_id is not None:
        report = store.report_by_id(session, report_id)
        if report is None or report.target_id != target_id:
            raise Code.INVALID.error("report_id: no report of this player")
    if action == "mute" and minutes is not None:
        until = now + minutes * 60
        store.add_sanction(session, target_id, store.MUTE, reason, now, until, moderator_id)
        details = {"until": until, "minutes": minutes}
    elif action == "cheater":
        store.add_sanction(session, target_id, store.CHEATER, reason, now, None, moderator_id)
        tables, opponents = void_rated_games(session, target_id)
        details = {"tables": len(tables), "opponents": len(opponents)}
    elif action == "close":
        store.add_sanction(
            session, target_id, store.CLOSED_ACCOUNT, reason, now, None, moderator_id
        )
        session.execute(delete(LoginSession).where(LoginSession.user_id == target_id))
        session.execute(delete(AccessToken).where(AccessToken.user_id == target_id))
    closing = report_id if action == "dismiss" else None
    closed = store.close_reports(session, target_id, closing, moderator_id, action, now)
    details["reports"] = closed
    entry = store.add_audit(
        session, now, moderator_id, action, target_id, reason, details, report_id
    )
    return log_of(session, 1, entry.id + 1)[0], closed


def _standing(session: Session, user_id: int, staff: bool, now: float) -> dict[str, Any]:
    mute = store.active_sanction(session, user_id, store.MUTE, now)
    warnings = store.warnings_since(session, user_id, now - WARNINGS_SHOWN_S)
    return {
        "moderator": staff,
        "muted_until": mute.until if mute is not None else None,
        "mute_reason": mute.reason if mute is not None else None,
        "warnings": [{"at": w.at, "reason": w.reason} for w in warnings],
    }
