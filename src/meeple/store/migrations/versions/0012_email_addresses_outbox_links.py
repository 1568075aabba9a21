"""email addresses, the outbox, one-time links, and when each account was last seen

An account may keep one email address, verified by a link; emails wait in
``email_outbox`` until a sender (any server) claims and sends them; links
sent by email are stored as their hash (``one_time_links``). ``users.last_seen_at``
tells who is away (issue 31).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    # A plain ADD COLUMN (no batch copy of users on SQLite, which the tables that refer to
    # users would refuse while they hold rows).
    op.add_column("users", sa.Column("last_seen_at", sa.Float(), nullable=True))
    op.create_table(
        "email_addresses",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("verified_at", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_email_addresses_address", "email_addresses", ["address"])
    op.create_table(
        "email_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("to", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("html", sa.Text(), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("dedupe", sa.String(160), nullable=False, unique=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_try_at", sa.Float(), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_at", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
    )
    op.create_index("ix_email_outbox_next_try_at", "email_outbox", ["next_try_at"])
    op.create_table(
        "one_time_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_one_time_links_user_id", "one_time_links", ["user_id"])


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index("ix_one_time_links_user_id", table_name="one_time_links")
    op.drop_table("one_time_links")
    op.drop_index("ix_email_outbox_next_try_at", table_name="email_outbox")
    op.drop_table("email_outbox")
    op.drop_index("ix_email_addresses_address", table_name="email_addresses")
    op.drop_table("email_addresses")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("last_seen_at")
