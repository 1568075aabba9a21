"""personal access tokens, and the bot flag of accounts

A program signs in with a personal access token (``access_tokens``: only the
token's hash is stored, with its scopes); ``users.bot`` marks a bot account.
Every account stored before this revision is a person's, so it reads false.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    # A plain ADD COLUMN (no batch copy of the table on SQLite, which the tables that
    # refer to users would refuse while they hold rows).
    op.add_column(
        "users", sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "access_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(128), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_access_tokens_user_id", "access_tokens", ["user_id"])


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index("ix_access_tokens_user_id", table_name="access_tokens")
    op.drop_table("access_tokens")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("bot")
