"""tables marked as a tournament's games, where moves are never taken back

A takeback (docs/server.md, "Takebacks") is never allowed in a tournament's game; the
table knows it is one from its own row, read with the rest of its fixed facts, so no
action or ask reads the tournament tables. The tables the tournament runners opened before
this revision are the ``tournament_games`` rows' tables: marked here. Expand-only: a new
column with a default, safe beside a server still running the revision before.

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: a plain ``ADD COLUMN`` (as 0014), then the tournaments' tables."""
    op.add_column(
        "game_tables",
        sa.Column("tournament", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    tables = sa.table("game_tables", sa.column("id", sa.String), sa.column("tournament"))
    games = sa.table("tournament_games", sa.column("table_id", sa.String))
    opened = sa.select(games.c.table_id)
    op.execute(tables.update().where(tables.c.id.in_(opened)).values(tournament=sa.true()))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("tournament")
