"""built-in bots in a tournament

A tournament's creator may fill a casual arena with the server's built-in bots; each is
stored with its number (its player id is minus that) and level. Expand-only: a new table.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "tournament_bots",
        sa.Column(
            "tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("level", sa.String(16), nullable=False),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("tournament_bots")
