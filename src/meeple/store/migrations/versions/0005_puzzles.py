"""summy puzzles cut from reviewed games, answers and puzzle ratings

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("table_id", sa.String(length=24), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.String(length=16), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("user_id", "puzzle_id"),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("user_id"),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzles")
