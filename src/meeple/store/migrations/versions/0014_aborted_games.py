"""games marked aborted: ended before every player began them, so rated nobody

A game a player left (or lost on time) before making their first moves is
aborted (:data:`meeple.tables.core.ratings.FIRST_MOVES`): it rates nobody, and
``game_tables.aborted`` says so in histories and replays. Every game stored
before this revision was rated as it ended, so it reads false.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: a plain ``ADD COLUMN`` (SQLite adds a column with a constant
    default in place; copying ``game_tables`` would trip the keys that point at it)."""
    op.add_column(
        "game_tables",
        sa.Column("aborted", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("aborted")
