"""follows: who follows whom, and the friend notices an account stopped

An account follows other accounts (its friends list, docs/server.md "Friends"); it is
told when one of them comes online or joins a tournament unless it stopped that kind of
notice. Expand-only: two new tables, so it is safe beside a server still running the
revision before.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("followed_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table(
        "friend_notices_off",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("friend_notices_off")
    op.drop_index("ix_follows_followed_id", table_name="follows")
    op.drop_table("follows")
