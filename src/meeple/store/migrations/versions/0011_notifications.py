"""notifications in the site

What the site tells an account (its turn, a game finished, a challenge, a
rematch offered), stored so the list outlives a restart and any server reads it.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("dedupe", sa.String(80), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("read_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("user_id", "dedupe", name="uq_notifications_user_dedupe"),
    )
    op.create_index("ix_notifications_user_id_id", "notifications", ["user_id", "id"])


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index("ix_notifications_user_id_id", table_name="notifications")
    op.drop_table("notifications")
