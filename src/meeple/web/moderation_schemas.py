"""Request and response bodies of the chat safety and moderation routes (docs/moderation.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from meeple.web.schemas import Input

ReportReason = Literal["abuse", "spam", "cheating", "name", "other"]
"""Why a player reports another (the service's ``REPORT_REASONS``)."""

ModAction = Literal["warn", "mute", "cheater", "close", "dismiss"]
"""What a moderator does (the service's ``ACTIONS``)."""

TEXT_MAX = 500
"""The longest free text of a report, and of a moderator's reason."""

MUTE_MAX_MINUTES = 365 * 24 * 60
"""The longest mute: a year."""

ID_MAX = 2**31 - 1


class ReportIn(Input):
    """A report of a player (``name``) or of one of their chat lines (``table_id`` and
    ``version``), with a reason."""

    name: str | None = Field(
        None, max_length=64, description="the player reported; not needed for a chat line"
    )
    table_id: str | None = Field(
        None, max_length=24, description="the table of the chat line, or the report was made at"
    )
    version: int | None = Field(
        None, ge=1, le=ID_MAX, description="the reported chat line's event version"
    )
    invite: str | None = Field(
        None, max_length=64, description="a private table's invite token, if you hold no seat"
    )
    reason: ReportReason
    text: str = Field("", max_length=TEXT_MAX, description="what happened, in your words")


class ReportOut(BaseModel):
    """The report stored (201), or the one made today already of the same player (200)."""

    id: int
    duplicate: bool = Field(description="you reported this player today already: that report")


class BlockIn(Input):
    """The player to block."""

    name: str = Field(max_length=64)


class BlockOut(BaseModel):
    """A player you blocked, and since when."""

    name: str
    since: float


class WarningOut(BaseModel):
    """A warning a moderator gave you."""

    at: float
    reason: str


class MyStandingOut(BaseModel):
    """What you need to know of your own standing."""

    moderator: bool = Field(description="you moderate: the queue is at /mod")
    muted_until: float | None = Field(description="a mute in force ends then (null: none)")
    mute_reason: str | None
    warnings: list[WarningOut] = Field(description="the warnings of the last 30 days, newest first")


class ChatLineOut(BaseModel):
    """A chat line around a reported one."""

    version: int
    name: str
    text: str = Field(description="as written: show it as text, never as markup or a link")
    at: float
    reported: bool


class SharedGameOut(BaseModel):
    """A table the reporter and the reported player both sat at."""

    id: str
    game: str
    status: str
    rated: bool
    created_at: float


class SharedAddressOut(BaseModel):
    """Another account with an open session from an address the reported one signed in from."""

    name: str
    guest: bool
    created_at: float


class TargetStandingOut(BaseModel):
    """The reported account now."""

    muted_until: float | None
    cheater: bool
    closed: bool
    guest: bool
    reports: int = Field(description="reports of this account, open or closed")


class AuditEntryOut(BaseModel):
    """One action in the audit log: who did what to whom, when, why."""

    id: int
    at: float
    moderator: str | None = Field(description="null: the command line (meeple role, reopen)")
    action: str = Field(description="warn, mute, cheater, close, dismiss, role or reopen")
    target: str
    report_id: int | None
    reason: str
    details: dict[str, Any] = Field(
        description="a mute's until and minutes, a role and the one before, a cheater's tables"
        " made unrated and opponents restored, the reports closed"
    )


class QueuedReportOut(BaseModel):
    """An open report with what a moderator reads beside it."""

    id: int
    reporter: str
    target: str
    reason: ReportReason
    text: str
    created_at: float
    table_id: str | None
    version: int | None
    chat: list[ChatLineOut] = Field(description="the chat around a reported line, in order")
    games: list[SharedGameOut] = Field(description="the two accounts' tables together lately")
    shared_address: list[SharedAddressOut]
    standing: TargetStandingOut
    history: list[AuditEntryOut] = Field(description="the latest actions on the reported player")


class ActionIn(Input):
    """A moderator's action on a player, with the reason every entry of the log keeps."""

    target: str = Field(max_length=64, description="the player's name")
    action: ModAction
    reason: str = Field(min_length=1, max_length=TEXT_MAX)
    minutes: int | None = Field(None, ge=1, le=MUTE_MAX_MINUTES, description="a mute's length")
    report_id: int | None = Field(
        None, ge=1, le=ID_MAX, description="the report acted on (needed to dismiss one)"
    )


class ActionOut(BaseModel):
    """What the action did: its entry in the audit log, and how many reports it closed."""

    entry: AuditEntryOut
    closed_reports: int


class AuditLogOut(BaseModel):
    """A page of the audit log, newest first."""

    entries: list[AuditEntryOut]
    next_before: int | None = Field(
        None, description="pass as ?before= for the next (older) page; null: no more"
    )
