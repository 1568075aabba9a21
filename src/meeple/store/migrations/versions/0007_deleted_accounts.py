"""deleted accounts: which accounts their players deleted, and when

A deleted account keeps its ``users`` row, so its games, results and the
rating histories still name a player; the row loses its name (an anonymous
one instead), its password and its sessions, and ``deleted_accounts`` holds
its id and when. The leaderboards leave such accounts out.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "deleted_accounts",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("deleted_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("user_id"),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("deleted_accounts")
