"""moderation and chat safety: roles, reports, sanctions, the audit log, blocks

An account's role (``player`` by default, ``moderator``, ``admin``); a session's sign-in
address as a keyed hash (for "accounts sharing an address", docs/moderation.md); players'
reports; the sanctions moderators give; every moderator's action; players' blocks.
Expand-only: new tables, and new columns an older server never reads (``role`` has a
server default, ``address_hash`` may be empty), so it is safe beside one still running.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: the columns by a plain ``ADD COLUMN`` (SQLite adds a column with
    a constant default in place; copying ``users`` would trip the keys that point at it)."""
    op.add_column(
        "users", sa.Column("role", sa.String(16), nullable=False, server_default="player")
    )
    op.add_column("login_sessions", sa.Column("address_hash", sa.String(64), nullable=True))
    op.create_index("ix_login_sessions_address_hash", "login_sessions", ["address_hash"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("target_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.Column("closed_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.UniqueConstraint(
            "reporter_id", "target_id", "day", name="uq_reports_reporter_target_day"
        ),
    )
    op.create_index("ix_reports_status_id", "reports", ["status", "id"])
    op.create_index("ix_reports_target_id", "reports", ["target_id"])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("until", sa.Float(), nullable=True),
        sa.Column("lifted_at", sa.Float(), nullable=True),
        sa.Column("by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
    )
    op.create_index("ix_sanctions_user_kind", "sanctions", ["user_id", "kind"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("moderator_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("target_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
    )
    op.create_index("ix_moderation_log_target_id", "moderation_log", ["target_id"])
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("blocks")
    op.drop_index("ix_moderation_log_target_id", table_name="moderation_log")
    op.drop_table("moderation_log")
    op.drop_index("ix_sanctions_user_kind", table_name="sanctions")
    op.drop_table("sanctions")
    op.drop_index("ix_reports_target_id", table_name="reports")
    op.drop_index("ix_reports_status_id", table_name="reports")
    op.drop_table("reports")
    op.drop_index("ix_login_sessions_address_hash", table_name="login_sessions")
    with op.batch_alter_table("login_sessions") as batch:
        batch.drop_column("address_hash")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("role")
