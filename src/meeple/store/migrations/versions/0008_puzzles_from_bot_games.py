"""puzzles marked as cut from a game between the server's own bots

The server fills a short puzzle pool from games its bots play in the
background (:mod:`meeple.tables.study.puzzle_supply`); ``puzzles.from_bots`` says
which puzzles came from such a game. Every puzzle stored before this
revision was cut from a public game between people, so it reads false.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("puzzles") as batch:
        batch.add_column(
            sa.Column("from_bots", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("puzzles") as batch:
        batch.drop_column("from_bots")
