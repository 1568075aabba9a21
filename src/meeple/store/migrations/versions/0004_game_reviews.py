"""game reviews: each finished game's analysis, stored once

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "game_reviews",
        sa.Column("table_id", sa.String(length=24), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"]),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("game_reviews")
