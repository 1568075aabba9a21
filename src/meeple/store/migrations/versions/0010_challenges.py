"""challenges between accounts

A person or a bot challenges a named account to a game (docs/bot-api.md,
Challenges); the challenge is stored so that any server may accept it and it
survives a restart.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("from_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("to_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("pace", sa.String(16), nullable=False),
        sa.Column("move_seconds", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_challenges_from_id", "challenges", ["from_id"])
    op.create_index("ix_challenges_to_id", "challenges", ["to_id"])


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index("ix_challenges_to_id", table_name="challenges")
    op.drop_index("ix_challenges_from_id", table_name="challenges")
    op.drop_table("challenges")
